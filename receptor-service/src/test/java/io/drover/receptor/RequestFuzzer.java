package io.drover.receptor;

import io.drover.model.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Makes random requests: valid ones mutated structurally or byte by byte, odd paths, methods and headers. */
final class RequestFuzzer {

    /** One request, printable for a failure message. */
    record FuzzedRequest(String method, String path, Map<String, String> headers, byte[] body) {
        @Override
        public String toString() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return method + " " + path + " " + headers + " " + (text.length() > 300 ? text.substring(0, 300) : text);
        }
    }

    private static final String[] METHODS = { "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS" };
    private static final String[] PATHS = { "/v1/desired_lrps", "/v1/desired_lrps/%s", "/v1/actual_lrps",
            "/v1/actual_lrps/%s", "/v1/actual_lrps/%s/index/%s", "/v1/actual_lrps/%s/index/%s/logs?tail=%s&stream=%s",
            "/v1/actual_lrps/%s/metrics", "/v1/cells", "/v1/cells/%s", "/v1/cells/%s/drain", "/v1/domains",
            "/v1/domains/%s", "/v1/desired_lrps?domain=%s", "/v1/actual_lrps?domain=%s", "/v1/tasks", "/v1/tasks/%s",
            "/v1/tasks/%s/cancel", "/v1/tasks/%s/logs", "/v1/tasks?state=%s", "/v1/tasks?cell_id=%s", "/v1/%s", "/actuator/%s", "/%s" };
    private static final String[] SEGMENTS = { "web", "fuzz-existing", "a.b", "a%20b", "%00", "..", "%2e%2e",
            "x".repeat(300), "\u00e9\u4e2d", "%F0%9F%92%A9", "-", "_", "0", "null", "%25", "a;b" };
    private static final String[] INDICES = { "0", "1", "-1", "abc", "1.5", "99999999999", "%00", "2147483647" };
    private static final String[] CONTENT_TYPES = { "application/json", "text/plain", "application/xml",
            "a/b/c", "multipart/form-data", "application/x-www-form-urlencoded", ";;", "application/json; charset=bogus" };
    private static final String[] ACCEPTS = { "application/json", "*/*", "application/xml", "text/event-stream",
            "garbage", "text/html;q=abc" };
    private static final String[] IF_MATCH = { "*", "\"x\"", "W/\"00000000-0000-0000-0000-000000000000:1\"", "", ",,,",
            "\"00000000-0000-0000-0000-000000000000:99999999999999999999\"" };
    private static final String[] CACHE_CONTROL = { "max-age=10", "max-age=-1", "max-age=abc", "no-cache",
            "max-age=99999999999999999999", "max-age=" };

    private final Random random;

    RequestFuzzer(Random random) {
        this.random = random;
    }

    FuzzedRequest next() {
        String method = pick(METHODS);
        String path = path();
        Map<String, String> headers = new LinkedHashMap<>();
        if (random.nextInt(20) > 0) {
            headers.put("Authorization", random.nextInt(30) > 0 ? TestApi.AUTHORIZATION : "Basic " + pick(SEGMENTS));
        }
        if (random.nextBoolean()) {
            headers.put("Content-Type", pick(CONTENT_TYPES));
        }
        if (random.nextInt(4) == 0) {
            headers.put("Accept", pick(ACCEPTS));
        }
        if (random.nextInt(4) == 0) {
            headers.put("If-Match", pick(IF_MATCH));
        }
        if (random.nextInt(4) == 0) {
            headers.put("Cache-Control", pick(CACHE_CONTROL));
        }
        byte[] body = method.equals("GET") && random.nextBoolean() ? null : body();
        return new FuzzedRequest(method, path, headers, body);
    }

    private String path() {
        String template = pick(PATHS);
        if (template.equals("/v1/actual_lrps/%s/index/%s")) {
            return template.formatted(pick(SEGMENTS), pick(INDICES));
        }
        if (template.startsWith("/v1/actual_lrps/%s/index/%s/logs")) {
            return template.formatted(pick(SEGMENTS), pick(INDICES), pick(INDICES), pick(SEGMENTS));
        }
        String path = template.contains("%s") ? template.formatted(pick(SEGMENTS)) : template;
        // The event stream stays open by design; it is fuzzed by its own tests, not here.
        return path.startsWith("/v1/events") ? "/v1/cells" : path;
    }

    private byte[] body() {
        String valid = switch (random.nextInt(3)) {
            case 0 -> TestApi.desiredLrp("fuzz-" + Integer.toHexString(random.nextInt()), pick(SEGMENTS),
                    random.nextInt(3));
            case 1 -> TestApi.task("fuzz-" + Integer.toHexString(random.nextInt()), pick(SEGMENTS));
            default -> "{\"instances\": " + random.nextInt(4) + ", \"annotation\": \"a\", \"routes\": {}}";
        };
        return switch (random.nextInt(5)) {
            case 0 -> mutateBytes(valid.getBytes(StandardCharsets.UTF_8));
            case 1, 2 -> Json.write(mutateTree(Json.tree(valid))).getBytes(StandardCharsets.UTF_8);
            case 3 -> randomBytes();
            default -> valid.getBytes(StandardCharsets.UTF_8);
        };
    }

    private byte[] mutateBytes(byte[] bytes) {
        byte[] copy = bytes.clone();
        int edits = 1 + random.nextInt(5);
        for (int i = 0; i < edits; i++) {
            copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return random.nextBoolean() ? copy : java.util.Arrays.copyOf(copy, random.nextInt(copy.length));
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[random.nextInt(200)];
        random.nextBytes(bytes);
        return bytes;
    }

    private JsonNode mutateTree(JsonNode node) {
        List<ObjectNode> objects = new ArrayList<>();
        collect(node, objects);
        ObjectNode target = objects.get(random.nextInt(objects.size()));
        List<String> names = new ArrayList<>(target.propertyNames());
        String name = names.isEmpty() || random.nextInt(5) == 0 ? pick(SEGMENTS) : names.get(random.nextInt(names.size()));
        switch (random.nextInt(3)) {
            case 0 -> target.remove(name);
            default -> target.set(name, randomValue(0));
        }
        return node;
    }

    private void collect(JsonNode node, List<ObjectNode> objects) {
        if (node instanceof ObjectNode object) {
            objects.add(object);
        }
        for (JsonNode child : node) {
            collect(child, objects);
        }
    }

    private JsonNode randomValue(int depth) {
        return switch (random.nextInt(depth > 3 ? 9 : 11)) {
            case 0 -> Json.MAPPER.nullNode();
            case 1 -> Json.MAPPER.getNodeFactory().booleanNode(random.nextBoolean());
            case 2 -> Json.MAPPER.getNodeFactory().numberNode(pickLong(-1, 0, 10_001, Integer.MAX_VALUE + 1L,
                    Long.MAX_VALUE, 65_536, 101));
            case 3 -> Json.MAPPER.getNodeFactory().numberNode(random.nextDouble() * 1e6);
            case 4 -> Json.MAPPER.getNodeFactory().numberNode(new java.math.BigInteger("9".repeat(40)));
            case 5 -> Json.MAPPER.getNodeFactory().stringNode(pick(SEGMENTS));
            case 6 -> Json.MAPPER.getNodeFactory().stringNode("\u0000" + "z".repeat(random.nextInt(20_000)));
            case 7 -> Json.MAPPER.getNodeFactory().stringNode("");
            case 8 -> Json.MAPPER.getNodeFactory().stringNode("preloaded:host");
            case 9 -> {
                ArrayNode array = Json.MAPPER.createArrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(randomValue(depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = Json.MAPPER.createObjectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(pick(new String[] { "run", "path", "port", "tcp_check", "name", pick(SEGMENTS) }),
                            randomValue(depth + 1));
                }
                yield object;
            }
        };
    }

    private long pickLong(long... values) {
        return values[random.nextInt(values.length)];
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }
}
