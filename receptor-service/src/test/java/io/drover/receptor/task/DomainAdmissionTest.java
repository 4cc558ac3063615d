package io.drover.receptor.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.receptor.web.ApiException;
import io.drover.test.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When a submission counts its domain's unfinished tasks, and when it is refused: a limit of 100, headroom 10. */
class DomainAdmissionTest {

    final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    final AtomicLong unfinished = new AtomicLong();
    final AtomicInteger counts = new AtomicInteger();
    final DomainAdmission admission = new DomainAdmission(domain -> {
        counts.incrementAndGet();
        return domain.equals("batch") ? unfinished.get() : 0;
    }, clock, new TaskApiProperties(100, 10, Duration.ofSeconds(1), Duration.ofSeconds(10), java.util.List.of("*"),
            Duration.ofSeconds(30)));

    @Test
    void farFromTheLimitOneCountServesEverySubmissionOfASecond() {
        unfinished.set(50);
        for (int i = 0; i < 30; i++) {
            admission.admit("batch");
        }
        assertThat(counts).hasValue(1);

        clock.advance(Duration.ofMillis(1_001));
        admission.admit("batch");
        assertThat(counts).hasValue(2);
    }

    @Test
    void theSubmissionsThisReceptorAdmittedCountUntilTheNextCount() {
        unfinished.set(85);
        for (int i = 0; i < 5; i++) {
            admission.admit("batch");
        }
        assertThat(counts).as("85, then 86 to 89: still outside the headroom").hasValue(1);
        admission.admit("batch");
        assertThat(counts).as("90: within the headroom, counted").hasValue(2);
    }

    @Test
    void withinTheHeadroomEverySubmissionCounts() {
        unfinished.set(95);
        admission.admit("batch");
        admission.admit("batch");
        admission.admit("batch");
        assertThat(counts).hasValue(3);
    }

    @Test
    void aFullDomainIsRefusedWithARetryAfterAndWithoutCountingAgainForASecond() {
        unfinished.set(100);
        assertThatThrownBy(() -> admission.admit("batch")).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status().value()).isEqualTo(429);
            assertThat(e.error().name()).isEqualTo("TooManyTasks");
            assertThat(e.headers()).containsEntry("Retry-After", "10");
        });
        assertThatThrownBy(() -> admission.admit("batch")).isInstanceOf(ApiException.class);
        assertThat(counts).hasValue(1);
        admission.admit("another-domain");

        unfinished.set(99);
        clock.advance(Duration.ofMillis(1_001));
        admission.admit("batch");
        assertThat(counts).hasValue(3);
    }
}
