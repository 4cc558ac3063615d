package io.drover.rep.logs;

import io.drover.rep.executor.LogSource;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /v1/cells/{cell_id}/instances/{instance_guid}/logs?tail=N&follow=true&stream=stdout|stderr|rep}, read
 * from a raw path and query. Pure: a bad request is an {@link IllegalArgumentException} naming what is wrong.
 *
 * @param sources every source without {@code stream}; only the named one with it
 */
record LogRequest(String cellId, String instanceGuid, int tail, boolean follow, Set<LogSource> sources) {

    static final int DEFAULT_TAIL = 100;
    static final int MAX_TAIL = 100_000;

    static LogRequest parse(String rawPath, String rawQuery) {
        String[] parts = rawPath.split("/", -1);
        if (parts.length != 7 || !parts[0].isEmpty() || !"v1".equals(parts[1]) || !"cells".equals(parts[2])
                || !"instances".equals(parts[4]) || !"logs".equals(parts[6]) || parts[3].isEmpty()
                || parts[5].isEmpty()) {
            throw new IllegalArgumentException("no such path: " + rawPath);
        }
        Map<String, String> query = query(rawQuery);
        return new LogRequest(decode(parts[3]), decode(parts[5]), tail(query.get("tail")),
                follow(query.get("follow")), sources(query.get("stream")));
    }

    private static int tail(String value) {
        if (value == null) {
            return DEFAULT_TAIL;
        }
        try {
            int tail = Integer.parseInt(value);
            if (tail >= 0 && tail <= MAX_TAIL) {
                return tail;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("tail must be a number of lines from 0 to " + MAX_TAIL + ": " + value);
    }

    private static boolean follow(String value) {
        if (value == null || "false".equals(value)) {
            return false;
        }
        if ("true".equals(value)) {
            return true;
        }
        throw new IllegalArgumentException("follow must be true or false: " + value);
    }

    private static Set<LogSource> sources(String value) {
        if (value == null) {
            return EnumSet.allOf(LogSource.class);
        }
        return EnumSet.of(LogSource.byLabel(value).orElseThrow(
                () -> new IllegalArgumentException("stream must be stdout, stderr or rep: " + value)));
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (query.put(name, eq < 0 ? "" : decode(pair.substring(eq + 1))) != null) {
                throw new IllegalArgumentException("parameter given twice: " + name);
            }
        }
        return query;
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("undecodable: " + raw);
        }
    }
}
