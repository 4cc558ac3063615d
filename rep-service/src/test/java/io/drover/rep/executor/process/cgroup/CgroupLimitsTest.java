package io.drover.rep.executor.process.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CgroupLimitsTest {

    @ParameterizedTest(name = "cpu_weight {0} -> cpu.shares {1}, cpu.weight {2}")
    @CsvSource({ "0, 1024, 100", "100, 1024, 100", "90, 922, 90", "50, 512, 50", "10, 102, 10", "1, 10, 1" })
    void cpuWeightKeepsItsRatioInSharesAndWeights(int cpuWeight, int shares, int weight) {
        CgroupLimits limits = CgroupLimits.of(0, cpuWeight, 0);

        assertThat(limits.shares()).isEqualTo(shares);
        assertThat(limits.weight()).isEqualTo(weight);
    }

    @ParameterizedTest(name = "memory_mb {0}, max_pids {1} -> {2} bytes, pids.max {3}")
    @CsvSource({ "0, 0, 0, max", "64, 20, 67108864, 20", "1, 1, 1048576, 1" })
    void zeroMeansNoLimit(int memoryMb, int maxPids, long memoryBytes, String pidsMax) {
        CgroupLimits limits = CgroupLimits.of(memoryMb, 0, maxPids);

        assertThat(limits.memoryBytes()).isEqualTo(memoryBytes);
        assertThat(limits.pidsMax()).isEqualTo(pidsMax);
    }
}
