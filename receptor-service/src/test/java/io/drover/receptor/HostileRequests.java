package io.drover.receptor;

import io.drover.receptor.RequestFuzzer.FuzzedRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The hostile cases of SPEC 12, by kind: header values, path parameters, huge and deeply nested JSON, invalid UTF-8.
 * Each case says what it must get: a 4xx (or exactly 401), or merely no 5xx when a lenient answer is also right (an
 * odd {@code Accept} on a valid GET). The seeded random picks which request carries a hostile value and in which field
 * it lands, and shuffles each batch, so a seed replays a run exactly.
 */
final class HostileRequests {

    /** Where a request is sent: {@code target} is an existing desired LRP, {@code domain} one the batch may use. */
    static final String DOMAIN = "hostile";
    static final int LIMIT = 1024 * 1024;

    /** The status range a case must get. */
    enum Expect {
        NO_SERVER_ERROR(100, 499), CLIENT_ERROR(400, 499), UNAUTHORIZED(401, 401), TOO_LARGE(413, 413), CREATED(201, 201);

        final int min;
        final int max;

        Expect(int min, int max) {
            this.min = min;
            this.max = max;
        }

        boolean accepts(int status) {
            return status >= min && status <= max;
        }
    }

    /** One case: its kind (for the failure message), the request and what it must get. */
    record Case(String kind, FuzzedRequest request, Expect expect) {
        boolean isWrite() {
            return !request.method().equals("GET");
        }
    }

