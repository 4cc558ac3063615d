package io.drover.rep.executor.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the process executor ({@code drover.rep.process.*}).
 *
 * @param workDir root of the cells' working directories ({@code <work-dir>/<cell>/<instance-guid>/}); pid files live
 *     there, so it must survive a rep restart for adoption to work
 * @param hostPortRange host ports handed to containers, {@code first-last}
 * @param stopGrace how long a stop waits between SIGTERM and SIGKILL when the caller gives no grace
 * @param logCap size at which stdout.log/stderr.log are rotated (copy to {@code .1}, truncate)
 * @param startingPollInterval health poll while starting (SPEC 8.3: 0.5 s)
 * @param runningPollInterval health poll once running (SPEC 8.3: 30 s)
 * @param sampleInterval how often memory, pid count, log size and adopted trees are sampled
 * @param monitorTimeout how long one run of a monitor action may take before it counts as failed
 * @param inheritEnv variables passed on from the rep's own environment (nothing else is: the rep's secrets stay)
 * @param threads scheduler threads shared by all cells of this rep
 * @param isolation {@code auto}: a cgroup per instance where the machine allows it, else sampling; {@code cgroups}:
 *     refuse to start without them; {@code sampling}: never use cgroups (docs/process-executor.md)
 * @param cgroupRoot the name of the rep's cgroup directory under its own cgroup, holding one per cell
 */
@ConfigurationProperties("drover.rep.process")
public record ProcessExecutorProperties(Path workDir, @DefaultValue("61000-61999") String hostPortRange,
        @DefaultValue("10s") Duration stopGrace, @DefaultValue("10MB") DataSize logCap,
        @DefaultValue("500ms") Duration startingPollInterval, @DefaultValue("30s") Duration runningPollInterval,
        @DefaultValue("1s") Duration sampleInterval, @DefaultValue("10s") Duration monitorTimeout,
        @DefaultValue({ "PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER" }) List<String> inheritEnv,
        @DefaultValue("4") int threads, @DefaultValue("auto") IsolationSetting isolation,
        @DefaultValue("drover") String cgroupRoot) {

    public ProcessExecutorProperties {
        workDir = workDir != null ? workDir : Path.of(System.getProperty("java.io.tmpdir"), "drover", "cells");
        PortRange.parse(hostPortRange);
        if (stopGrace.isNegative()) {
            throw new IllegalArgumentException("drover.rep.process.stop-grace must not be negative: " + stopGrace);
        }
        requirePositive("starting-poll-interval", startingPollInterval);
        requirePositive("running-poll-interval", runningPollInterval);
        requirePositive("sample-interval", sampleInterval);
        requirePositive("monitor-timeout", monitorTimeout);
        if (logCap.toBytes() < 1024) {
            throw new IllegalArgumentException("drover.rep.process.log-cap must be at least 1KB: " + logCap);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("drover.rep.process.threads must be at least 1: " + threads);
        }
        inheritEnv = List.copyOf(inheritEnv);
        if (!cgroupRoot.matches("[A-Za-z0-9._-]+") || cgroupRoot.chars().allMatch(c -> c == '.')) {
            throw new IllegalArgumentException(
                    "drover.rep.process.cgroup-root must be one plain directory name: " + cgroupRoot);
        }
    }

    /** Whether instances get cgroups: where possible, always (or fail), or never. */
    public enum IsolationSetting {
        AUTO, CGROUPS, SAMPLING
    }

    PortRange portRange() {
        return PortRange.parse(hostPortRange);
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("drover.rep.process." + name + " must be positive: " + value);
        }
    }
}
