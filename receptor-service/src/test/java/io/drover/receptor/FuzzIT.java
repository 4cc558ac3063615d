package io.drover.receptor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * SPEC 12: malformed, oversized and hostile requests get a 4xx, never a 5xx. Thousands of random and mutated requests
 * (seeded, so a failure can be replayed) through the whole filter chain, plus raw request lines through Tomcat.
 */
@ReceptorTest
class FuzzIT {

    private static final int REQUESTS = 2000;
    private static final long SEED = Long.getLong("fuzz.seed", 20261129L);

    @Autowired
    MockMvc mvc;
    @LocalServerPort
    int port;

    @Test
    void randomAndMutatedRequestsNeverGetAFiveHundred() throws Exception {
        Random random = new Random(SEED);
        RequestFuzzer fuzzer = new RequestFuzzer(random);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            RequestFuzzer.FuzzedRequest request = fuzzer.next();
            MockHttpServletRequestBuilder builder = MockMvcRequestBuilders.request(HttpMethod.valueOf(request.method()),
                    java.net.URI.create("http://localhost" + request.path()));
            request.headers().forEach(builder::header);
            if (request.body() != null) {
                builder.content(request.body());
            }
            int status = mvc.perform(builder).andReturn().getResponse().getStatus();
            if (status >= 500) {
                failures.add(status + " " + request);
            }
        }
        assertThat(failures).as("seed %d", SEED).isEmpty();
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
        assertThat(rawWithChunks(chunkedTooLarge, 1100, 1024)).isEqualTo(413);
    }

    private int raw(String request) throws Exception {
        return rawWithChunks(request, 0, 0);
    }

    private int rawWithChunks(String head, int chunks, int chunkSize) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port));
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.UTF_8));
            try {
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
            return Integer.parseInt(statusLine.substring(9, 12));
        }
    }
}
