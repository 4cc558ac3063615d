package io.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileTest {

    @TempDir
    Path dir;

    @Test
    void attributesSamplesToTheDroverMethodThatBurnedTheCpu() throws Exception {
        Path file = dir.resolve("p.jfr");
        String summary;
        try (Profile profile = Profile.start()) {
            assertThat(spin(1_500)).isNotZero();
            summary = profile.stopAndSummarize(file);
        }
        assertThat(file).exists().isNotEmptyFile();
        assertThat(summary).contains("by library: Drover").contains("ProfileTest.fill");
    }

    /** Ordinary allocating work: JFR cannot walk the stack of a tight loop compiled without safepoint polls. */
    private static long spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        long x = 0;
        while (System.nanoTime() < end) {
            x += fill(x);
        }
        return x;
    }

    private static long fill(long seed) {
        Map<String, Long> map = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            map.put("k" + (seed + i), seed);
        }
        return map.size();
    }
}
