package io.drover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JDK Flight Recorder profile of one scenario: CPU samples of every thread of this JVM, summed by the library the
 * sampled code was in (the innermost frame outside the JDK) and by the Drover method it was working for (the innermost
 * {@code io.drover} frame). The recording itself is kept next to the results for {@code jfr} or JDK Mission Control.
 */
final class Profile implements AutoCloseable {

    private static final List<Map.Entry<String, String>> LIBRARIES = List.of(
            Map.entry("org.postgresql.", "PostgreSQL JDBC driver"),
            Map.entry("com.zaxxer.hikari.", "Hikari pool"), Map.entry("tools.jackson.", "Jackson (JSON)"),
            Map.entry("com.fasterxml.jackson.", "Jackson (JSON)"), Map.entry("org.apache.kafka.", "Kafka"),
            Map.entry("kafka.", "Kafka"), Map.entry("org.apache.catalina.", "Tomcat"),
            Map.entry("org.apache.coyote.", "Tomcat"), Map.entry("org.apache.tomcat.", "Tomcat"),
            Map.entry("org.springframework.security.", "Spring Security"),
            Map.entry("org.springframework.cloud.gateway.", "Spring Cloud Gateway"),
            Map.entry("org.springframework.web.reactive.", "Spring WebFlux"),
            Map.entry("org.springframework.http.server.reactive.", "Spring WebFlux"),
            Map.entry("reactor.netty.", "Reactor Netty"), Map.entry("io.netty.", "Netty"),
            Map.entry("reactor.", "Reactor"),
            Map.entry("org.springframework.kafka.", "Spring Kafka"), Map.entry("org.springframework.", "Spring"),
            Map.entry("ch.qos.logback.", "Logback"), Map.entry("org.slf4j.", "Logback"),
            Map.entry("io.micrometer.", "Micrometer"), Map.entry("io.drover.", "Drover"));

    /** This JVM's compilations since {@link #prime()}: which tier ran each sample. */
    private static CompiledCode compiled;

    private final Recording recording = new Recording();

