package io.drover.receptor.desiredlrp;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.autoscale.AutoscalerRecords;
import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.autoscale.Recommendation;
import io.drover.receptor.ReceptorTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

@ReceptorTest
class DesiredLrpApiIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    AutoscalerRecords records;

    @Test
    void createReturnsTheDesiredLrpWithItsTagAndLocation() throws Exception {
        String guid = guid("create");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 2)))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "/v1/desired_lrps/" + guid))
                .andExpect(header().exists("ETag"))
                .andExpect(jsonPath("$.process_guid").value(guid))
                .andExpect(jsonPath("$.instances").value(2))
                .andExpect(jsonPath("$.action.run.path").value("sleep"))
                .andExpect(jsonPath("$.action.run.resource_limits.nofile").value(1024))
                .andExpect(jsonPath("$.check_definition.checks[0].tcp_check.port").value(8080))
                .andExpect(jsonPath("$.routes.http[0]").value("web.example.com"))
                .andExpect(jsonPath("$.placement_tags[0]").value("blue"))
                .andExpect(jsonPath("$.start_timeout").value(60))
                .andExpect(jsonPath("$.modification_tag.index").value(0))
                .andExpect(jsonPath("$.modification_tag.epoch").isString())
                .andExpect(jsonPath("$.created_at").isString());
    }

    @Test
    void creatingTheSameProcessGuidTwiceIsDesiredLrpAlreadyExists() throws Exception {
        String guid = guid("dup");
        create(guid, 1);
        error(mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 1))), 409,
                "DesiredLRPAlreadyExists");
    }

    @Test
    void desiresPostedAtOnceShareTransactionsAndEachIsAnsweredAsAlone() throws Exception {
        List<String> guids = IntStream.range(0, 16).mapToObj(i -> guid("burst")).toList();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (String guid : guids) {
                for (int copy = 0; copy < 2; copy++) {
                    statuses.add(clients.submit(() -> mvc.perform(json(post("/v1/desired_lrps"),
                            desiredLrp(guid, "apps", 2))).andReturn().getResponse().getStatus()));
                }
            }
            List<Integer> answered = new ArrayList<>();
            for (Future<Integer> status : statuses) {
                answered.add(status.get(60, TimeUnit.SECONDS));
            }
            assertThat(answered).as("each guid created once, its second desire DesiredLRPAlreadyExists")
                    .filteredOn(s -> s == 201).hasSize(guids.size());
            assertThat(answered).filteredOn(s -> s == 409).hasSize(guids.size());
        } finally {
            clients.shutdownNow();
        }
        for (String guid : guids) {
            mvc.perform(authed(get("/v1/actual_lrps/" + guid)))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.length()").value(2));
        }
    }

    @Test
    void malformedJsonIsInvalidJson() throws Exception {
        error(mvc.perform(json(post("/v1/desired_lrps"), "{\"process_guid\": ")), 400, "InvalidJSON");
        error(mvc.perform(json(post("/v1/desired_lrps"), "[1, 2]")), 400, "InvalidJSON");
        error(mvc.perform(json(post("/v1/desired_lrps"), "")), 400, "InvalidJSON");
        error(mvc.perform(json(post("/v1/desired_lrps"), "{\"a\": 1, \"a\": 2}")), 400, "InvalidJSON");
    }

    @Test
    void invalidFieldsAreInvalidLrpNamingEachField() throws Exception {
        String body = desiredLrp(guid("bad"), "apps", 1).replace("\"instances\": 1", "\"instances\": -1")
                .replace("preloaded:host", "no scheme");
        error(mvc.perform(json(post("/v1/desired_lrps"), body)), 400, "InvalidLRP")
                .andExpect(jsonPath("$.message").value("Invalid field: instances, Invalid field: rootfs"));
    }

    @Test
    void listsAllOrOneDomain() throws Exception {
        String a = guid("list-a");
        String b = guid("list-b");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(a, "domain-a", 0))).andExpect(status().isCreated());
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(b, "domain-b", 0))).andExpect(status().isCreated());
        mvc.perform(authed(get("/v1/desired_lrps")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[*].process_guid", hasItem(a)))
                .andExpect(jsonPath("$[*].process_guid", hasItem(b)));
        mvc.perform(authed(get("/v1/desired_lrps").param("domain", "domain-a")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[*].process_guid", hasItem(a)))
                .andExpect(jsonPath("$[*].process_guid", not(hasItem(b))));
    }

    @Test
    void getsOneWithItsETagOrDesiredLrpNotFound() throws Exception {
        String guid = guid("get");
        String etag = create(guid, 1);
        mvc.perform(authed(get("/v1/desired_lrps/" + guid)))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", etag))
                .andExpect(jsonPath("$.process_guid").value(guid));
        error(mvc.perform(authed(get("/v1/desired_lrps/" + guid("missing")))), 404, "DesiredLRPNotFound");
        error(mvc.perform(authed(get("/v1/desired_lrps/has.dot"))), 404, "DesiredLRPNotFound");
    }

    @Test
    void updateAppliesAndAnswersWithTheNewTag() throws Exception {
        String guid = guid("update");
        String etag = create(guid, 1);
        String newTag = mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 2, \"annotation\": \"v2\","
                        + " \"routes\": {\"http\": []}}").header("If-Match", etag))
                .andExpect(status().isNoContent())
                .andReturn().getResponse().getHeader("ETag");
        mvc.perform(authed(get("/v1/desired_lrps/" + guid)))
                .andExpect(header().string("ETag", newTag))
                .andExpect(jsonPath("$.instances").value(2))
                .andExpect(jsonPath("$.annotation").value("v2"))
                .andExpect(jsonPath("$.routes.http").isEmpty())
                .andExpect(jsonPath("$.modification_tag.index").value(1));
    }

    @Test
    void routesForTheRouterNameOneOfTheLrpsPortsOrAreInvalidRequest() throws Exception {
        String guid = guid("routes");
        create(guid, 1);
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"routes\": {\"cf-router\": [{\"hostnames\": "
                + "[\"web.example.com\"], \"port\": 9999}]}}")), 400, "InvalidRequest")
                .andExpect(jsonPath("$.message").value("Invalid field: routes.cf-router[0].port"));
        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"routes\": {\"cf-router\": [{\"hostnames\": "
                        + "[\"web.example.com\"], \"port\": 8080}], \"other\": 1}}"))
                .andExpect(status().isNoContent());
        mvc.perform(authed(get("/v1/desired_lrps/" + guid)))
                .andExpect(jsonPath("$.routes['cf-router'][0].hostnames[0]").value("web.example.com"))
                .andExpect(jsonPath("$.routes.other").value(1));
        error(mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid("routes"), "apps", 1).replace(
                "\"routes\": {\"http\": [\"web.example.com\"]}", "\"routes\": {\"cf-router\": [{\"hostnames\": "
                        + "[\"not_a_name\"], \"port\": 8080}]}"))), 400, "InvalidRequest")
                .andExpect(jsonPath("$.message").value("Invalid field: routes.cf-router[0].hostnames[0]"));
    }

    @Test
    void updateWithAStaleTagIsResourceConflict() throws Exception {
        String guid = guid("stale");
        String etag = create(guid, 1);
        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"annotation\": \"a\"}")).andExpect(status().isNoContent());
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"annotation\": \"b\"}").header("If-Match", etag)),
                409, "ResourceConflict");
        String tag = etag.substring(1, etag.length() - 1);
        String[] parts = tag.split(":");
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"annotation\": \"c\", \"modification_tag\": "
                + "{\"epoch\": \"" + parts[0] + "\", \"index\": 0}}")), 409, "ResourceConflict");
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"annotation\": \"d\"}")
                .header("If-Match", "\"00000000-0000-0000-0000-000000000000:1\"")), 409, "ResourceConflict");
    }

    @Test
    void updateRejectsFieldsThatCannotChangeAndBadInput() throws Exception {
        String guid = guid("update-bad");
        create(guid, 1);
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"rootfs\": \"preloaded:other\"}")), 400,
                "InvalidLRP").andExpect(jsonPath("$.message").value("Invalid field: rootfs"));
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 10001}")), 400, "InvalidLRP");
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": ")), 400, "InvalidJSON");
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{}").header("If-Match", "garbage")), 400,
                "InvalidRequest");
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid("nope")), "{\"instances\": 1}")), 404,
                "DesiredLRPNotFound");
    }

    @Test
    void whileAPolicyIsSetTheAutoscalerOwnsInstancesWithinItsRange() throws Exception {
        String guid = guid("autoscaled");
        String body = desiredLrp(guid, "apps", 1).replaceFirst("\\{", "{\"autoscaling\": {\"min_instances\": 1, "
                + "\"max_instances\": 3, \"target_cpu_percent\": 60, \"scale_down_delay\": 30},");
        String etag = mvc.perform(json(post("/v1/desired_lrps"), body)).andExpect(status().isCreated())
                .andExpect(jsonPath("$.autoscaling.max_instances").value(3))
                .andExpect(jsonPath("$.autoscaling.target_memory_percent").value(nullValue()))
                .andReturn().getResponse().getHeader("ETag");
        mvc.perform(authed(get("/v1/desired_lrps/" + guid)).header("If-None-Match", etag))
                .andExpect(status().isOk()) // its status changes between versions: never a 304
                .andExpect(jsonPath("$.autoscaling.scale_down_delay").value(30))
                .andExpect(jsonPath("$.autoscaling_status").value(nullValue()));

        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 4}")), 409, "ResourceConflict")
                .andExpect(jsonPath("$.message").value(containsString("autoscaling policy")))
                .andExpect(jsonPath("$.message").value(containsString("[1, 3]")));
        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 3}")).andExpect(status().isNoContent());
        error(mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"autoscaling\": {\"max_instances\": 2}}")),
                400, "InvalidLRP").andExpect(jsonPath("$.message").value("Invalid field: "
                        + "autoscaling.target_cpu_percent, Invalid field: autoscaling.target_memory_percent"));

        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"autoscaling\": null}")).andExpect(status().isNoContent());
        mvc.perform(authed(get("/v1/desired_lrps/" + guid)))
                .andExpect(jsonPath("$.instances").value(3))
                .andExpect(jsonPath("$.autoscaling").value(nullValue()))
                .andExpect(jsonPath("$.autoscaling_status").doesNotExist());
        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 7}")).andExpect(status().isNoContent());
    }

    @Test
    void aSingleReadShowsTheAutoscalersLastDecision() throws Exception {
        String guid = guid("status");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 2).replaceFirst("\\{",
                "{\"autoscaling\": {\"max_instances\": 4, \"target_cpu_percent\": 60},")))
                .andExpect(status().isCreated());
        Instant at = Instant.parse("2026-12-03T10:00:00Z");
        records.write(List.of(new AutoscalerRecords.Evaluation(guid, new AutoscalingStatus(at, 95.04, null, 2, 4,
                "scaling up", at, 2, 4, "autoscaled from 2 to 4: cpu 95.0% of target 60% over 2 instances"),
                List.of(new Recommendation(at, 4)), 4)), at);

        mvc.perform(authed(get("/v1/desired_lrps/" + guid)))
                .andExpect(jsonPath("$.autoscaling_status.evaluated_at").value("2026-12-03T10:00:00Z"))
                .andExpect(jsonPath("$.autoscaling_status.cpu_percent").value(95.0))
                .andExpect(jsonPath("$.autoscaling_status.memory_percent").value(nullValue()))
                .andExpect(jsonPath("$.autoscaling_status.counted_instances").value(2))
                .andExpect(jsonPath("$.autoscaling_status.desired_instances").value(4))
                .andExpect(jsonPath("$.autoscaling_status.condition").value("scaling up"))
                .andExpect(jsonPath("$.autoscaling_status.last_scale_at").value("2026-12-03T10:00:00Z"))
                .andExpect(jsonPath("$.autoscaling_status.last_scale_from").value(2))
                .andExpect(jsonPath("$.autoscaling_status.last_scale_to").value(4))
                .andExpect(jsonPath("$.autoscaling_status.last_scale_reason").value(containsString("95.0%")));
        mvc.perform(authed(get("/v1/desired_lrps?domain=apps")))
                .andExpect(jsonPath("$[?(@.process_guid == '" + guid + "')].autoscaling_status").isEmpty());
    }

    @Test
    void deleteRemovesItOrIsNotFound() throws Exception {
        String guid = guid("delete");
        create(guid, 2);
        mvc.perform(authed(delete("/v1/desired_lrps/" + guid))).andExpect(status().isNoContent());
        error(mvc.perform(authed(get("/v1/desired_lrps/" + guid))), 404, "DesiredLRPNotFound");
        error(mvc.perform(authed(delete("/v1/desired_lrps/" + guid))), 404, "DesiredLRPNotFound");
    }

    private String create(String guid, int instances) throws Exception {
        return mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", instances)))
                .andExpect(status().isCreated())
                .andReturn().getResponse().getHeader("ETag");
    }

    static ResultActions error(ResultActions result, int status, String name) throws Exception {
        return result.andExpect(status().is(status))
                .andExpect(jsonPath("$.name").value(name))
                .andExpect(jsonPath("$.message").isString());
    }
}
