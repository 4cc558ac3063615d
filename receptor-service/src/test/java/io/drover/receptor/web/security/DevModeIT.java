package io.drover.receptor.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.json.Json;
import io.drover.test.WithDroverInfrastructure;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;

/**
 * The loopback-only dev mode: no credentials needed, and the start-up log says so; and, as on every receptor that
 * listens on loopback, only requests addressed to it by one of its own names get through (DNS rebinding).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "drover.receptor.dev-mode=true", "server.address=127.0.0.1" })
@AutoConfigureMockMvc
@WithDroverInfrastructure
@ExtendWith(OutputCaptureExtension.class)
class DevModeIT {

    @Autowired
    MockMvc mvc;
    @LocalServerPort
    int port;

    @Test
    void onLoopbackTheApiIsOpenAndTheLogSaysSoLoudly(CapturedOutput output) throws Exception {
        mvc.perform(get("/v1/desired_lrps")).andExpect(status().isOk());
        mvc.perform(get("/v1/cells")).andExpect(status().isOk());
        assertThat(output.getAll()).contains("receptor-dev-mode auth=OFF")
                .doesNotContain("receptor-credentials generated=true");
    }

    /**
     * A page of evil.example whose name the attacker rebinds to 127.0.0.1 reaches this receptor from the victim's
     * browser, same-origin as far as the browser knows, with Host: evil.example: refused before anything else runs.
     */
    @Test
    void aRequestAddressedToAnotherNameIsRefusedSoARebindingPageCannotReachTheApi() throws Exception {
        String refused = exchange("evil.example:" + port);
        assertThat(refused).startsWith("HTTP/1.1 421 ");
        JsonNode error = Json.tree(refused.substring(refused.indexOf("\r\n\r\n") + 4));
        assertThat(error.get("name").stringValue()).isEqualTo("InvalidRequest");
        assertThat(error.get("message").stringValue()).contains("evil.example", "allowed-hosts");
        assertThat(exchange("127.0.0.1.nip.io:" + port)).startsWith("HTTP/1.1 421 ");
        assertThat(exchange("localhost.evil.example")).startsWith("HTTP/1.1 421 ");

        assertThat(exchange("localhost:" + port)).startsWith("HTTP/1.1 200 ");
        assertThat(exchange("127.0.0.1:" + port)).startsWith("HTTP/1.1 200 ");
        assertThat(exchange("[::1]:" + port)).startsWith("HTTP/1.1 200 ");
    }

    /** {@code GET /v1/cells} with this Host header, over a socket (HTTP clients set Host themselves). */
    private String exchange(String host) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET /v1/cells HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
                    + "\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
