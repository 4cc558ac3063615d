package io.drover.rep.executor.process;

import io.drover.rep.executor.process.cgroup.Cgroups;
import java.util.Optional;

/** Makes the sandbox a rep's instances run in, or says why it cannot be had on this machine. */
@FunctionalInterface
public interface SandboxProvider {

    /**
     * @param cgroups the instances' cgroup hierarchy, empty when the rep cannot use cgroups (sampling)
     * @throws Unavailable with the reason, when the sandbox cannot run here
     */
    Sandbox sandbox(Optional<Cgroups> cgroups) throws Unavailable;

    /** Why a sandbox cannot be had here, in one line. */
    final class Unavailable extends Exception {

        public Unavailable(String reason) {
            super(reason);
        }
    }
}
