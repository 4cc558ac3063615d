package io.drover.receptor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import org.springframework.test.web.servlet.result.MockMvcResultMatchers;

/**
 * SPEC 12: malformed, oversized and hostile requests get a 4xx, never a 5xx. Thousands of random and mutated requests
 * (seeded, so a failure can be replayed) through the whole filter chain, plus raw request lines through Tomcat.
 */
@ReceptorTest
@ExtendWith(OutputCaptureExtension.class)
class FuzzIT {

    private static final int REQUESTS = 2000;
    private static final long SEED = Long.getLong("fuzz.seed", 20261129L);
    private static final String HOSTILE_TARGET = "hostile-target";
    private static final boolean VERBOSE = Boolean.getBoolean("fuzz.verbose");

    @Autowired
    MockMvc mvc;
    @Autowired
    JdbcTemplate jdbc;
    @LocalServerPort
    int port;

    @Test
    void randomAndMutatedRequestsNeverGetAFiveHundred() throws Exception {
        Random random = new Random(SEED);
        RequestFuzzer fuzzer = new RequestFuzzer(random);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            RequestFuzzer.FuzzedRequest request = fuzzer.next();
            int status = perform(request);
            if (status >= 500) {
                failures.add(status + " " + request);
            }
        }
        assertThat(failures).as("seed %d", SEED).isEmpty();
    }

    @Test
    void hostileHeadersAreAnsweredWithoutAFiveHundred() throws Exception {
        assertHostileBatch("headers", hostile().headers());
    }

    @Test
    void hostilePathParametersAreAnsweredWithoutAFiveHundred() throws Exception {
        assertHostileBatch("path parameters", hostile().pathParameters());
    }

    @Test
    void hugeAndDeeplyNestedJsonIsAnsweredWithoutAFiveHundred() throws Exception {
        assertHostileBatch("huge and nested JSON", hostile().hugeAndNestedJson());
    }

    @Test
    void invalidUtf8IsRejected() throws Exception {
        assertHostileBatch("invalid UTF-8", hostile().invalidUtf8());
    }

    /**
     * SPEC 5.5, secrets never appear in logs: the password in places where hostile input makes things fail (a header
     * the firewall refuses, a malformed If-Match, wrong or malformed credentials, a path, a body) is never logged.
     */
    @Test
    void aSecretInAHostileRequestNeverReachesTheLog(CapturedOutput output) throws Exception {
        String secret = TestApi.PASSWORD;
        String b64 = TestApi.AUTHORIZATION.substring("Basic ".length());
        List<RequestFuzzer.FuzzedRequest> requests = List.of(
                withHeader("PUT", "/v1/desired_lrps/" + HOSTILE_TARGET, "If-Match", "\"" + secret + "\u0000\""),
                withHeader("PUT", "/v1/desired_lrps/" + HOSTILE_TARGET, "If-Match", "\"" + secret + "\""),
                withHeader("GET", "/v1/cells", "Accept", secret + "\u0001"),
                withHeader("PUT", "/v1/domains/d", "Cache-Control", "max-age=" + secret + "\u0000"),
                new RequestFuzzer.FuzzedRequest("GET", "/v1/cells", Map.of("Authorization", TestApi.AUTHORIZATION
                        + "\u0000"), null),
                new RequestFuzzer.FuzzedRequest("GET", "/v1/cells", Map.of("Authorization", "Basic " + b64 + "!"), null),
                new RequestFuzzer.FuzzedRequest("GET", "/v1/cells", Map.of("Authorization", "Basic "
                        + HostileRequests.b64(TestApi.USERNAME + ":" + secret + "x")), null),
                withHeader("GET", "/v1/desired_lrps/" + secret + "%00", "X-Any", "1"),
                new RequestFuzzer.FuzzedRequest("POST", "/v1/desired_lrps", Map.of("Authorization",
                        TestApi.AUTHORIZATION), HostileRequests.bytes("{\"" + secret + "\": \"\\uD800\"}")));
        List<Integer> statuses = new ArrayList<>();
        for (RequestFuzzer.FuzzedRequest request : requests) {
            statuses.add(perform(request));
        }
        assertThat(output.getAll()).doesNotContain(secret).doesNotContain(b64);
        assertThat(statuses).allMatch(status -> status >= 400 && status < 500);
    }

    private static RequestFuzzer.FuzzedRequest withHeader(String method, String path, String name, String value) {
        return new RequestFuzzer.FuzzedRequest(method, path, Map.of("Authorization", TestApi.AUTHORIZATION,
                "Content-Type", "application/json", name, value), method.equals("GET") ? null
                        : HostileRequests.bytes("{\"annotation\": \"s\"}"));
    }

    @Test
    void routesNestedUpToTheParsersLimitAreRejectedOrReadBack() throws Exception {
        // The parser takes 500 levels (the body is one, routes the next 499); writing the LRP back inside a list or an
        // event adds levels, so routes are bounded at 64 and whatever is accepted can be read back.
        for (int depth : new int[] { 64, 65, 498, 499 }) {
            String guid = TestApi.guid("hostile-deep");
            String routes = "{\"r\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
            int status = perform(new RequestFuzzer.FuzzedRequest("POST", "/v1/desired_lrps", Map.of("Authorization",
                    TestApi.AUTHORIZATION, "Content-Type", "application/json"), HostileRequests.bytes(HostileRequests
                            .withField(TestApi.desiredLrp(guid, HostileRequests.DOMAIN, 0), "routes", routes))));
            assertThat(status).as("create with routes %d deep", depth).isEqualTo(depth <= 64 ? 201 : 400);
            if (status == 201) {
                mvc.perform(TestApi.authed(MockMvcRequestBuilders.get("/v1/desired_lrps/" + guid)))
                        .andExpect(MockMvcResultMatchers.status().isOk());
            }
        }
        assertStillAnswering();
    }

    /**
     * Each case gets what it must (a 4xx, or at least no 5xx); a write answered 4xx leaves the LRPs, domains and event
     * log as they were; and afterwards the server still answers over its real socket.
     */
    private void assertHostileBatch(String batch, List<HostileRequests.Case> cases) throws Exception {
        List<String> failures = new ArrayList<>();
        for (HostileRequests.Case c : cases) {
            String before = c.isWrite() ? fingerprint() : null;
            MockHttpServletResponse response = respond(c.request());
            int status = response.getStatus();
            if (VERBOSE) {
                String answer = response.getContentAsString();
                System.out.printf("fuzz-case status=%d kind=%s answer=%s%n", status, c.kind(),
                        answer.substring(0, Math.min(100, answer.length())));
            }
            if (!c.expect().accepts(status)) {
                failures.add(status + " (expected " + c.expect() + ") " + describe(c));
            } else if (before != null && status >= 400 && !before.equals(fingerprint())) {
                failures.add(status + " but the database changed: " + describe(c));
            }
        }
        assertThat(failures).as("%s, seed %d (replay with -Dfuzz.seed=%d)", batch, SEED, SEED).isEmpty();
        assertStillAnswering();
    }

    private HostileRequests hostile() throws Exception {
        System.out.println("fuzz-seed seed=" + SEED + " (replay with -Dfuzz.seed=" + SEED + ")");
        mvc.perform(TestApi.json(MockMvcRequestBuilders.post("/v1/desired_lrps"),
                TestApi.desiredLrp(HOSTILE_TARGET, HostileRequests.DOMAIN, 0))).andReturn();
        return new HostileRequests(new Random(SEED), HOSTILE_TARGET);
    }

    /** What a rejected write must not change: the LRPs (key, epoch, version), the domains and the event log. */
    private String fingerprint() {
        return jdbc.queryForObject("""
                SELECT (SELECT md5(coalesce(string_agg(process_guid || ':' || epoch || ':' || version, ','
                            ORDER BY process_guid), '')) FROM desired_lrps)
                    || (SELECT md5(coalesce(string_agg(process_guid || ':' || instance_index || ':' || epoch || ':'
                            || version, ',' ORDER BY process_guid, instance_index), '')) FROM actual_lrps)
                    || (SELECT md5(coalesce(string_agg(d::text, ',' ORDER BY name), '')) FROM domains d)
                    || (SELECT count(*) FROM lrp_events)""", String.class);
    }

    /** Health and an authenticated read, through Tomcat rather than MockMvc: the real server is still serving. */
    private void assertStillAnswering() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI base = URI.create("http://localhost:" + port);
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(base.resolve("/actuator/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> list = http.send(HttpRequest.newBuilder(base.resolve("/v1/desired_lrps"))
                .header("Authorization", TestApi.AUTHORIZATION).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).as("health after the batch").isEqualTo(200);
        assertThat(list.statusCode()).as("authenticated GET after the batch: %s", list.body()).isEqualTo(200);
    }

    private int perform(RequestFuzzer.FuzzedRequest request) throws Exception {
        return respond(request).getStatus();
    }

    private MockHttpServletResponse respond(RequestFuzzer.FuzzedRequest request) throws Exception {
        MockHttpServletRequestBuilder builder = MockMvcRequestBuilders.request(HttpMethod.valueOf(request.method()),
                URI.create("http://localhost" + request.path()));
        request.headers().forEach(builder::header);
        if (request.body() != null) {
            builder.content(request.body());
        }
        return mvc.perform(builder).andReturn().getResponse();
    }

    private static String describe(HostileRequests.Case c) {
        String text = c.kind() + " " + c.request();
        return text.length() > 400 ? text.substring(0, 400) + "..." : text;
    }

    @Test
    void hostileRawRequestsThroughTomcatNeverGetAFiveHundred() throws Exception {
        String auth = "Authorization: " + TestApi.AUTHORIZATION + "\r\n";
        String[] lines = { "GET /v1/desired_lrps/%00 HTTP/1.1", "GET /v1/desired_lrps/..%2f..%2fetc HTTP/1.1",
                "GET /v1/desired_lrps/%ZZ HTTP/1.1", "GET //v1//cells HTTP/1.1", "GET /v1/desired_lrps/a%2Fb HTTP/1.1",
                "GET /v1/desired_lrps/;jsessionid=1 HTTP/1.1", "GET /v1/actual_lrps/x/index/%20 HTTP/1.1",
                "GET /v1/actual_lrps/x/index/99999999999999999999 HTTP/1.1", "DELETE /v1/domains/%00 HTTP/1.1",
                "PUT /v1/domains/" + "d".repeat(5000) + " HTTP/1.1", "GET /v1/desired_lrps?domain=%00 HTTP/1.1",
                "GET /v1/actual_lrps?domain=%C0%AF HTTP/1.1", "BREW /v1/desired_lrps HTTP/1.1",
                "GET /v1/desired_lrps/\u00e9 HTTP/1.1", "TRACE /v1/cells HTTP/1.1" };
        for (String line : lines) {
            assertThat(raw(line + "\r\nHost: localhost\r\n" + auth + "Connection: close\r\n\r\n")).as(line).isLessThan(500);
        }
        String chunkedTooLarge = "POST /v1/desired_lrps HTTP/1.1\r\nHost: localhost\r\n" + auth
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        assertThat(rawWithChunks(bytes(chunkedTooLarge), 1100, 1024)).isEqualTo(413);
    }

    @Test
    void hostileHeadersAndBytesThroughTomcatNeverGetAFiveHundred() throws Exception {
        String head = "Host: localhost\r\nConnection: close\r\n";
        String auth = "Authorization: " + TestApi.AUTHORIZATION + "\r\n";
        String json = "Content-Type: application/json\r\n";
        byte[] bad = { (byte) 0xC0, (byte) 0xAF, (byte) 0xFF };
        List<byte[]> requests = List.of(
                bytes("GET /v1/desired_lrps HTTP/1.1\r\n" + head + "Authorization: Basic " + "A".repeat(100_000) + "\r\n\r\n"),
                bytes("PUT /v1/desired_lrps/x HTTP/1.1\r\n" + head + auth + "If-Match: \"" + "x".repeat(100_000) + "\"\r\n\r\n"),
                bytes("GET /v1/desired_lrps/" + "g".repeat(100_000) + " HTTP/1.1\r\n" + head + auth + "\r\n"),
                concat(bytes("GET /v1/desired_lrps/"), bad, bytes(" HTTP/1.1\r\n" + head + auth + "\r\n")),
                concat(bytes("PUT /v1/desired_lrps/x HTTP/1.1\r\n" + head + auth + "If-Match: "), bad, bytes("\r\n\r\n")),
                concat(bytes("GET /v1/cells HTTP/1.1\r\n" + head + "Authorization: Basic "), bad, bytes("\r\n\r\n")),
                concat(bytes("GET /v1/cells HTTP/1.1\r\n" + head + "Accept: "), bad, bytes("\r\n\r\n")),
                bytes("GET /v1/cells HTTP/1.1\r\n" + head + auth + "X-Nul: a\u0000b\r\n\r\n"),
                bytes("GET /v1/cells HTTP/1.1\r\n" + head + auth + "no colon in this header\r\n\r\n"),
                bytes("GET /v1/cells HTTP/1.1\r\n" + head + auth + "X-Folded: a\r\n b\r\n\r\n"),
                bytes("POST /v1/desired_lrps HTTP/1.1\r\n" + head + auth + json + "Content-Length: -1\r\n\r\n{}"),
                bytes("POST /v1/desired_lrps HTTP/1.1\r\n" + head + auth + json + "Content-Length: abc\r\n\r\n{}"),
                bytes("POST /v1/desired_lrps HTTP/1.1\r\n" + head + auth + json + "Content-Length: 2\r\n"
                        + "Content-Length: 3\r\n\r\n{}"),
                bytes("POST /v1/desired_lrps HTTP/1.1\r\n" + head + auth + json + "Content-Length: "
                        + "9".repeat(30) + "\r\n\r\n{}"),
                bytes("POST /v1/desired_lrps HTTP/1.1\r\n" + head + auth + json + "Content-Length: 2\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                withBody("POST /v1/desired_lrps", head + auth + json, concat(bytes("{\"process_guid\": \""), bad,
                        bytes("\"}"))),
                withBody("POST /v1/desired_lrps", head + auth + json, bytes("[".repeat(100_000))),
                withBody("PUT /v1/desired_lrps/x", head + auth + json, bytes("{\"a\":".repeat(100_000))),
                withBody("PUT /v1/desired_lrps/" + HOSTILE_TARGET, head + auth + json, bytes("{\"routes\": {\"r\": "
                        + HostileRequests.closed("[", 50_000) + "}}")));
        for (byte[] request : requests) {
            String line = new String(request, 0, Math.min(120, request.length), StandardCharsets.ISO_8859_1);
            assertThat(raw(request)).as(line).isLessThan(500);
        }
        assertStillAnswering();
    }

    /**
     * The one place a 5xx answers bad input, pinned so it stays visible: Tomcat's connector answers an unknown
     * Transfer-Encoding with 501 and an HTTP version it does not speak with 505, as RFC 9112 and RFC 9110 prescribe,
     * before any receptor code sees the request (docs/receptor-api.md, Errors). Everything else at this level is 4xx.
     */
    @Test
    void protocolLevelAnswersComeFromTomcatAsTheRfcsPrescribe() throws Exception {
        String head = "Host: localhost\r\nConnection: close\r\nAuthorization: " + TestApi.AUTHORIZATION + "\r\n";
        assertThat(raw("POST /v1/desired_lrps HTTP/1.1\r\n" + head + "Transfer-Encoding: foo\r\n\r\n")).isEqualTo(501);
        assertThat(raw("POST /v1/desired_lrps HTTP/1.1\r\n" + head + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"))
                .isEqualTo(501);
        assertThat(raw("GET /v1/cells HTTP/9.9\r\n" + head + "\r\n")).isEqualTo(505);
        assertThat(raw("GET /v1/cells FOO/1.1\r\n" + head + "\r\n")).isEqualTo(400);
        assertThat(raw("GET /v1/cells HTTP/1.1\r\n" + head + "Expect: 200-ok\r\n\r\n")).isEqualTo(417);
        assertStillAnswering();
    }

    private static byte[] withBody(String requestLine, String headers, byte[] body) {
        return concat(bytes(requestLine + " HTTP/1.1\r\n" + headers + "Content-Length: " + body.length + "\r\n\r\n"),
                body);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        return HostileRequests.concat(parts);
    }

    private int raw(String request) throws Exception {
        return rawWithChunks(bytes(request), 0, 0);
    }

    private int raw(byte[] request) throws Exception {
        return rawWithChunks(request, 0, 0);
    }

    /** The status of the answer; -1 when the server closed the connection without one (also not a 5xx). */
    private int rawWithChunks(byte[] head, int chunks, int chunkSize) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port));
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head);
                byte[] chunk = ("{" + "x".repeat(Math.max(0, chunkSize - 1))).getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < chunks; i++) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                if (chunks > 0) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            } catch (java.io.IOException e) {
                // The server may answer and close before the whole body is sent; its status line is what counts.
            }
            InputStream in = socket.getInputStream();
            String statusLine = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            return statusLine.length() < 12 ? -1 : Integer.parseInt(statusLine.substring(9, 12));
        }
    }
}
