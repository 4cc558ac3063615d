package io.drover.cli.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionTest {

    @TempDir
    Path root;

    @Test
    void theEnvironmentWins() throws IOException {
        writeClusterEnv(root, "http://file:1");
        Connection c = Connection.resolve(Map.of("DROVER_URL", "http://env:8080/", "DROVER_PASSWORD", "p"), root)
                .orElseThrow();
        assertThat(c).isEqualTo(new Connection("http://env:8080", "drover", "p", "environment"));
    }

    @Test
    void withoutItTheLocalClustersFileInTheWorkingDirectoryOrAboveIsRead() throws IOException {
        writeClusterEnv(root, "http://127.0.0.1:8080");
        Path deeper = Files.createDirectories(root.resolve("a/b"));
        Connection c = Connection.resolve(Map.of(), deeper).orElseThrow();
        assertThat(c.url()).isEqualTo("http://127.0.0.1:8080");
        assertThat(c.user()).isEqualTo("drover");
        assertThat(c.password()).isEqualTo("secret");
        assertThat(c.toString()).doesNotContain("secret");
    }

    @Test
    void droverHomeIsTheLastPlaceLookedAt() throws IOException {
        Path home = Files.createDirectories(root.resolve("home"));
        writeClusterEnv(home, "http://home:1");
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        assertThat(Connection.resolve(Map.of("DROVER_HOME", home.toString()), elsewhere).orElseThrow().url())
                .isEqualTo("http://home:1");
        assertThat(Connection.resolve(Map.of(), elsewhere)).isEmpty();
    }

    @Test
    void readsExportLinesQuotesAndComments() {
        assertThat(Connection.parseEnvFile("# local\nexport A=1\nB=\"two words\"\n  C='3'\nnonsense\n=x\n"))
                .containsExactly(Map.entry("A", "1"), Map.entry("B", "two words"), Map.entry("C", "3"));
    }

    @Test
    void anErrorBodyBecomesItsNameAndMessage() {
        ApiException e = Receptor.error(404, "{\"name\":\"DesiredLRPNotFound\",\"message\":\"desired LRP not found: x\"}");
        assertThat(e.name()).isEqualTo("DesiredLRPNotFound");
        assertThat(e.getMessage()).isEqualTo("desired LRP not found: x");
        assertThat(Receptor.error(502, "<html>bad gateway</html>").name()).isEqualTo("HTTP502");
    }

    private static void writeClusterEnv(Path dir, String url) throws IOException {
        Path file = dir.resolve(".drover/local/cluster.env");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "export DROVER_URL=" + url + "\nexport DROVER_USER=drover\nexport DROVER_PASSWORD=secret\n");
    }
}
