package io.drover.rep.executor.process.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cgroup file protocol, against a directory shaped like a cgroup. The v2 files in particular: this project's
 * machines only have v1 controllers, so this is where the v2 names and values are pinned (docs/process-executor.md).
 */
class CgroupFilesTest {

    @TempDir
    Path root;

    @Test
    void keyedFilesAreReadByKeyAndMissingOnesReadAsZero() throws IOException {
        Path stat = root.resolve("memory.stat");
        Files.writeString(stat, "cache 12\ninactive_file 4096\ntotal_inactive_file 8192\n");

        assertThat(CgroupFiles.field(stat, "inactive_file")).isEqualTo(4096);
        assertThat(CgroupFiles.field(stat, "total_inactive_file")).isEqualTo(8192);
        assertThat(CgroupFiles.field(stat, "absent")).isZero();
        assertThat(CgroupFiles.number(root.resolve("gone"))).isZero();
        assertThat(CgroupFiles.pids(root.resolve("gone"))).isEmpty();
    }

    @Test
    void v2InstanceGetsItsLimitsSwapOffAndControllersEnabledOnItsParents() throws IOException {
        Path base = root.resolve("drover");
        Path dir = base.resolve("cell-a").resolve("guid-1");
        Files.createDirectories(dir);
        for (Path file : List.of(base.resolve("cgroup.subtree_control"),
                base.resolve("cell-a").resolve("cgroup.subtree_control"), dir.resolve("memory.max"),
                dir.resolve("memory.swap.max"), dir.resolve("cpu.weight"), dir.resolve("pids.max"))) {
            Files.writeString(file, "");
        }
        V2Cgroup cgroup = new V2Cgroup(dir, base);

        cgroup.create(CgroupLimits.of(64, 10, 20));

        assertThat(Files.readString(dir.resolve("memory.max"))).isEqualTo("67108864");
        assertThat(Files.readString(dir.resolve("memory.swap.max"))).isEqualTo("0");
        assertThat(Files.readString(dir.resolve("cpu.weight"))).isEqualTo("10");
        assertThat(Files.readString(dir.resolve("pids.max"))).isEqualTo("20");
        assertThat(Files.readString(base.resolve("cell-a").resolve("cgroup.subtree_control")))
                .isEqualTo("+memory +pids +cpu");
        assertThat(Files.readString(base.resolve("cgroup.subtree_control"))).isEqualTo("+memory +pids +cpu");
        assertThat(cgroup.dirs()).isEqualTo(Map.of("unified", dir));
    }

    @Test
    void v2SampleReadsCurrentLessInactiveFileCpuStatAndOomKills() throws IOException {
        Path dir = Files.createDirectories(root.resolve("i"));
        Files.writeString(dir.resolve("memory.current"), "10485760\n");
        Files.writeString(dir.resolve("memory.stat"), "anon 9000000\ninactive_file 1048576\n");
        Files.writeString(dir.resolve("cpu.stat"), "usage_usec 2500000\nuser_usec 2000000\n");
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n");

        CgroupSample sample = new V2Cgroup(dir, root).sample();

        assertThat(sample).isEqualTo(new CgroupSample(9437184, 2_500_000_000L));
        assertThat(new V2Cgroup(dir, root).oomKills()).isEqualTo(1);
    }

    @Test
    void v2KillUsesCgroupKillWhereTheKernelHasIt() throws IOException {
        Path dir = Files.createDirectories(root.resolve("i"));
        Files.writeString(dir.resolve("cgroup.kill"), "");

        new V2Cgroup(dir, root).kill();

        assertThat(Files.readString(dir.resolve("cgroup.kill"))).isEqualTo("1");
    }

    @Test
    void joiningTheCgroupQuotesItsPathForTheShell() {
        V1Cgroup cgroup = new V1Cgroup(Map.of("memory", Path.of("/cg/mem/it's"), "cpu", Path.of("/cg/cpu/i"),
                "cpuacct", Path.of("/cg/cpu/i"), "pids", Path.of("/cg/pids/i"), "freezer", Path.of("/cg/frz/i")));

        List<String> command = cgroup.joinCommand(Path.of("/bin/sh"));

        assertThat(command).hasSize(3).startsWith("/bin/sh", "-c");
        assertThat(command.get(2)).isEqualTo("echo $$ > '/cg/frz/i/cgroup.procs' && echo $$ > "
                + "'/cg/pids/i/cgroup.procs' && echo $$ > '/cg/mem/it'\\''s/cgroup.procs' && echo $$ > "
                + "'/cg/cpu/i/cgroup.procs' && exec \"$0\" \"$@\"");
    }
}
