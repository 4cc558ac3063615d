package io.drover.receptor.reads;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.DesiredLrpRows;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import io.drover.receptor.desiredlrp.DesiredLrpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.json.JsonMapper;

/**
 * The lean reads write, byte for byte, what the API wrote before them: the entity's snapshot serialized by the
 * application's own JSON mapper. Every shape a row can take is covered: nulls, monitors, checks, routes with numbers,
 * escapes and non-ASCII text, every actual state, crash back-off.
 */
@ReceptorTest
class ReadJsonIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    JsonMapper mapper;
    @Autowired
    DesiredLrpLifecycle desiredLifecycle;
    @Autowired
    DesiredLrpRows desiredRows;
    @Autowired
    ActualLrpRepository actualEntities;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    CrashRestartPolicy policy;

    @Test
    void aDesiredLrpReadsExactlyAsItsSnapshotSerializes() throws Exception {
        String domain = TestApi.guid("json");
        List<String> guids = List.of(
                desire(TestApi.desiredLrp(TestApi.guid("full"), domain, 1)),
                desire("""
                        {"process_guid": "%s", "domain": "%s", "rootfs": "preloaded:host", "instances": 0,
                         "action": {"run": {"path": "sleep"}}}""".formatted(TestApi.guid("min"), domain)),
                desire("""
                        {"process_guid": "%s", "domain": "%s", "rootfs": "docker:///x", "instances": 2,
                         "action": {"run": {"path": "/bin/sh", "args": ["-c", "echo \\"hi\\" \\\\ there"],
                                            "dir": "/w", "env": [{"name": "Q", "value": "a\\nb\\u0001\\u2028é😀"}]}},
                         "monitor": {"run": {"path": "true", "resource_limits": {"nofile": 7}}},
                         "env": [{"name": "E", "value": ""}], "ports": [8080, 9000], "max_pids": 3,
                         "routes": {"a": [1.5, 1e10, -0.0, 12345678901234567890, 1E-7, "é\\u2028"],
                                    "b": {"c": null, "d": true, "e": {}, "f": []}, "\\u00ff": "\\"q\\""},
                         "annotation": "line1\\nline2 \\"quoted\\" \\\\ é", "log_guid": "l", "metrics_guid": "m"}"""
                        .formatted(TestApi.guid("odd"), domain)),
                desire("""
                        {"process_guid": "%s", "domain": "%s", "rootfs": "preloaded:host", "instances": 1,
                         "action": {"run": {"path": "srv"}}, "check_definition": {"checks": [
                           {"http_check": {"port": 8080, "path": "/health", "request_timeout_ms": 100}},
                           {"tcp_check": {"port": 9000}}]}}""".formatted(TestApi.guid("checks"), domain)),
                desire("""
                        {"process_guid": "%s", "domain": "%s", "rootfs": "preloaded:host", "instances": 2,
                         "memory_mb": 64, "action": {"run": {"path": "srv"}},
                         "autoscaling": {"max_instances": 5, "target_cpu_percent": 999, "target_memory_percent": 80,
                                         "scale_up_delay": 15, "scale_down_delay": 0}}"""
                        .formatted(TestApi.guid("autoscaled"), domain)));
        mvc.perform(json(put("/v1/desired_lrps/" + guids.get(0)), "{\"instances\": 2, \"annotation\": \"v2\"}"));

        StringBuilder list = new StringBuilder("[");
        // the list's order is the database's (its collation)
        List<String> inDatabaseOrder = desiredRows.page(domain, null, 10).stream().map(DesiredLrpRow::processGuid)
                .toList();
        assertThat(inDatabaseOrder).containsExactlyInAnyOrderElementsOf(guids);
        for (String guid : inDatabaseOrder) {
            // the lifecycle's own read of the row, parsed into the domain value, against the fast path's bytes
            DesiredLrpSnapshot snapshot = desiredLifecycle.snapshot(guid).orElseThrow();
            String expected = mapper.writeValueAsString(DesiredLrpResponse.of(snapshot));
            // a single read of an autoscaled LRP adds the autoscaler's status at the end
            String status = snapshot.definition().autoscaling() == null ? "" : ",\"autoscaling_status\":null";
            assertThat(body("/v1/desired_lrps/" + guid))
                    .isEqualTo(expected.substring(0, expected.length() - 1) + status + "}");
            list.append(list.length() > 1 ? "," : "").append(expected);
        }
        assertThat(body("/v1/desired_lrps?domain=" + domain)).isEqualTo(list + "]");
    }

    @Test
    void anActualLrpReadsExactlyAsItsSnapshotSerializesInEveryState() throws Exception {
        String domain = TestApi.guid("json");
        String guid = desire(TestApi.desiredLrp(TestApi.guid("states"), domain, 5));
        InstanceOwner owner = InstanceOwner.of("ig-\"1\"", "cell-json");
        actuals.failPlacement(Map.of(key(guid, 0), "insufficient resources: \"memory\""), Actor.service("t"));
        actuals.place(UUID.randomUUID(), Map.of(key(guid, 1), "cell-json"), Actor.service("t"));
        actuals.claim(key(guid, 2), owner, Actor.cell("cell-json"));
        actuals.claim(key(guid, 3), owner, Actor.cell("cell-json"));
        actuals.start(new StartedInstance(key(guid, 3), domain, owner, new NetInfo("10.0.0.1",
                List.of(new NetInfo.PortMapping(8080, 61000), new NetInfo.PortMapping(9000, 61001)))),
                Actor.cell("cell-json"));
        for (int crash = 0; crash < 3; crash++) {
            actuals.claim(key(guid, 4), owner, Actor.cell("cell-json"));
            actuals.crash(key(guid, 4), owner, "exited with code 137 (\"killed\")", Actor.cell("cell-json"));
        }

        List<ActualLrp> entities = actualEntities.findByProcessGuid(guid);
        for (ActualLrp lrp : entities) {
            assertThat(body("/v1/actual_lrps/" + guid + "/index/" + lrp.index()))
                    .isEqualTo(mapper.writeValueAsString(lrp.snapshot(policy)));
        }
        String expected = mapper.writeValueAsString(entities.stream().map(l -> l.snapshot(policy)).toList());
        assertThat(body("/v1/actual_lrps/" + guid)).isEqualTo(expected);
        assertThat(body("/v1/actual_lrps?domain=" + domain)).isEqualTo(expected);
        assertThat(body("/v1/actual_lrps/" + guid + "/index/4")).contains("\"state\":\"CRASHED\"")
                .doesNotContain("\"next_restart_at\":null");
    }

    private String body(String path) throws Exception {
        MockHttpServletResponse response = mvc.perform(authed(get(path))).andReturn().getResponse();
        assertThat(response.getStatus()).as(path).isEqualTo(200);
        assertThat(response.getContentType()).isEqualTo("application/json");
        return new String(response.getContentAsByteArray(), StandardCharsets.UTF_8);
    }

    private String desire(String body) throws Exception {
        MockHttpServletResponse response = mvc.perform(json(post("/v1/desired_lrps"), body)).andReturn().getResponse();
        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(201);
        return mapper.readTree(response.getContentAsString()).get("process_guid").stringValue();
    }

    private static ActualLrpKey key(String guid, int index) {
        return ActualLrpKey.of(guid, index);
    }
}
