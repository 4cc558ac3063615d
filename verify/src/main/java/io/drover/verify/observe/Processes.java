package io.drover.verify.observe;

import io.drover.verify.history.Entry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The workload's web servers as the machine shows them, whatever the API says: every process whose command line holds
 * the run's marker and runs python, with the process guid, index, instance guid, label and port of its environment,
 * and the cell whose work directory it runs in. Linux's {@code /proc}.
 */
public final class Processes {

    private static final Path PROC = Path.of("/proc");

    private Processes() {
    }

    public static List<Entry.WorkloadProcess> scan(String marker) {
        List<Entry.WorkloadProcess> found = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path dir : dirs) {
                Entry.WorkloadProcess p = read(dir, marker);
                if (p != null) {
                    found.add(p);
                }
            }
        } catch (IOException e) {
            // /proc is always there on Linux; elsewhere nothing is found
        }
        return found;
    }

    private static Entry.WorkloadProcess read(Path dir, String marker) {
        try {
            String[] argv = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8).split("\0");
            if (argv.length == 0 || !argv[0].contains("python") || !List.of(argv).contains(marker)) {
                return null;
            }
            Map<String, String> env = new HashMap<>();
            for (String pair : new String(Files.readAllBytes(dir.resolve("environ")), StandardCharsets.UTF_8)
                    .split("\0")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            if (!env.containsKey("PG") || !env.containsKey("INSTANCE_GUID")) {
                return null;
            }
            return new Entry.WorkloadProcess(Long.parseLong(dir.getFileName().toString()), env.get("PG"),
                    Integer.parseInt(env.getOrDefault("INSTANCE_INDEX", "-1")), env.get("INSTANCE_GUID"),
                    env.get("LABEL"), cell(dir), Integer.parseInt(env.getOrDefault("PORT", "0")));
        } catch (IOException | RuntimeException gone) {
            return null; // the process ended while it was read
        }
    }

    /** The cell whose work directory ({@code .../cells/<cell>/...}) the process runs in. */
    static String cell(Path dir) throws IOException {
        Path cwd = Files.readSymbolicLink(dir.resolve("cwd"));
        for (int i = 0; i < cwd.getNameCount() - 1; i++) {
            if (cwd.getName(i).toString().equals("cells")) {
                return cwd.getName(i + 1).toString();
            }
        }
        return null;
    }

    /** Kills a workload process with SIGKILL. */
    public static boolean kill(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false);
    }
}
