package io.drover.rep.executor.container;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.rep.executor.container.BundleConfig.Bind;
import io.drover.rep.executor.container.BundleConfig.ProcessSpec;
import io.drover.rep.executor.container.BundleConfig.Spec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a container gets, read off its config.json without a runtime. */
@SuppressWarnings("unchecked")
class BundleConfigTest {

    private static final ProcessSpec USER = new ProcessSpec(List.of("sh"), List.of("A=1"), "/app", 2000, 2000, null);

    private static Spec spec(ProcessSpec process, long memory, boolean swap, int pids, String netns) {
        return new Spec("guid-1", process, List.of(new Bind("/usr", "/usr", true), new Bind("/x/app", "/app", false)),
                "drover/cell-a/guid-1", memory, swap, 512, pids, netns);
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> config, String... path) {
        Object node = config;
        for (String key : path) {
            node = ((Map<String, Object>) node).get(key);
        }
        return (T) node;
    }

    @Test
    void pidMountUtsAndIpcAlwaysAndTheInstancesOwnNetworkWhenItHasOne() {
        assertThat(at(BundleConfig.config(spec(USER, 0, false, 0, null)), "linux", "namespaces").toString())
                .isEqualTo("[{type=pid}, {type=ipc}, {type=uts}, {type=mount}]");
        List<Map<String, String>> withNetwork = at(BundleConfig.config(spec(USER, 0, false, 0, "/run/netns/n")),
                "linux", "namespaces");
        assertThat(withNetwork).contains(Map.of("type", "network", "path", "/run/netns/n"));
    }

    @Test
    void limitsGoToTheInstancesCgroupPath() {
        Map<String, Object> config = BundleConfig.config(spec(USER, 64L << 20, true, 50, null));
        assertThat((String) at(config, "linux", "cgroupsPath")).isEqualTo("drover/cell-a/guid-1");
        assertThat((Object) at(config, "linux", "resources", "memory"))
                .isEqualTo(Map.of("limit", 64L << 20, "swap", 64L << 20));
        assertThat((Object) at(config, "linux", "resources", "cpu")).isEqualTo(Map.of("shares", 512));
        assertThat((Object) at(config, "linux", "resources", "pids")).isEqualTo(Map.of("limit", 50));

        Map<String, Object> unlimited = BundleConfig.config(spec(USER, 0, false, 0, null));
        assertThat((Object) at(unlimited, "linux", "resources", "memory")).isNull();
        assertThat((Object) at(unlimited, "linux", "resources", "pids")).isNull();
        assertThat((Object) at(BundleConfig.config(spec(USER, 64L << 20, false, 0, null)), "linux", "resources",
                "memory")).as("no swap limit where swap is not accounted").isEqualTo(Map.of("limit", 64L << 20));
    }

    @Test
    void aUserOtherThanRootHasNoEffectiveCapabilitiesAndNoNewPrivileges() {
        Map<String, Object> user = BundleConfig.process(USER);
        assertThat((List<Object>) at(user, "capabilities", "effective")).isEmpty();
        assertThat((List<Object>) at(user, "capabilities", "permitted")).isEmpty();
        assertThat((Object) at(user, "noNewPrivileges")).isEqualTo(true);
        assertThat((Object) at(user, "user")).isEqualTo(Map.of("uid", 2000, "gid", 2000));
        assertThat((Object) at(user, "rlimits")).isNull();

        Map<String, Object> root = BundleConfig.process(new ProcessSpec(List.of("sh"), List.of(), "/app", 0, 0, 256L));
        assertThat((List<Object>) at(root, "capabilities", "effective")).contains("CAP_NET_BIND_SERVICE");
        assertThat((Object) at(root, "rlimits"))
                .isEqualTo(List.of(Map.of("type", "RLIMIT_NOFILE", "hard", 256L, "soft", 256L)));
    }

    @Test
    void bindsAreReadOnlyOrWritableAsAskedAndTheRootIsTheBundlesOverlay() {
        Map<String, Object> config = BundleConfig.config(spec(USER, 0, false, 0, null));
        List<Map<String, Object>> mounts = at(config, "mounts");
        assertThat(mounts).filteredOn(m -> m.get("destination").equals("/usr")).singleElement()
                .satisfies(m -> assertThat((List<Object>) m.get("options")).contains("ro", "rbind"));
        assertThat(mounts).filteredOn(m -> m.get("destination").equals("/app")).singleElement()
                .satisfies(m -> assertThat((List<Object>) m.get("options")).contains("rw"));
        assertThat((Object) at(config, "root")).isEqualTo(Map.of("path", "rootfs", "readonly", false));
        assertThat((String) at(config, "hostname")).isEqualTo("guid-1");
    }
}