    private Profile() {
        recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10)).withStackTrace();
        // what the JIT compilers still do in a warm scenario, and why compiled code was thrown away
        recording.enable("jdk.Compilation").withThreshold(Duration.ZERO).withoutStackTrace();
        recording.enable("jdk.Deoptimization").withoutStackTrace();
        recording.setName("drover-bench");
    }

    /**
     * Starts this JVM's {@link CompiledCode} log, before the cluster starts, and keeps it to the end. The first recording
     * a JVM starts makes JFR instrument the JDK classes behind its I/O and error events ({@code FileInputStream}, the
     * socket channels, {@code Throwable}, ...), and redefining a class throws away every compiled method that inlined
     * it: started at P1 for the first time, it discarded about 80 % of the code the warm-up had compiled (C2 code 6.1 MB
     * to 1.4 MB, C1 code 38.5 MB to 5 MB, read with {@code jcmd Compiler.codecache} every 15 s), and P1 measured the JIT
     * compiling it all again. Started here, that happens before there is code to lose.
     */
    static void prime() {
        compiled = CompiledCode.start();
    }

    static Profile start() {
        Profile profile = new Profile();
        profile.recording.start();
        return profile;
    }

    /** Stops the recording, keeps it as {@code file} and sums its samples. */
    String stopAndSummarize(Path file) throws IOException {
        recording.stop();
        Files.createDirectories(file.getParent());
        recording.dump(file);
        return Summary.of(file, compiled == null ? null : compiled.now()).text(file);
    }

    /** Sums the CPU samples of a recording (this JVM's, or another JVM's written by {@code jcmd JFR.stop}). */
    static String summarize(Path file) throws IOException {
        return Summary.of(file, null).text(file);
    }

    /**
     * One read of a recording: CPU samples by library and by Drover method, the JIT's work (compilations by tier with
     * their time, the libraries whose methods took the most C2 time, deoptimizations by reason) and, for this JVM's
     * own recordings, the tier of the code that ran each sample.
     */
    private static final class Summary {

        private final Map<String, Integer> byLibrary = new HashMap<>();
        private final Map<String, Integer> byOperation = new HashMap<>();
        private final Map<String, Integer> countByTier = new HashMap<>();
        private final Map<String, Integer> msByTier = new HashMap<>();
        private final Map<String, Integer> c2MsByLibrary = new HashMap<>();
        private final Map<String, Integer> deoptByReason = new HashMap<>();
        private final Map<String, Integer> byTier = new HashMap<>();
        private final CompiledCode.Tiers tiers;
        private int samples;
        private int c2Ms;
        private int deopts;

        private Summary(CompiledCode.Tiers tiers) {
            this.tiers = tiers;
        }

        /** {@code tiers}: this JVM's compilations, when the recording is this JVM's (null: another one's). */
        static Summary of(Path file, CompiledCode.Tiers tiers) throws IOException {
            Summary summary = new Summary(tiers);
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                summary.add(event);
            }
            return summary;
        }

        private void add(RecordedEvent event) {
            switch (event.getEventType().getName()) {
                case "jdk.ExecutionSample" -> {
                    if (event.getStackTrace() != null) {
                        samples++;
                        List<RecordedFrame> frames = event.getStackTrace().getFrames();
                        byLibrary.merge(library(frames), 1, Integer::sum);
                        byOperation.merge(operation(frames), 1, Integer::sum);
                        if (tiers != null) {
                            byTier.merge(tiers.of(frames, event.getStartTime()), 1, Integer::sum);
                        }
                    }
                }
                case "jdk.Compilation" -> {
                    int level = event.getInt("compileLevel");
                    String tier = level == 4 ? "C2" : "C1";
                    int ms = (int) event.getDuration().toMillis();
                    countByTier.merge(tier, 1, Integer::sum);
                    msByTier.merge(tier, ms, Integer::sum);
                    if (level == 4) {
                        c2Ms += ms;
                        jdk.jfr.consumer.RecordedMethod method = event.getValue("method");
                        String type = method == null ? "" : method.getType().getName();
                        String library = isJdk(type) ? "JDK" : LIBRARIES.stream()
                                .filter(l -> type.startsWith(l.getKey())).map(Map.Entry::getValue).findFirst()
                                .orElse("other libraries");
                        c2MsByLibrary.merge(library, ms, Integer::sum);
                    }
                }
                case "jdk.Deoptimization" -> {
                    deopts++;
                    deoptByReason.merge(event.getString("reason"), 1, Integer::sum);
                }
                default -> {
                }
            }
        }

        String text(Path file) {
            String jit = countByTier.isEmpty() ? "JIT: no compilation events recorded"
                    : "JIT: %,d C1 compilations (%,d ms), %,d C2 (%,d ms; by library %s); %,d deoptimizations (%s)"
                            .formatted(countByTier.getOrDefault("C1", 0), msByTier.getOrDefault("C1", 0),
                                    countByTier.getOrDefault("C2", 0), msByTier.getOrDefault("C2", 0),
                                    top(c2MsByLibrary, c2Ms, 5), deopts, top(deoptByReason, deopts, 5));
            String code = byTier.isEmpty() ? "" : "; the code that ran them: %s (C1 profiling: methods the JIT has not "
                    .formatted(top(byTier, samples, 6)) + "finished with)";
            return "JFR CPU samples: %d%s; by library: %s; by Drover code: %s; %s; recording %s".formatted(samples,
                    code, top(byLibrary, samples, 8), top(byOperation, samples, 8), jit, file);
        }
    }

    private static String library(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = type(frame);
            if (!isJdk(type)) {
                return LIBRARIES.stream().filter(l -> type.startsWith(l.getKey())).map(Map.Entry::getValue)
                        .findFirst().orElse("other libraries");
            }
        }
        return "JDK";
    }

    private static String operation(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = type(frame);
            if (type.startsWith("io.drover.")) {
                String simple = type.substring(type.lastIndexOf('.') + 1).replaceAll("\\$.*", "");
                String method = frame.getMethod().getName().replaceAll("^lambda\\$(\\w+)\\$\\d+$", "$1");
                return simple + "." + method;
            }
        }
        return "outside Drover code";
    }

    private static String type(RecordedFrame frame) {
        return frame.getMethod() == null ? "" : frame.getMethod().getType().getName();
    }

    private static boolean isJdk(String type) {
        return type.isEmpty() || type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.")
                || type.startsWith("sun.") || type.startsWith("com.sun.");
    }

    private static String top(Map<String, Integer> counts, int total, int limit) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(limit)
                .map(e -> "%s %.0f %%".formatted(e.getKey(), 100.0 * e.getValue() / Math.max(1, total)))
                .collect(Collectors.joining(", "));
    }

    @Override
    public void close() {
        recording.close();
    }
}
