package io.drover.model.lrp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Records in each state, reached through legal transitions only, and the SPEC 3.1 invariants. */
final class ActualLrpFixtures {

    static final ActualLrpKey KEY = ActualLrpKey.of("web", 0);
    static final UUID EPOCH = UUID.fromString("00000000-0000-0000-0000-00000000e90c");
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final InstanceOwner OWNER = InstanceOwner.of("ig-1", "cell-a");
    static final InstanceOwner OTHER = InstanceOwner.of("ig-2", "cell-b");
    static final NetInfo NET = new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000)));
    /** Never restarts at once, so every crash ends in CRASHED. */
    static final CrashRestartPolicy ALWAYS_WAIT = new CrashRestartPolicy(0, Duration.ofSeconds(30),
            Duration.ofMinutes(16), 200, Duration.ofMinutes(5));

    private ActualLrpFixtures() {
    }

    /** A record in {@code state}; owned states are owned by {@link #OWNER}, RUNNING has {@link #NET}. */
    static ActualLrp inState(ActualLrpState state) {
        ActualLrp lrp = ActualLrp.unclaimed(KEY, "domain-1", EPOCH, T0, 1);
        switch (state) {
            case UNCLAIMED -> {
            }
            case CLAIMED -> lrp.claim(OWNER, null, T0);
            case RUNNING -> {
                lrp.claim(OWNER, null, T0);
                lrp.start(OWNER, NET, null, T0);
            }
            case CRASHED -> {
                lrp.claim(OWNER, null, T0);
                lrp.start(OWNER, NET, null, T0);
                lrp.crash(OWNER, "exited with code 1", ALWAYS_WAIT, T0);
            }
        }
        assertThat(lrp.state()).isEqualTo(state);
        assertInvariants(lrp);
        return lrp;
    }

    /** The placement an auction made of {@link #KEY} on {@code cell}, at definition version 1. */
    static io.drover.model.placement.Placement placedOn(String cell) {
        return new io.drover.model.placement.Placement(cell, EPOCH, 1);
    }

    /** SPEC 3.1: what each state must and must not carry. */
    static void assertInvariants(ActualLrp lrp) {
        switch (lrp.state()) {
            case UNCLAIMED -> {
                assertThat(lrp.owner()).as("UNCLAIMED owner").isEqualTo(InstanceOwner.NONE);
                assertThat(lrp.netInfo()).as("UNCLAIMED net info").isNull();
            }
            case CLAIMED -> {
                assertThat(lrp.owner().isEmpty()).as("CLAIMED without owner").isFalse();
                assertThat(lrp.netInfo()).as("CLAIMED net info").isNull();
                assertThat(lrp.placementError()).as("CLAIMED placement error").isNull();
            }
            case RUNNING -> {
                assertThat(lrp.owner().isEmpty()).as("RUNNING without owner").isFalse();
                assertThat(lrp.netInfo()).as("RUNNING net info").isNotNull();
                assertThat(lrp.placementError()).as("RUNNING placement error").isNull();
            }
            case CRASHED -> {
                assertThat(lrp.owner()).as("CRASHED owner").isEqualTo(InstanceOwner.NONE);
                assertThat(lrp.netInfo()).as("CRASHED net info").isNull();
                assertThat(lrp.crashCount()).as("CRASHED crash count").isPositive();
                assertThat(lrp.crashReason()).as("CRASHED crash reason").isNotNull();
            }
        }
        if (lrp.state() != ActualLrpState.UNCLAIMED) {
            assertThat(lrp.placement().cellId()).as("placement outside UNCLAIMED").isNull();
            assertThat(lrp.placement().placedAt()).as("placement time outside UNCLAIMED").isNull();
        }
        assertThat(lrp.since()).as("since").isNotNull();
    }
}
