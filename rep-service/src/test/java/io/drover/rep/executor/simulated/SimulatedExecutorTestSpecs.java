package io.drover.rep.executor.simulated;

import io.drover.rep.executor.ContainerSpec;

/** The simulated executor's test specs, for tests of other packages. */
public final class SimulatedExecutorTestSpecs {

    private SimulatedExecutorTestSpecs() {
    }

    /** An instance of LRP "app" asking for {@code memoryMb}, one port. */
    public static ContainerSpec spec(String guid, int index, int memoryMb) {
        return SimulatedExecutorTest.spec(guid, index, memoryMb);
    }
}
