package io.drover.rep.executor.process.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.CellIsolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the rep may use cgroups, and the reason it gives when it may not (against directories shaped like cgroupfs). */
class CgroupDetectionTest {

    @TempDir
    Path fs;

    @Test
    void allFiveV1ControllersWithACreatableBaseMeanCgroupsV1() throws IOException {
        String mounts = v1Mounts("memory", "cpu", "cpuacct", "pids", "freezer");
        for (String controller : new String[] { "memory", "cpu", "cpuacct", "pids", "freezer" }) {
            Files.createDirectories(fs.resolve(controller).resolve("rep").resolve("drover"));
            Files.writeString(fs.resolve(controller).resolve("rep").resolve("drover").resolve("cgroup.procs"), "");
        }

        CgroupDetection detected = CgroupDetection.detect(mounts, self("/rep"), "drover");

        assertThat(detected.cgroups()).hasValueSatisfying(cgroups -> {
            assertThat(cgroups.version()).isEqualTo(CellIsolation.CGROUPS_V1);
            assertThat(cgroups.bases()).containsEntry("memory", fs.resolve("memory/rep/drover"));
        });
    }

    @Test
    void aMissingControllerIsNamedInTheReason() {
        CgroupDetection detected = CgroupDetection.detect(v1Mounts("memory", "cpu", "cpuacct"), self("/"), "drover");

        assertThat(detected.cgroups()).isEmpty();
        assertThat(detected.reason()).contains("[freezer, pids]");
    }

    @Test
    void aBaseThatCannotBeCreatedIsTheReasonAndLeavesNothingBehind() throws IOException {
        String mounts = v1Mounts("memory", "cpu", "cpuacct", "pids", "freezer");
        Files.createDirectories(fs.resolve("memory"));
        Files.writeString(fs.resolve("pids"), "a file where the pids hierarchy should be");

        CgroupDetection detected = CgroupDetection.detect(mounts, self("/"), "drover");

        assertThat(detected.cgroups()).isEmpty();
        assertThat(detected.reason()).startsWith("cannot create " + fs.resolve("pids/drover"));
        assertThat(fs.resolve("memory/drover")).doesNotExist();
    }

    @Test
    void aV2HierarchyWithoutTheControllersDelegatedIsNotUsed() throws IOException {
        Files.createDirectories(fs.resolve("unified/user.slice"));
        Files.writeString(fs.resolve("unified/user.slice/cgroup.controllers"), "cpu io\n");
        String mounts = "41 31 0:38 / " + fs.resolve("unified") + " rw - cgroup2 cgroup2 rw\n";

        CgroupDetection detected = CgroupDetection.detect(mounts, "0::/user.slice\n", "drover");

        assertThat(detected.cgroups()).isEmpty();
        assertThat(detected.reason()).contains("[memory, pids]").contains("not delegated");
    }

    private String v1Mounts(String... controllers) {
        StringBuilder mounts = new StringBuilder();
        int id = 32;
        for (String controller : controllers) {
            mounts.append(id++).append(" 31 0:29 / ").append(fs.resolve(controller))
                    .append(" rw,relatime - cgroup cgroup rw,").append(controller).append('\n');
        }
        return mounts.toString();
    }

    private static String self(String path) {
        return "8:pids:" + path + "\n6:freezer:" + path + "\n4:memory:" + path + "\n2:cpuacct:" + path + "\n1:cpu:"
                + path + "\n0::/\n";
    }
}
