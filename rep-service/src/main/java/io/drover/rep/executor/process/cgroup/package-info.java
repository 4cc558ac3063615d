/**
 * Per-instance cgroups (v1, or v2 where the machine is unified): where the rep's own cgroups are, how an instance's
 * cgroup is made, joined before exec, limited, measured, killed whole and removed.
 */
package io.drover.rep.executor.process.cgroup;
