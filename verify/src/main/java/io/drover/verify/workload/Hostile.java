package io.drover.verify.workload;

import io.drover.verify.history.Kinds;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * Hostile requests aimed at the workload's own keys, after the ideas of the receptor's fuzz corpus (receptor-service's
 * {@code HostileRequests}): malformed If-Match values, invalid UTF-8 and lone surrogates, bodies over the limit and
 * nested too deep, invalid fields, bad credentials on writes, path parameters that are no guid or no index. None may
 * change anything, and none may get a 5xx. Each write that could change a desired LRP carries a value no ordinary call
 * writes ({@code hostile-N}), so that the linearizability check would see it if it slipped through.
 */
public final class Hostile {

    /**
     * One request: method, path, headers, raw body, and how the history shows the body; {@code kind} is
     * {@link Kinds#HOSTILE}, or the ordinary kind of a request the API may leniently accept (an odd Content-Type on a
     * valid update), which then joins the linearizability history like any other.
     */
    public record Request(String kind, String method, String path, Map<String, String> headers, byte[] body,
            String shown) {

        Request(String method, String path, Map<String, String> headers, byte[] body, String shown) {
            this(Kinds.HOSTILE, method, path, headers, body, shown);
        }
    }

    private static final byte[][] INVALID_UTF8 = { { (byte) 0xC0, (byte) 0xAF }, { (byte) 0xED, (byte) 0xA0, (byte) 0x80 },
            { (byte) 0xFF }, { (byte) 0x80 }, { (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80 } };
    private static final List<String> IF_MATCH = List.of("abc", "\"\"", "\"a:b\"", "W/", "\"", ",",
            "\"00000000-0000-0000-0000-000000000000:1\"", "\"00000000-0000-0000-0000-000000000000:-1\"",
            "\"" + "x".repeat(20_000) + "\"", "\"00000000-0000-0000-0000-000000000000:" + "9".repeat(400) + "\"");

    private final String authorization;
    private final List<BiFunction<Random, String, Request>> kinds = List.of(this::ifMatch, this::invalidUtf8,
            this::loneSurrogate, this::invalidCreate, this::deepNesting, this::overTheLimit, this::badCredentials,
            this::badPath, this::badContentType, this::invalidTask);

    public Hostile(String authorization) {
        this.authorization = authorization;
    }

    public Request next(Random random, String key) {
        return kinds.get(random.nextInt(kinds.size())).apply(random, key);
    }

    private Request ifMatch(Random random, String key) {
        Map<String, String> headers = json();
        headers.put("If-Match", IF_MATCH.get(random.nextInt(IF_MATCH.size())));
        return put(key, headers, "{\"annotation\": \"hostile-" + random.nextInt(1_000_000) + "\"}");
    }

    private Request invalidUtf8(Random random, String key) {
        byte[] invalid = INVALID_UTF8[random.nextInt(INVALID_UTF8.length)];
        byte[] body = concat(bytes("{\"annotation\": \"hostile-" + random.nextInt(1_000_000)), invalid, bytes("\"}"));
        return new Request("PUT", "/v1/desired_lrps/" + key, json(), body, "{\"annotation\": \"hostile-...<invalid UTF-8>\"}");
    }

    private Request loneSurrogate(Random random, String key) {
        return put(key, json(), "{\"annotation\": \"hostile-" + random.nextInt(1000) + "\\uD800\"}");
    }

    private Request invalidCreate(Random random, String key) {
        String base = Bodies.lrp(key, 1, "hostile-" + random.nextInt(1_000_000), "hostile");
        String body = switch (random.nextInt(6)) {
            case 0 -> base.replace("\"instances\": 1", "\"instances\": -1");
            case 1 -> base.replace("\"instances\": 1", "\"instances\": \"one\"");
            case 2 -> base.replace("\"rootfs\": \"preloaded:host\"", "\"rootfs\": \"no scheme\"");
            case 3 -> base.substring(0, base.length() - 1) + ", \"unknown_field\": 1}";
            case 4 -> base + " trailing";
            default -> base.replace("{\"process_guid\"", "{\"instances\": 2, \"process_guid\"");
        };
        return new Request("POST", "/v1/desired_lrps", json(), bytes(body), body);
    }

    private Request deepNesting(Random random, String key) {
        String nested = "[".repeat(20_000) + "]".repeat(20_000);
        String body = "{\"annotation\": \"hostile-" + random.nextInt(1000) + "\", \"routes\": {\"r\": " + nested + "}}";
        return new Request("PUT", "/v1/desired_lrps/" + key, json(), bytes(body), "{\"routes\": {\"r\": [[[...20,000 levels]]]}}");
    }

    private Request overTheLimit(Random random, String key) {
        String body = "{\"annotation\": \"hostile-" + "a".repeat(1024 * 1024) + "\"}";
        return new Request("PUT", "/v1/desired_lrps/" + key, json(), bytes(body), "{\"annotation\": \"hostile-a...(1 MiB)\"}");
    }

    private Request badCredentials(Random random, String key) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Authorization", List.of("Basic !!!", "Basic " + Base64.getEncoder()
                .encodeToString(bytes("drover:wrong")), "Bearer nothing", authorization + "x").get(random.nextInt(4)));
        return random.nextBoolean() ? new Request("DELETE", "/v1/desired_lrps/" + key, headers, null, null)
                : new Request("PUT", "/v1/desired_lrps/" + key, headers, bytes("{\"instances\": 3}"), "{\"instances\": 3}");
    }

    private Request badPath(Random random, String key) {
        String path = List.of("/v1/desired_lrps/" + key + "%00", "/v1/desired_lrps/" + key + "%2F..",
                "/v1/actual_lrps/" + key + "/index/-1", "/v1/actual_lrps/" + key + "/index/abc",
                "/v1/actual_lrps/" + key + "/index/99999999999", "/v1/desired_lrps/" + "x".repeat(200))
                .get(random.nextInt(6));
        String method = path.contains("/index/") ? "DELETE" : "PUT";
        return new Request(method, path, json(), method.equals("PUT") ? bytes("{\"instances\": 3}") : null,
                method.equals("PUT") ? "{\"instances\": 3}" : null);
    }

    /** A valid update with an odd Content-Type: the API may read it as JSON anyway (the fuzz corpus allows either). */
    private Request badContentType(Random random, String key) {
        Map<String, String> headers = json();
        headers.put("Content-Type", List.of("text/plain", "application/xml", "garbage", "application/json; charset=utf-16")
                .get(random.nextInt(4)));
        String body = "{\"annotation\": \"odd-content-type-" + random.nextInt(1_000_000) + "\"}";
        return new Request(Kinds.UPDATE, "PUT", "/v1/desired_lrps/" + key, headers, bytes(body), body);
    }

    private Request invalidTask(Random random, String key) {
        String body = List.of("{\"task_guid\": \"" + key + "-task\"}", "{\"task_guid\": \"../" + key + "\", \"domain\": \"x\"}",
                "{\"task_guid\": \"" + key + "-t\", \"domain\": \"verify\", \"rootfs\": \"preloaded:host\", "
                        + "\"action\": {\"run\": {\"path\": \"sh\"}}, \"result_file\": \"../../etc/passwd\"}",
                "{\"task_guid\": \"" + key + "-t\", \"domain\": \"verify\", \"rootfs\": \"preloaded:host\", "
                        + "\"action\": {\"run\": {\"path\": \"sh\"}}, \"completion_callback_url\": \"ftp://x\"}")
                .get(random.nextInt(4));
        return new Request("POST", "/v1/tasks", json(), bytes(body), body);
    }

    private Request put(String key, Map<String, String> headers, String body) {
        return new Request("PUT", "/v1/desired_lrps/" + key, headers, bytes(body), body);
    }

    private Map<String, String> json() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", authorization);
        headers.put("Content-Type", "application/json");
        return headers;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
