package io.drover.receptor.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.read.AutoscalerStatuses.Sample;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chart's coordinates and the panel's words, from samples to the 600 x 150 view box. */
class UsageChartTest {

    private static final Instant NOW = Instant.parse("2026-12-03T10:30:00Z");
    private static final AutoscalingPolicy POLICY = new AutoscalingPolicy(1, 4, 50, null, 0, 300);

    @Test
    void samplesSpanTheLastThirtyMinutesLeftToRight() {
        UsageChart chart = UsageChart.of(List.of(sample(30, 0.0, 1), sample(15, 50.0, 2), sample(0, 100.0, 4)),
                POLICY, NOW);
        assertThat(chart.cpu()).containsExactly("40.0,130.0 302.5,69.0 565.0,8.0");
        assertThat(chart.instances()).as("steps, on the right axis up to max 4")
                .isEqualTo("40.0,99.5 302.5,99.5 302.5,69.0 565.0,69.0 565.0,8.0");
        assertThat(chart.cpuTarget()).isEqualTo(69.0);
        assertThat(chart.memoryTarget()).isNull();
        assertThat(chart.percentTop()).isEqualTo(100);
        assertThat(chart.summary()).isEqualTo("Last 30 minutes, 3 samples. Now: cpu 100.0%, memory no figures, "
                + "4 instances (1 to 4 allowed).");
    }

    @Test
    void aTickWithoutFiguresBreaksTheLineAndTheAxisGrowsToTheHighestFigure() {
        UsageChart chart = UsageChart.of(List.of(sample(20, 30.0, 1), sample(10, null, 1), sample(5, 240.0, 6)),
                POLICY, NOW);
        assertThat(chart.cpu()).hasSize(2);
        assertThat(chart.percentTop()).isEqualTo(250);
        assertThat(chart.instancesTop()).as("the LRP had more than the policy allows now").isEqualTo(6);
    }

    @Test
    void noSamplesYetIsSaid() {
        UsageChart chart = UsageChart.of(List.of(), POLICY, NOW);
        assertThat(chart.cpu()).isEmpty();
        assertThat(chart.instances()).isEmpty();
        assertThat(chart.summary()).startsWith("No samples yet");
    }

    @Test
    void thePanelSaysThePolicyAndTheLastDecision() {
        assertThat(AutoscalingPanel.policy(new AutoscalingPolicy(2, 8, 60, 80, 15, 120)))
                .isEqualTo("2–8 instances at cpu 60%, memory 80% per instance; up after 15 s, down after 120 s of "
                        + "agreeing figures");
        assertThat(AutoscalingPanel.status(null, POLICY, NOW)).isEqualTo("Not evaluated yet.");
        assertThat(AutoscalingPanel.status(new AutoscalingStatus(NOW.minusSeconds(4), 12.34, null, 3, 3,
                "steady at 3", NOW.minusSeconds(600), 4, 3, "autoscaled from 4 to 3: ..."), POLICY, NOW))
                .isEqualTo("Wants 3 (steady at 3), looked 4s ago; mean cpu 12.3% over 3 instances. Last scaled "
                        + "4 → 3 10m ago: autoscaled from 4 to 3: ...");
        assertThat(AutoscalingPanel.status(new AutoscalingStatus(NOW, null, null, 0, 2, "no figures", null, null,
                null, null), new AutoscalingPolicy(1, 4, 50, 80, 0, 300), NOW))
                .isEqualTo("Wants 2 (no figures), looked 0s ago; no instance measured yet.");
    }

    private static Sample sample(int minutesAgo, Double cpu, int instances) {
        return new Sample(NOW.minusSeconds(60L * minutesAgo), cpu, null, instances);
    }
}
