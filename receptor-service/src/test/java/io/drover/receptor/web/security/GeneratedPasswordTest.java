package io.drover.receptor.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** SPEC 5.5: secrets never appear in logs, not even a password the receptor made up itself. */
@ExtendWith(OutputCaptureExtension.class)
class GeneratedPasswordTest {

    @Test
    void aGeneratedPasswordGoesToAFileOnlyItsOwnerCanReadAndTheLogSaysWhichFile(CapturedOutput output)
            throws Exception {
        ReceptorCredentials credentials = new SecurityConfiguration().receptorCredentials(
                new ReceptorSecurityProperties("drover", null, false, List.of(), List.of()));

        String password = credentials.generatedPassword();
        assertThat(output.getAll()).contains("receptor-credentials generated=true").doesNotContain(password);
        Matcher file = Pattern.compile("password_file=(\\S+)").matcher(output.getAll());
        assertThat(file.find()).isTrue();
        Path path = Path.of(file.group(1));
        assertThat(Files.readString(path).strip()).isEqualTo(password);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-------");
        Files.delete(path);
    }
}
