package io.drover.rep.executor.container;

import java.io.IOException;
import java.nio.file.Path;

/** OCI image layouts on the cell, unpacked once per manifest digest into a shared read-only tree. */
final class OciImages {

    private final Path cache;

    OciImages(Path cache) {
        this.cache = cache;
    }

    Path unpacked(Path layout) throws IOException {
        throw new IOException("oci:// root filesystems are not supported yet: " + layout);
    }
}
