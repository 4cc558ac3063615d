package io.drover.receptor.ui;

import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.read.AutoscalerStatuses.Sample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The LRP page's chart of an autoscaled LRP (SPEC 17): the last {@link #WINDOW} of the autoscaler's samples, mean CPU
 * and memory on the left axis (percent), the instance count on the right, the targets as dashed lines, drawn by the
 * page as SVG in a {@value #WIDTH} x {@value #HEIGHT} view box that scales with the page. Pure: coordinates only.
 *
 * @param cpu the CPU line, one SVG {@code points} list per stretch with figures (a tick without any breaks it)
 * @param memory the memory line, likewise
 * @param instances the instance count as steps
 * @param cpuTarget the y of the CPU target, null without one; {@code memoryTarget} likewise
 * @param percentTop the left axis' top, a multiple of 50 and at least 100
 * @param instancesTop the right axis' top: the policy's max, or more if the LRP had more
 * @param summary the chart in words, for a screen reader (its {@code <title>})
 */
record UsageChart(List<String> cpu, List<String> memory, String instances, Double cpuTarget, Double memoryTarget,
        int percentTop, int instancesTop, String summary) {

    static final Duration WINDOW = Duration.ofMinutes(30);
    static final int WIDTH = 600;
    static final int HEIGHT = 150;
    static final int LEFT = 40;
    static final int RIGHT = 565;
    static final int TOP = 8;
    static final int BOTTOM = 130;

    static UsageChart of(List<Sample> samples, AutoscalingPolicy policy, Instant now) {
        double top = Math.max(100, Math.max(max(samples), Math.max(or0(policy.targetCpuPercent()),
                or0(policy.targetMemoryPercent()))));
        int percentTop = (int) (Math.ceil(top / 50) * 50);
        int instancesTop = Math.max(Math.max(1, policy.maxInstances()),
                samples.stream().mapToInt(Sample::instances).max().orElse(0));
        Scale scale = new Scale(now.minus(WINDOW), percentTop, instancesTop);
        return new UsageChart(lines(samples, Sample::cpuPercent, scale), lines(samples, Sample::memoryPercent, scale),
                steps(samples, scale), target(policy.targetCpuPercent(), scale),
                target(policy.targetMemoryPercent(), scale), percentTop, instancesTop, summary(samples, policy));
    }

    private static List<String> lines(List<Sample> samples, Function<Sample, Double> figure, Scale scale) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (Sample s : samples) {
            Double value = figure.apply(s);
            if (value == null) {
                if (!line.isEmpty()) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                continue;
            }
            line.append(line.isEmpty() ? "" : " ").append(point(scale.x(s.at()), scale.percentY(value)));
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    private static String steps(List<Sample> samples, Scale scale) {
        StringBuilder line = new StringBuilder();
        Double previous = null;
        for (Sample s : samples) {
            double x = scale.x(s.at());
            double y = scale.countY(s.instances());
            if (previous != null) {
                line.append(' ').append(point(x, previous)).append(' ');
            }
            line.append(point(x, y));
            previous = y;
        }
        return line.toString();
    }

    private static Double target(Integer percent, Scale scale) {
        return percent == null ? null : scale.percentY(percent);
    }

    private static String summary(List<Sample> samples, AutoscalingPolicy policy) {
        if (samples.isEmpty()) {
            return "No samples yet: the autoscaler records one each time it looks at the LRP.";
        }
        Sample last = samples.get(samples.size() - 1);
        return String.format(Locale.ROOT, "Last %d minutes, %d samples. Now: cpu %s, memory %s, %d instances "
                + "(%d to %d allowed).", WINDOW.toMinutes(), samples.size(), percent(last.cpuPercent()),
                percent(last.memoryPercent()), last.instances(), policy.minInstances(), policy.maxInstances());
    }

    static String percent(Double value) {
        return value == null ? "no figures" : String.format(Locale.ROOT, "%.1f%%", value);
    }

    private static double max(List<Sample> samples) {
        double max = 0;
        for (Sample s : samples) {
            max = Math.max(max, Math.max(or0(s.cpuPercent()), or0(s.memoryPercent())));
        }
        return max;
    }

    private static double or0(Number n) {
        return n == null ? 0 : n.doubleValue();
    }

    private static String point(double x, double y) {
        return String.format(Locale.ROOT, "%.1f,%.1f", x, y);
    }

    /** From time and figures to the view box. */
    private record Scale(Instant from, int percentTop, int instancesTop) {

        double x(Instant at) {
            double share = (double) Duration.between(from, at).toMillis() / WINDOW.toMillis();
            return LEFT + Math.max(0, Math.min(1, share)) * (RIGHT - LEFT);
        }

        double percentY(double percent) {
            return BOTTOM - Math.min(percent, percentTop) / percentTop * (BOTTOM - TOP);
        }

        double countY(int count) {
            return BOTTOM - (double) Math.min(count, instancesTop) / instancesTop * (BOTTOM - TOP);
        }
    }
}
