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

    @Test
    void saysWhichTierOfCompiledCodeRanTheSamples() throws Exception {
        Profile.prime(); // the compilation log: tally, which nothing ran before, is compiled after it starts
        assertThat(tallyFor(1_000)).isNotZero(); // long enough for C2
        String summary;
        try (Profile profile = Profile.start()) {
            assertThat(tallyFor(1_500)).isNotZero();
            summary = profile.stopAndSummarize(dir.resolve("tiers.jfr"));
        }
        // a hot method compiled before the profile began: its samples ran in its final code, C2's (or C1's where the
        // JVM stops there: the tests' JVMs do)
        String stopAt = java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption("TieredStopAtLevel").getValue();
        assertThat(summary).containsPattern("the code that ran them: .*" + (stopAt.equals("1") ? "C1 final" : "C2")
                + " [1-9][0-9]* %");
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

    /**
     * Spin's loop again on purpose: a loop shared with the other test could be compiled before the log starts, and the
     * hot method inlined into it would then show as code of unknown tier.
     */
    private static long tallyFor(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        long x = 0;
        while (System.nanoTime() < end) {
            x += tally(x);
        }
        return x;
    }

    private static long tally(long seed) {
        Map<Long, Long> map = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            map.merge(seed % 97 + i, seed, Long::sum);
        }
        return map.size();
    }

    private static long fill(long seed) {
        Map<String, Long> map = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            map.put("k" + (seed + i), seed);
        }
        return map.size();
    }
}
