package io.drover.rep.executor.process.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a process's own cgroups are, for the mount layouts reps meet. */
class CgroupPathsTest {

    /** This project's CI machine: v1 controllers each on its own mount, the rep in a memory cgroup of its session. */
    static final String V1_MOUNTS = """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
            33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
            35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
            39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
            40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;

    static final String V1_SELF = """
            9:name=systemd:/
            8:pids:/
            6:freezer:/
            4:memory:/process_api/be3c
            2:cpuacct:/
            1:cpu:/
            0::/
            """;

    @Test
    void v1ControllersAreFoundUnderTheirMountsAtTheProcessesOwnPath() {
        Map<String, Path> dirs = CgroupPaths.v1(V1_MOUNTS, V1_SELF);

        assertThat(dirs).containsEntry("memory", Path.of("/sys/fs/cgroup/memory/process_api/be3c"))
                .containsEntry("cpu", Path.of("/sys/fs/cgroup/cpu"))
                .containsEntry("pids", Path.of("/sys/fs/cgroup/pids"))
                .containsEntry("freezer", Path.of("/sys/fs/cgroup/freezer"))
                .containsEntry("cpuacct", Path.of("/sys/fs/cgroup/cpuacct")).doesNotContainKey("name=systemd");
        assertThat(CgroupPaths.v2(V1_MOUNTS, V1_SELF)).contains(Path.of("/sys/fs/cgroup/unified"));
    }

    @Test
    void coMountedControllersShareOneDirectory() {
        String mounts = "30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct\n";
        String self = "3:cpu,cpuacct:/system.slice/drover-rep.service\n";

        assertThat(CgroupPaths.v1(mounts, self))
                .containsEntry("cpu", Path.of("/sys/fs/cgroup/cpu,cpuacct/system.slice/drover-rep.service"))
                .containsEntry("cpuacct", Path.of("/sys/fs/cgroup/cpu,cpuacct/system.slice/drover-rep.service"));
    }

    @Test
    void aContainerThatSeesOnlyItsSubtreeFindsItsCgroupAtTheMountPoint() {
        String mounts = "700 690 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n";
        String self = "4:memory:/docker/abc\n";

        assertThat(CgroupPaths.v1(mounts, self)).containsEntry("memory", Path.of("/sys/fs/cgroup/memory"));
    }

    @Test
    void aPathOutsideTheMountedSubtreeIsNotReachable() {
        String mounts = "700 690 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";

        assertThat(CgroupPaths.v1(mounts, "4:memory:/elsewhere\n")).isEmpty();
    }

    @Test
    void unifiedHierarchyGivesTheV2Directory() {
        String mounts = "25 30 0:23 / /sys/fs/cgroup rw,nosuid,nodev shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";
        String self = "0::/system.slice/drover rep.service\n";

        assertThat(CgroupPaths.v2(mounts.replace("/sys/fs/cgroup", "/sys/fs/cgroup"), self))
                .contains(Path.of("/sys/fs/cgroup/system.slice/drover rep.service"));
        assertThat(CgroupPaths.v1(mounts, self)).isEmpty();
    }

    @Test
    void mountPointsWithEscapedSpacesAreDecoded() {
        String mounts = "41 31 0:38 / /mnt/my\\040cgroups rw - cgroup2 cgroup2 rw\n";

        assertThat(CgroupPaths.v2(mounts, "0::/\n")).contains(Path.of("/mnt/my cgroups"));
    }
}
