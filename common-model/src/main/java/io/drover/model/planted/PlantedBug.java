package io.drover.model.planted;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A guard the truth checker's tests turn off, to show that a check catches what the guard prevents
 * (docs/verification.md). Set only by the JVM system property {@code drover.test.planted-bug} (names separated by
 * commas), which no Spring property, environment variable or configuration file reaches: production configuration
 * cannot plant a bug. Read on every call, so a test that runs the services in its own JVM can plant a bug for one
 * scenario and take it out again.
 */
public enum PlantedBug {

    /** The receptor applies a {@code PUT} with a stale {@code If-Match} as if it carried none. */
    IF_MATCH("if-match"),
    /** A claim no longer checks that its placement is still the record's (same epoch and definition version). */
    CLAIM_VERSION_CHECK("claim-version-check"),
    /**
     * A rep keeps a container whose slot another incarnation owns, instead of destroying it: in its sync, and when the
     * start it reports for that container (an adopted one, say) is refused.
     */
    SYNC_KEEPS_DUPLICATES("sync-keeps-duplicates"),
    /** The converger plans rule 1 (a missing index) but never creates it. */
    MISSING_INDEX_REPAIR("missing-index-repair"),
    /** A rep runs a task placement whose start it did not make (a redelivered or stale one). */
    TASK_AT_MOST_ONCE("task-at-most-once"),
    /** A completion callback answered 503 is given up instead of tried again. */
    CALLBACK_RETRY("callback-retry"),
    /** The outbox relay counts rows Kafka did not acknowledge as sent. */
    OUTBOX_ACK("outbox-ack");

    /** The system property that plants bugs. */
    public static final String PROPERTY = "drover.test.planted-bug";

    private static final Logger log = LoggerFactory.getLogger(PlantedBug.class);
    private static volatile Planted planted = new Planted(null, Set.of());

    private final String name;

    PlantedBug(String name) {
        this.name = name;
    }

    /** The name the property uses, e.g. {@code claim-version-check}. */
    public String bugName() {
        return name;
    }

    /** Whether this guard is turned off now. */
    public boolean planted() {
        return current().bugs().contains(this);
    }

    /** The bug of that name. */
    public static PlantedBug named(String name) {
        return Arrays.stream(values()).filter(b -> b.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no planted bug " + name));
    }

    private static Planted current() {
        String raw = System.getProperty(PROPERTY);
        Planted last = planted;
        if (raw == last.raw() || raw != null && raw.equals(last.raw())) {
            return last;
        }
        Set<PlantedBug> bugs = raw == null ? Set.of() : Arrays.stream(values())
                .filter(b -> Arrays.asList(raw.split(",")).contains(b.name)).collect(Collectors.toUnmodifiableSet());
        if (!bugs.isEmpty()) {
            log.warn("planted-bug active={} (a test-only switch: this JVM does not behave as Drover does)", raw);
        }
        Planted now = new Planted(raw, bugs);
        planted = now;
        return now;
    }

    private record Planted(String raw, Set<PlantedBug> bugs) {
    }
}
