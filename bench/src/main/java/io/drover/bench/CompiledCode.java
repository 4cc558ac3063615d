package io.drover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Every JIT compilation of this JVM since the benchmark began (JFR's {@code jdk.Compilation}, kept running from before
 * the cluster starts), so that a scenario's CPU samples can say which tier ran them: C2's optimised code, C1's (its
 * profiling tiers count every branch and call, several times slower), or the interpreter. P0 means what an instance
 * costs a cluster that has run for a while; a large C1 share in P1 says the warm-up did not get it there.
 */
final class CompiledCode {

    private final Recording recording = new Recording();

    private CompiledCode() {
        recording.enable("jdk.Compilation").withThreshold(Duration.ZERO).withoutStackTrace();
        recording.setName("drover-bench-compilations");
        recording.setToDisk(true);
    }

    static CompiledCode start() {
        CompiledCode log = new CompiledCode();
        log.recording.start();
        return log;
    }

    /** What has been compiled so far, and when. */
    Tiers now() throws IOException {
        Path file = Files.createTempFile("drover-bench-compilations", ".jfr");
        try {
            recording.dump(file);
            Map<String, NavigableMap<Instant, Integer>> levels = new HashMap<>();
            Map<String, NavigableMap<Instant, Integer>> loops = new HashMap<>();
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (!event.getEventType().getName().equals("jdk.Compilation")) {
                    continue; // the recording's own settings and the like
                }
                RecordedMethod method = event.getValue("method");
                if (method != null && event.getBoolean("succeded")) {
                    // the new code runs from the compilation's end; an on-stack replacement compiles a loop of the
                    // method (its entry stays as it was), kept apart for methods that have no other compiled code
                    (event.getBoolean("isOsr") ? loops : levels).computeIfAbsent(key(method), k -> new TreeMap<>())
                            .put(event.getEndTime(), event.getInt("compileLevel"));
                }
            }
            return new Tiers(levels, loops);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String key(RecordedMethod method) {
        return method.getType().getName() + "." + method.getName() + method.getDescriptor();
    }

    /**
     * For each compiled method, its compilations by time and level (1-3 C1, 4 C2); {@code loops} those of its loops
     * alone (on-stack replacement).
     */
    record Tiers(Map<String, NavigableMap<Instant, Integer>> levels, Map<String, NavigableMap<Instant, Integer>> loops) {

        /**
         * The tier that ran a sample: that of the sampled physical frame (the first that is not inlined into another).
         * A compiled method's tier is that of its last compilation before the sample; a method without one was compiled
         * before the log began or is a stub the log does not name.
         */
        String of(List<RecordedFrame> frames, Instant at) {
            RecordedFrame physical = frames.stream().filter(f -> !"Inlined".equals(f.getType())).findFirst()
                    .orElse(null);
            if (physical == null || physical.getMethod() == null) {
                return "other";
            }
            return switch (physical.getType()) {
                case "Interpreted" -> "interpreted";
                case "Native" -> "native";
                case "JIT compiled" -> {
                    String key = key(physical.getMethod());
                    Map.Entry<Instant, Integer> last = lastBefore(levels.get(key), at);
                    if (last == null) {
                        last = lastBefore(loops.get(key), at); // a long loop, compiled while it ran
                    }
                    yield last == null ? "other" : switch (last.getValue()) {
                        case 4 -> "C2";
                        case 1 -> "C1 final"; // trivial methods: C2 would do no better
                        default -> "C1 profiling";
                    };
                }
                default -> "other";
            };
        }

        private static Map.Entry<Instant, Integer> lastBefore(NavigableMap<Instant, Integer> compilations, Instant at) {
            return compilations == null ? null : compilations.floorEntry(at);
        }
    }
}
