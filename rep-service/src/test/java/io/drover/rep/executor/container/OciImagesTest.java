package io.drover.rep.executor.container;

import static io.drover.rep.executor.container.OciLayouts.Entry.dir;
import static io.drover.rep.executor.container.OciLayouts.Entry.file;
import static io.drover.rep.executor.container.OciLayouts.Entry.symlink;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unpacking an OCI image layout: layers in order, whiteouts, links kept as written, nothing outside the tree. */
class OciImagesTest {

    @TempDir
    Path tmp;

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void layersApplyInOrderWithWhiteoutsAndOpaqueDirectories() throws IOException {
        byte[] base = OciLayouts.gzip(OciLayouts.tar(List.of(dir("bin"), file("bin/app", text("#!app"), 0755),
                dir("etc"), file("etc/removed", text("x"), 0644), file("etc/kept", text("kept"), 0600),
                dir("var/cache"), file("var/cache/old", text("old"), 0644), symlink("bin/sh", "/bin/app"))));
        byte[] top = OciLayouts.tar(List.of(file("etc/.wh.removed", new byte[0], 0644),
                file("var/cache/.wh..wh..opq", new byte[0], 0644), file("var/cache/new", text("new"), 0644),
                file("etc/greeting", text("hello"), 0644)));
        Path layout = tmp.resolve("layout");
        String digest = OciLayouts.write(layout, List.of(base, top), List.of(true, false));

        Path rootfs = new OciImages(tmp.resolve("cache")).unpacked(layout);

        assertThat(rootfs).isEqualTo(tmp.resolve("cache").resolve(digest.replace(':', '-')).resolve("rootfs"));
        assertThat(rootfs.resolve("etc/removed")).doesNotExist();
        assertThat(rootfs.resolve("etc/kept")).hasContent("kept");
        assertThat(rootfs.resolve("etc/greeting")).hasContent("hello");
        assertThat(rootfs.resolve("var/cache/old")).doesNotExist();
        assertThat(rootfs.resolve("var/cache/new")).hasContent("new");
        assertThat(Files.isExecutable(rootfs.resolve("bin/app"))).isTrue();
        assertThat(Files.readSymbolicLink(rootfs.resolve("bin/sh"))).isEqualTo(Path.of("/bin/app"));
        assertThat(new OciImages(tmp.resolve("cache")).unpacked(layout)).as("unpacked once").isEqualTo(rootfs);
    }

    @Test
    void anEntryThatWouldLeaveTheTreeOrPassThroughALinkIsRefused() throws IOException {
        byte[] escaping = OciLayouts.tar(List.of(file("../outside", text("x"), 0644)));
        Path first = tmp.resolve("first");
        OciLayouts.write(first, List.of(escaping), List.of(false));
        assertThatThrownBy(() -> new OciImages(tmp.resolve("cache")).unpacked(first))
                .hasMessageContaining("outside the image");

        byte[] throughLink = OciLayouts.tar(List.of(symlink("etc", tmp.toString()), file("etc/planted", text("x"),
                0644)));
        Path second = tmp.resolve("second");
        OciLayouts.write(second, List.of(throughLink), List.of(false));
        assertThatThrownBy(() -> new OciImages(tmp.resolve("cache")).unpacked(second))
                .hasMessageContaining("passes through the link");
        assertThat(tmp.resolve("planted")).doesNotExist();
        assertThat(tmp.resolve("outside")).doesNotExist();
        try (var left = Files.list(tmp.resolve("cache"))) {
            assertThat(left).as("nothing half-unpacked is kept").isEmpty();
        }
    }
}
