package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a download becomes: archives extracted with their permission bits, nothing written outside the target. */
class ArchivesTest {

    @TempDir
    Path dir;

    @Test
    void aTarballIsExtractedKeepingTheExecutableBit() throws IOException {
        Path archive = dir.resolve("app.tgz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(archive))) {
            out.write(tar(entry("bin/run.sh", "#!/bin/sh\necho ran\n", 0755), entry("README", "hello", 0644)));
        }

        Archives.unpackOrCopy(archive, dir.resolve("app"), "app.tgz");

        assertThat(dir.resolve("app/bin/run.sh")).hasContent("#!/bin/sh\necho ran");
        assertThat(Files.isExecutable(dir.resolve("app/bin/run.sh"))).isTrue();
        assertThat(Files.isExecutable(dir.resolve("app/README"))).isFalse();
    }

    @Test
    void aPlainTarAndALongNameAreExtracted() throws IOException {
        String longName = "d/" + "n".repeat(150) + ".txt";
        Path archive = Files.write(dir.resolve("app.tar"), tar(longName(longName), entry(longName.substring(0, 99),
                "x", 0644)));

        Archives.unpackOrCopy(archive, dir.resolve("out"), "app.tar");

        assertThat(dir.resolve("out").resolve(longName)).hasContent("x");
    }

    @Test
    void aZipIsExtractedKeepingTheExecutableBit() throws IOException {
        Path archive = dir.resolve("app.zip");
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + archive.toUri()),
                Map.of("create", "true", "enablePosixFileAttributes", "true"))) {
            Files.createDirectories(zip.getPath("/bin"));
            Files.writeString(zip.getPath("/bin/tool"), "#!/bin/sh\n");
            Files.setPosixFilePermissions(zip.getPath("/bin/tool"), PosixFilePermissions.fromString("rwxr-xr-x"));
        }

        Archives.unpackOrCopy(archive, dir.resolve("app"), "app.zip");

        assertThat(Files.isExecutable(dir.resolve("app/bin/tool"))).isTrue();
    }

    @Test
    void anEntryLeavingTheTargetIsRefused() throws IOException {
        Path archive = Files.write(dir.resolve("evil.tar"), tar(entry("../escaped.txt", "x", 0644)));

        assertThatThrownBy(() -> Archives.unpackOrCopy(archive, dir.resolve("app"), "evil.tar"))
                .isInstanceOf(IOException.class).hasMessageContaining("outside");
        assertThat(dir.resolve("escaped.txt")).doesNotExist();
    }

    @Test
    void anythingElseIsCopiedToTheTargetOrIntoItWhenItIsADirectory() throws IOException {
        Path file = Files.writeString(dir.resolve("data.json"), "{}");
        Archives.unpackOrCopy(file, dir.resolve("conf/settings.json"), "data.json");
        Files.createDirectories(dir.resolve("into"));
        Archives.unpackOrCopy(file, dir.resolve("into"), "data.json");

        assertThat(dir.resolve("conf/settings.json")).hasContent("{}");
        assertThat(dir.resolve("into/data.json")).hasContent("{}");
    }

    static byte[] tar(byte[]... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] entry : entries) {
            out.write(entry);
        }
        out.write(new byte[1024]);
        return out.toByteArray();
    }

    static byte[] entry(String name, String content, int mode) throws IOException {
        return record(name, '0', content.getBytes(StandardCharsets.UTF_8), mode);
    }

    static byte[] longName(String name) throws IOException {
        return record("././@LongLink", 'L', (name + "\0").getBytes(StandardCharsets.UTF_8), 0644);
    }

    /** One ustar header and its data, padded to whole blocks. */
    private static byte[] record(String name, char type, byte[] data, int mode) throws IOException {
        byte[] header = new byte[512];
        put(header, 0, name);
        put(header, 100, String.format("%07o", mode));
        put(header, 108, "0000000");
        put(header, 116, "0000000");
        put(header, 124, String.format("%011o", data.length));
        put(header, 136, "00000000000");
        header[156] = (byte) type;
        put(header, 257, "ustar");
        put(header, 263, "00");
        java.util.Arrays.fill(header, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : header) {
            sum += b & 0xff;
        }
        put(header, 148, String.format("%06o", sum));
        header[154] = 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header);
        out.write(data);
        out.write(new byte[(512 - data.length % 512) % 512]);
        return out.toByteArray();
    }

    private static void put(byte[] header, int offset, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(bytes, 0, header, offset, Math.min(bytes.length, 100));
    }
}
