package io.drover.cli.tasks;

import io.drover.cli.json.Json;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.lrp.DefinitionFlags;
import io.drover.cli.session.UsageException;
import java.util.List;

/** The flags of {@code drover task submit} as the body of {@code POST /v1/tasks}. Pure. */
record TaskRequest(String guid, String domain, String rootfs, int memoryMb, int diskMb, List<String> env,
        String resultFile, List<String> command) {

    ObjectNode toJson() {
        if (command.isEmpty()) {
            throw new UsageException("what should run? give the command after --, e.g. "
                    + "drover task submit job -- sh -c 'echo 42 > result.txt' --result-file result.txt, "
                    + "or the whole task with -f task.json");
        }
        ObjectNode task = Json.object().put("task_guid", guid).put("domain", domain).put("rootfs", rootfs)
                .put("memory_mb", memoryMb).put("disk_mb", diskMb);
        task.set("env", DefinitionFlags.env(env));
        task.set("action", DefinitionFlags.action(command));
        if (resultFile != null) {
            task.put("result_file", resultFile);
        }
        return task;
    }
}
