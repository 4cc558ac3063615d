package io.drover.cli.lrp;

import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.UsageException;
import java.util.List;
import io.drover.cli.json.ArrayNode;
import io.drover.cli.json.ObjectNode;

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
        ArrayNode envList = lrp.putArray("env");
        for (String pair : env) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--env takes NAME=VALUE, not '" + pair + "'");
            }
            envList.addObject().put("name", pair.substring(0, eq)).put("value", pair.substring(eq + 1));
        }
        ObjectNode run = lrp.putObject("action").putObject("run").put("path", command.get(0));
        ArrayNode args = run.putArray("args");
        command.subList(1, command.size()).forEach(args::add);
        check(lrp);
        return lrp;
    }

    private void check(ObjectNode lrp) {
        if (check == null || check.equals("none")) {
            return;
        }
        if (ports.isEmpty()) {
            throw new UsageException("--check needs a --port to check");
        }
        ObjectNode probe = lrp.putObject("check_definition").putArray("checks").addObject();
        if (check.equals("tcp")) {
            probe.putObject("tcp_check").put("port", ports.get(0));
        } else if (check.startsWith("http:") && check.length() > 5 && check.charAt(5) == '/') {
            probe.putObject("http_check").put("port", ports.get(0)).put("path", check.substring(5));
        } else {
            throw new UsageException("--check takes tcp, http:/PATH or none, not '" + check + "'");
        }
    }
}
