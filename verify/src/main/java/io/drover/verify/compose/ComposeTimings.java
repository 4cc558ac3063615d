package io.drover.verify.compose;

import io.drover.verify.history.Entry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The clocks a compose cluster runs with, read from its containers' environment ({@code docker-compose.verify.yml}
 * sets them) with the services' own defaults where a variable is not set: what the checks' allowances and the faults'
 * lengths are computed from, so that they follow what the containers really run.
 *
 * @param timings presence TTL, sync interval, stop grace and evacuating sync interval of the reps (the convergence
 *     deadline is the run's, 0 here)
 * @param leaderTtl the longer of the converger's and the auctioneer's leader lock TTL
 */
public record ComposeTimings(Entry.Timings timings, Duration leaderTtl) {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h|d)?");

    static ComposeTimings of(Map<String, String> rep, Map<String, String> converger, Map<String, String> auctioneer) {
        Entry.Timings t = new Entry.Timings(seconds(rep, "DROVER_REP_TIMING_PRESENCETTL", "15s"),
                seconds(rep, "DROVER_REP_TIMING_SYNCINTERVAL", "30s"),
                seconds(rep, "DROVER_REP_TIMING_STOPGRACE", "10s"), 0, seconds(rep, "DROVER_REP_TIMING_EVACUATINGSYNCINTERVAL", "10s"));
        double leader = Math.max(seconds(converger, "DROVER_CONVERGER_LEADERTTL", "15s"),
                seconds(auctioneer, "DROVER_AUCTIONEER_LEADERTTL", "15s"));
        return new ComposeTimings(t, Duration.ofMillis(Math.round(leader * 1000)));
    }

    @Override
    public String toString() {
        return String.format("presence TTL %.1f s, sync %.1f s, stop grace %.1f s, evacuating sync %.1f s, leader TTL "
                + "%.1f s", timings.presenceTtl(), timings.syncInterval(), timings.stopGrace(),
                timings.evacuatingSyncInterval(), leaderTtl.toMillis() / 1000.0);
    }

    private static double seconds(Map<String, String> env, String name, String fallback) {
        return seconds(env.getOrDefault(name, fallback));
    }

    /** A duration as Spring reads one: {@code 500ms}, {@code 10s}, {@code 2m}, ISO-8601 ({@code PT10S}), millis. */
    static double seconds(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.startsWith("pt") || v.startsWith("p")) {
            return Duration.parse(value.strip()).toMillis() / 1000.0;
        }
        Matcher m = SIMPLE.matcher(v);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: " + value);
        }
        double n = Double.parseDouble(m.group(1));
        return switch (m.group(2) == null ? "ms" : m.group(2)) {
            case "ns" -> n / 1e9;
            case "us" -> n / 1e6;
            case "ms" -> n / 1e3;
            case "s" -> n;
            case "m" -> n * 60;
            case "h" -> n * 3600;
            default -> n * 86400;
        };
    }
}