    private static final String HUGE = "x".repeat(100_000);
    /** Invalid UTF-8: overlong '/', an encoded surrogate, a 5-byte form, lone FF/FE, a lone continuation, above U+10FFFF, a truncated 3-byte form. */
    static final byte[][] INVALID_UTF8 = { { (byte) 0xC0, (byte) 0xAF }, { (byte) 0xED, (byte) 0xA0, (byte) 0x80 },
            { (byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80 }, { (byte) 0xFF }, { (byte) 0xFE },
            { (byte) 0x80 }, { (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80 }, { (byte) 0xE2, (byte) 0x82 } };
    /** Valid JSON escapes that decode to text no UTF-8 can carry: lone and reversed surrogates. */
    private static final String[] BAD_ESCAPES = { "\\uD800", "\\uDFFF", "x\\uD83D", "\\uDE00\\uD83D", "\\uDBFFA" };
    /** String fields of a create body a hostile value is put into (they all reach storage when valid). */
    private static final String[] STRING_FIELDS = { "process_guid", "domain", "rootfs", "annotation", "log_guid",
            "metrics_guid" };

    private final Random random;
    private final String target;

    HostileRequests(Random random, String target) {
        this.random = random;
        this.target = target;
    }

    /** Bogus and huge Content-Type, Accept and If-Match values; malformed and huge Basic credentials. */
    List<Case> headers() {
        List<Case> cases = new ArrayList<>();
        for (String contentType : new String[] { "", "garbage", "application/" + HUGE, "application/json;" + ";".repeat(5000),
                "application/json; charset=" + HUGE, "*/*", "application/json, text/plain", "text/plain\u0000",
                "application/json\r\nX-Injected: 1", "application/json; charset=utf-16" }) {
            cases.add(new Case("content-type", write(Map.of("Content-Type", contentType)), Expect.NO_SERVER_ERROR));
        }
        for (String accept : new String[] { "", "garbage", "application/" + HUGE, "application/json;q=0.5, ".repeat(5000),
                "*/*;q=2", "application/json;q=-1", "text/event-stream", "\u00e9/\u00e9", "application/json;q=" + HUGE }) {
            cases.add(new Case("accept", read(Map.of("Accept", accept)), Expect.NO_SERVER_ERROR));
        }
        for (String ifMatch : new String[] { "abc", "\"\"", "\"a:b\"", "W/", "\"", "*, *", ",", "\"" + HUGE + "\"",
                ("\"00000000-0000-0000-0000-000000000000:1\", ").repeat(10_000) + "\"x\"",
                "\"00000000-0000-0000-0000-000000000000:-1\"", "\"00000000-0000-0000-0000-000000000000:1\u0000\"",
                "\"00000000-0000-0000-0000-000000000000:" + "9".repeat(5000) + "\"" }) {
            cases.add(new Case("if-match", update(ifMatch), Expect.CLIENT_ERROR));
        }
        for (String authorization : authorizations()) {
            FuzzedRequest base = random.nextBoolean() ? read(Map.of()) : write(Map.of());
            Map<String, String> headers = new LinkedHashMap<>(base.headers());
            headers.put("Authorization", authorization);
            cases.add(new Case("authorization", new FuzzedRequest(base.method(), base.path(), headers, base.body()),
                    Expect.UNAUTHORIZED));
        }
        Collections.shuffle(cases, random);
        return cases;
    }

    private static List<String> authorizations() {
        List<String> values = new ArrayList<>(List.of("Basic !!!not-base64!!!", "Basic " + b64("no-colon-here"),
                "Basic", "Basic ", "Basic ====", "Basic " + b64(":"), "Basic " + b64(TestApi.USERNAME + ":"),
                "Basic " + b64(":" + TestApi.PASSWORD), "Basic " + b64(TestApi.USERNAME + ":" + TestApi.PASSWORD + "\u0000"),
                "Basic " + b64(TestApi.USERNAME + ":" + TestApi.PASSWORD.toUpperCase()), "Bearer " + HUGE,
                "Basic " + b64(HUGE + ":" + HUGE), "Basic " + "A".repeat(1_000_001), "Digest username=\"x\"",
                TestApi.AUTHORIZATION + "garbage", TestApi.AUTHORIZATION.replace("Basic ", "Basic\t\t"),
                "Basic " + b64(TestApi.USERNAME + ":" + TestApi.PASSWORD) + "=="));
        for (byte[] invalid : INVALID_UTF8) {
            values.add("Basic " + Base64.getEncoder().encodeToString(concat(bytes(TestApi.USERNAME + ":"), invalid)));
            values.add("Basic " + Base64.getEncoder().encodeToString(concat(invalid, bytes(":" + TestApi.PASSWORD))));
        }
        return values;
    }

    /** Odd characters, encoded slashes and NULs, huge guids and indices that are no index. */
    List<Case> pathParameters() {
        String[] segments = { "%2F", "a%2Fb", "%2f..%2f", "..%2F..%2Fetc%2Fpasswd", "%00", "a%00b", "%C0%AF", "%FF",
                "%E2%80%AE", "%ED%A0%80", "%20", "%2e", "%2e%2e", "a%3Bb", "%5C", "%25%32%46", "%0D%0AX:1", "*",
                "x".repeat(129), "x".repeat(100_000), "%F0%9F%92%A9", "%7B%7D" };
        List<Case> cases = new ArrayList<>();
        for (String segment : segments) {
            cases.add(new Case("desired-guid", request(pick("GET", "PUT", "DELETE"), "/v1/desired_lrps/" + segment,
                    TestApi.AUTHORIZATION, "{\"instances\": 1}"), Expect.CLIENT_ERROR));
            cases.add(new Case("actual-guid", request("GET", "/v1/actual_lrps/" + segment, TestApi.AUTHORIZATION,
                    null), Expect.NO_SERVER_ERROR));
            cases.add(new Case("actual-guid-index", request(pick("GET", "DELETE"), "/v1/actual_lrps/" + segment
                    + "/index/0", TestApi.AUTHORIZATION, null), Expect.CLIENT_ERROR));
            cases.add(new Case("domain", request("PUT", "/v1/domains/" + segment, TestApi.AUTHORIZATION, null),
                    Expect.NO_SERVER_ERROR));
            cases.add(new Case("logs-guid", request("GET", "/v1/actual_lrps/" + segment + "/index/0/logs",
                    TestApi.AUTHORIZATION, null), Expect.CLIENT_ERROR));
            cases.add(new Case("logs-query", request("GET", "/v1/actual_lrps/" + target + "/index/0/logs?"
                    + pick("tail", "follow", "stream") + "=" + segment, TestApi.AUTHORIZATION, null),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("domain-nul", request("PUT", "/v1/domains/" + segment + "%00", TestApi.AUTHORIZATION,
                    null), Expect.CLIENT_ERROR));
            cases.add(new Case("domain-query", request("GET", pick("/v1/desired_lrps", "/v1/actual_lrps") + "?domain="
                    + segment, TestApi.AUTHORIZATION, null), Expect.NO_SERVER_ERROR));
        }
        for (String index : new String[] { "-1", "1099511627776", "abc", "", "%00", "1e3", "+1", "%201", "0x10",
                "2147483648", "-2147483649", "1.0", "9".repeat(10_000), "%D9%A3", "2147483647" }) {
            cases.add(new Case("index", request(pick("GET", "DELETE"), "/v1/actual_lrps/" + target + "/index/" + index,
                    TestApi.AUTHORIZATION, null), Expect.CLIENT_ERROR));
        }
        cases.add(new Case("domain", request("PUT", "/v1/domains/" + "d".repeat(100_000), TestApi.AUTHORIZATION,
                null), Expect.CLIENT_ERROR));
        Collections.shuffle(cases, random);
        return cases;
    }

    /** Bodies just under and over the limit, 100,000 fields, huge arrays, 100,000 levels of nesting. */
    List<Case> hugeAndNestedJson() {
        List<Case> cases = new ArrayList<>();
        String valid = TestApi.desiredLrp(TestApi.guid("hostile-big"), DOMAIN, 0);
        cases.add(new Case("exactly-the-limit", post(padTo(valid, LIMIT)), Expect.CREATED));
        cases.add(new Case("one-over-the-limit", post(padTo(valid, LIMIT + 1)), Expect.TOO_LARGE));
        cases.add(new Case("annotation-near-limit", post(withField(valid, "annotation",
                "\"" + "a".repeat(LIMIT - valid.length() - 100) + "\"")), Expect.CLIENT_ERROR));
        cases.add(new Case("annotation-over-limit", post(withField(valid, "annotation", "\"" + "a".repeat(LIMIT) + "\"")),
                Expect.TOO_LARGE));
        cases.add(new Case("100k-fields", post(withField(valid, "metrics_guid", "\"m\", " + fields(100_000, "0"))),
                Expect.CLIENT_ERROR));
        cases.add(new Case("100k-route-fields", post(withField(valid, "routes", "{" + fields(100_000, "0") + "}")),
                Expect.CLIENT_ERROR));
        cases.add(new Case("100k-duplicate-fields", post("{" + "\"a\":1,".repeat(100_000) + "\"b\": 1}"),
                Expect.CLIENT_ERROR));
        cases.add(new Case("huge-port-array", post(withField(valid, "ports", array(300_000, i -> "1"))),
                Expect.CLIENT_ERROR));
        cases.add(new Case("huge-tag-array", post(withField(valid, "placement_tags", array(150_000, i -> "\"\""))),
                Expect.CLIENT_ERROR));
        cases.add(new Case("huge-number", post(withField(valid, "instances", "9".repeat(500_000))), Expect.CLIENT_ERROR));
        cases.add(new Case("huge-field-name", post("{\"" + "n".repeat(LIMIT - 10) + "\": 1}"), Expect.CLIENT_ERROR));
        for (String open : new String[] { "[", "{\"a\":", "[{\"a\":" }) {
            cases.add(new Case("nested-" + open, post(open.repeat(100_000)), Expect.CLIENT_ERROR));
            cases.add(new Case("nested-closed-" + open, post(closed(open, 100_000)), Expect.CLIENT_ERROR));
            cases.add(new Case("nested-routes-" + open, post(withField(valid, "routes", "{\"r\":" + open.repeat(100_000))),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("nested-update-" + open, request("PUT", "/v1/desired_lrps/" + target, TestApi.AUTHORIZATION,
                    "{\"routes\": {\"r\": " + closed(open, 50_000) + "}}"), Expect.CLIENT_ERROR));
        }
        Collections.shuffle(cases, random);
        return cases;
    }

    /** Invalid byte sequences in bodies and in string values; escapes that decode to lone surrogates. */
    List<Case> invalidUtf8() {
        List<Case> cases = new ArrayList<>();
        for (byte[] invalid : INVALID_UTF8) {
            String valid = TestApi.desiredLrp(TestApi.guid("hostile-utf"), DOMAIN, 0);
            String field = pick(STRING_FIELDS);
            cases.add(new Case("utf8-in-" + field, post(spliceIntoString(valid, field, invalid)), Expect.CLIENT_ERROR));
            cases.add(new Case("utf8-in-args", post(spliceAfter(valid, "\"args\": [\"", invalid)), Expect.CLIENT_ERROR));
            cases.add(new Case("utf8-in-route", post(spliceAfter(valid, "\"http\": [\"", invalid)), Expect.CLIENT_ERROR));
            cases.add(new Case("utf8-in-name", post(spliceAfter(valid, "{\"", invalid)), Expect.CLIENT_ERROR));
            cases.add(new Case("utf8-outside-strings", post(spliceAfter(valid, "\"instances\": ", invalid)),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("utf8-in-update", new FuzzedRequest("PUT", "/v1/desired_lrps/" + target,
                    jsonHeaders(), concat(bytes("{\"annotation\": \"a"), invalid, bytes("\"}"))), Expect.CLIENT_ERROR));
        }
        for (String escape : BAD_ESCAPES) {
            String valid = TestApi.desiredLrp(TestApi.guid("hostile-esc"), DOMAIN, 0);
            String field = pick(STRING_FIELDS);
            cases.add(new Case("escape-in-" + field, post(withField(valid, field, "\"a" + escape + "\"")),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("escape-in-args", post(valid.replace("\"args\": [\"", "\"args\": [\"" + escape)),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("escape-in-env", post(valid.replace("\"value\": \"", "\"value\": \"" + escape)),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("escape-in-route", post(valid.replace("\"http\": [\"", "\"http\": [\"" + escape)),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("escape-in-route-name", post(valid.replace("{\"http\"", "{\"" + escape + "\"")),
                    Expect.CLIENT_ERROR));
            cases.add(new Case("escape-in-update", request("PUT", "/v1/desired_lrps/" + target, TestApi.AUTHORIZATION,
                    "{\"annotation\": \"" + escape + "\"}"), Expect.CLIENT_ERROR));
        }
        Collections.shuffle(cases, random);
        return cases;
    }

    private FuzzedRequest read(Map<String, String> extra) {
        String path = pick("/v1/desired_lrps", "/v1/desired_lrps/" + target, "/v1/actual_lrps/" + target, "/v1/cells",
                "/v1/domains");
        Map<String, String> headers = new LinkedHashMap<>(Map.of("Authorization", TestApi.AUTHORIZATION));
        headers.putAll(extra);
        return new FuzzedRequest("GET", path, headers, null);
    }

    /** A valid write (a create of a fresh guid, or an update of the target) carrying the extra headers. */
    private FuzzedRequest write(Map<String, String> extra) {
        boolean create = random.nextBoolean();
        String body = create ? TestApi.desiredLrp(TestApi.guid("hostile-hdr"), DOMAIN, 0)
                : "{\"annotation\": \"h" + random.nextInt(1000) + "\"}";
        Map<String, String> headers = new LinkedHashMap<>(jsonHeaders());
        headers.putAll(extra);
        return new FuzzedRequest(create ? "POST" : "PUT", create ? "/v1/desired_lrps" : "/v1/desired_lrps/" + target,
                headers, bytes(body));
    }

    private FuzzedRequest update(String ifMatch) {
        Map<String, String> headers = new LinkedHashMap<>(jsonHeaders());
        headers.put("If-Match", ifMatch);
        // A real change (a new annotation), so a write that went through before If-Match was checked would show.
        return new FuzzedRequest("PUT", "/v1/desired_lrps/" + target, headers,
                bytes("{\"annotation\": \"if-match-" + random.nextInt(1_000_000) + "\"}"));
    }

    private static FuzzedRequest post(String body) {
        return post(bytes(body));
    }

    private static FuzzedRequest post(byte[] body) {
        return new FuzzedRequest("POST", "/v1/desired_lrps", jsonHeaders(), body);
    }

    private static FuzzedRequest request(String method, String path, String authorization, String body) {
        Map<String, String> headers = new LinkedHashMap<>(jsonHeaders());
        headers.put("Authorization", authorization);
        return new FuzzedRequest(method, path, headers, method.equals("GET") || body == null ? null : bytes(body));
    }

    private static Map<String, String> jsonHeaders() {
        return Map.of("Authorization", TestApi.AUTHORIZATION, "Content-Type", "application/json");
    }

    /** The JSON object with trailing spaces up to exactly {@code size} bytes (whitespace is valid JSON). */
    static String padTo(String json, int size) {
        return json + " ".repeat(size - json.getBytes(StandardCharsets.UTF_8).length);
    }

    /** Replaces (or adds) one top-level field's value by raw JSON text. */
    static String withField(String json, String field, String rawValue) {
        String value = "\"" + field + "\": (\"[^\"]*\"|\\{[^{}]*\\}|\\[[^\\[\\]]*\\]|[0-9]+)";
        String without = json.replaceFirst(",\\s*" + value, "");
        without = without.equals(json) ? json.replaceFirst(value + "\\s*,?", "") : without;
        return "{\"" + field + "\": " + rawValue + ", " + without.strip().substring(1);
    }

    private byte[] spliceIntoString(String json, String field, byte[] invalid) {
        return spliceAfter(json.contains("\"" + field + "\": \"") ? json : withField(json, field, "\"v\""),
                "\"" + field + "\": \"", invalid);
    }

    private static byte[] spliceAfter(String json, String marker, byte[] invalid) {
        int at = json.indexOf(marker) + marker.length();
        return concat(bytes(json.substring(0, at)), invalid, bytes(json.substring(at)));
    }

    private static String fields(int count, String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : ",").append("\"").append(Integer.toString(i, 36)).append("\":").append(value);
        }
        return out.toString();
    }

    private static String array(int count, java.util.function.IntFunction<String> item) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : ",").append(item.apply(i));
        }
        return out.append("]").toString();
    }

    /** {@code depth} levels of {@code open}, each closed again, so only the depth is wrong. */
    static String closed(String open, int depth) {
        String close = open.equals("[") ? "]" : open.equals("{\"a\":") ? "}" : "}]";
        return open.repeat(depth) + "1" + close.repeat(depth);
    }

    private String pick(String... values) {
        return values[random.nextInt(values.length)];
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String b64(String text) {
        return Base64.getEncoder().encodeToString(bytes(text));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
