package io.drover.rep.executor.process;

import io.drover.model.json.Json;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.NetInfo;
import io.drover.rep.executor.ContainerSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The environment of an instance's processes, in increasing precedence: the few variables inherited from the rep
 * ({@code inherit-env}; nothing else of the rep's environment leaks in), the desired LRP's env, the action's env, and
 * Drover's own variables, which the user cannot override.
 */
final class InstanceEnvironment {

    private InstanceEnvironment() {
    }

    static Map<String, String> of(ContainerSpec spec, List<EnvVar> actionEnv, NetInfo netInfo,
            List<String> inheritEnv, Function<String, String> hostEnv) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : inheritEnv) {
            String value = hostEnv.apply(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        spec.definition().env().forEach(v -> env.put(v.name(), v.value()));
        actionEnv.forEach(v -> env.put(v.name(), v.value()));
        env.putAll(droverVariables(spec, netInfo));
        return env;
    }

    private static Map<String, String> droverVariables(ContainerSpec spec, NetInfo netInfo) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("INSTANCE_INDEX", Integer.toString(spec.key().index()));
        env.put("INSTANCE_GUID", spec.instanceGuid());
        env.put("DROVER_INSTANCE_IP", netInfo.address());
        if (netInfo.ports().isEmpty()) {
            env.put("DROVER_INSTANCE_ADDR", netInfo.address());
        } else {
            int port = netInfo.ports().get(0).hostPort();
            env.put("PORT", Integer.toString(port));
            env.put("DROVER_INSTANCE_ADDR", netInfo.address() + ":" + port);
        }
        env.put("DROVER_INSTANCE_PORTS", Json.write(netInfo.ports()));
        return env;
    }
}
