package io.drover.receptor.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.test.WithDroverInfrastructure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

/** The loopback-only dev mode: no credentials needed, and the start-up log says so. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "drover.receptor.dev-mode=true", "server.address=127.0.0.1" })
@AutoConfigureMockMvc
@WithDroverInfrastructure
@ExtendWith(OutputCaptureExtension.class)
class DevModeIT {

    @Autowired
    MockMvc mvc;

    @Test
    void onLoopbackTheApiIsOpenAndTheLogSaysSoLoudly(CapturedOutput output) throws Exception {
        mvc.perform(get("/v1/desired_lrps")).andExpect(status().isOk());
        mvc.perform(get("/v1/cells")).andExpect(status().isOk());
        assertThat(output.getAll()).contains("receptor-dev-mode auth=OFF")
                .doesNotContain("receptor-credentials generated=true");
    }
}
