package io.drover.cli.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the receptor is and who to be: {@code DROVER_URL}, {@code DROVER_USER} (default {@code drover}) and
 * {@code DROVER_PASSWORD}, or, when {@code DROVER_URL} is not set, the {@code cluster.env} that {@code ./drover-local}
 * writes ({@code .drover/local/cluster.env} in the working directory or one above it, else under {@code DROVER_HOME}).
 */
public record Connection(String url, String user, String password, String source) {

    static final String CLUSTER_ENV = ".drover/local/cluster.env";

    /** Empty when nothing says where a receptor is. */
    public static Optional<Connection> resolve(Map<String, String> env, Path workingDirectory) {
        if (notBlank(env.get("DROVER_URL"))) {
            return Optional.of(of(env, "environment"));
        }
        for (Path dir = workingDirectory.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Optional<Connection> found = fromFile(dir.resolve(CLUSTER_ENV));
            if (found.isPresent()) {
                return found;
            }
        }
        return notBlank(env.get("DROVER_HOME")) ? fromFile(Path.of(env.get("DROVER_HOME")).resolve(CLUSTER_ENV))
                : Optional.empty();
    }

    /** {@code export NAME=value} or {@code NAME=value} lines; quotes around a value are dropped. */
    static Map<String, String> parseEnvFile(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("export ")) {
                line = line.substring(7).strip();
            }
            int eq = line.indexOf('=');
            if (line.isEmpty() || line.startsWith("#") || eq <= 0) {
                continue;
            }
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                    || value.startsWith("'") && value.endsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            values.put(line.substring(0, eq).strip(), value);
        }
        return values;
    }

    private static Optional<Connection> fromFile(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Map<String, String> values = parseEnvFile(Files.readString(file));
            return notBlank(values.get("DROVER_URL")) ? Optional.of(of(values, file.toString())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Connection of(Map<String, String> values, String source) {
        String url = values.get("DROVER_URL").strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        String user = notBlank(values.get("DROVER_USER")) ? values.get("DROVER_USER") : "drover";
        return new Connection(url, user, values.getOrDefault("DROVER_PASSWORD", ""), source);
    }

    private static boolean notBlank(String value) {
        return value != null && !value.isBlank();
    }

    @Override
    public String toString() {
        return "Connection[url=" + url + ", user=" + user + ", password=***, source=" + source + "]";
    }
}
