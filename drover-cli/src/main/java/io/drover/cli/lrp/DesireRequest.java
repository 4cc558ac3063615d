package io.drover.cli.lrp;

import io.drover.cli.json.ArrayNode;
import io.drover.cli.json.Json;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.session.UsageException;
import java.util.List;

/**
 * The flags of {@code drover desire} as the body of {@code POST /v1/desired_lrps}. Pure. {@code --check tcp} checks the
 * first port, {@code --check http:/health} asks that path on it; a check needs a port.
 */
record DesireRequest(String name, int instances, int memoryMb, int diskMb, List<Integer> ports, List<String> env,
        String check, String domain, String rootfs, int startTimeout, List<String> command) {

    ObjectNode toJson() {
        if (command.isEmpty()) {
            throw new UsageException("what should run? give the command after --, e.g. "
                    + "drover desire web -- python3 -m http.server, or the whole definition with -f lrp.json");
        }
        ObjectNode lrp = Json.object();
        lrp.put("process_guid", name).put("domain", domain).put("rootfs", rootfs).put("instances", instances)
                .put("memory_mb", memoryMb).put("disk_mb", diskMb);
        ArrayNode portList = lrp.putArray("ports");
        ports.forEach(portList::add);
        if (startTimeout > 0) {
            lrp.put("start_timeout", startTimeout);
        }
        lrp.set("env", DefinitionFlags.env(env));
        lrp.set("action", DefinitionFlags.action(command));
        if (check != null && !check.equals("none")) {
            lrp.set("check_definition", DefinitionFlags.checkDefinition(check, ports));
        }
        return lrp;
    }
}
