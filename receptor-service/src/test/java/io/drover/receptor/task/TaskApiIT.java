package io.drover.receptor.task;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static io.drover.receptor.TestApi.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Actor;
import io.drover.model.task.CallbackAnswer;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskStart;
import io.drover.receptor.ReceptorTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** {@code /v1/tasks} over HTTP against the real database: codes, error names and the task JSON. */
@ReceptorTest
class TaskApiIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    TaskLifecycle lifecycle;
    @Autowired
    TaskReads reads;
    @Autowired
    CellPresence cells;

    @Test
    void aSubmissionIsCreatedOnceAndAnIdenticalRetryGetsTheSameTask() throws Exception {
        String guid = guid("submit");
        mvc.perform(json(post("/v1/tasks"), task(guid, "api-tasks")))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "/v1/tasks/" + guid))
                .andExpect(jsonPath("$.task_guid").value(guid))
                .andExpect(jsonPath("$.state").value("PENDING"))
                .andExpect(jsonPath("$.action.serial.actions[0].download.cache_key").value("tool-v1"))
                .andExpect(jsonPath("$.result_file").value("out/result.txt"))
                .andExpect(jsonPath("$.failed").value(false))
                .andExpect(jsonPath("$.result").value(""))
                .andExpect(jsonPath("$.created_at").isNotEmpty());
        mvc.perform(json(post("/v1/tasks"), task(guid, "api-tasks")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.task_guid").value(guid));
        mvc.perform(json(post("/v1/tasks"), task(guid, "another-domain")))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.name").value("TaskGuidAlreadyExists"));
        mvc.perform(authed(get("/v1/tasks/" + guid)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.domain").value("api-tasks"));
    }

    @Test
    void aBadSubmissionNamesEveryBadFieldByItsPath() throws Exception {
        mvc.perform(json(post("/v1/tasks"), """
                {"task_guid": "bad", "domain": "d", "rootfs": "preloaded:host", "result_file": "../x",
                 "action": {"serial": {"actions": [{"run": {"path": "true"}}, {"run": {"args": []}}]}}}"""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidTask"))
                .andExpect(jsonPath("$.message").value(
                        "Invalid field: action.serial.actions[1].run.path, Invalid field: result_file"));
        mvc.perform(json(post("/v1/tasks"), "{\"task_guid\": "))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidJSON"));
    }

    @Test
    void tasksAreListedByDomainCellAndState() throws Exception {
        String pending = submit("pending", "list-tasks");
        String running = submit("running", "list-tasks");
        String cell = "cell-" + UUID.randomUUID();
        start(running, cell);

        mvc.perform(authed(get("/v1/tasks").param("domain", "list-tasks")))
                .andExpect(jsonPath("$[*].task_guid", hasItem(pending)))
                .andExpect(jsonPath("$[*].task_guid", hasItem(running)));
        mvc.perform(authed(get("/v1/tasks").param("cell_id", cell)))
                .andExpect(jsonPath("$[*].task_guid", hasItem(running)))
                .andExpect(jsonPath("$[*].task_guid", not(hasItem(pending))));
        mvc.perform(authed(get("/v1/tasks").param("domain", "list-tasks").param("state", "PENDING")))
                .andExpect(jsonPath("$[*].task_guid", hasItem(pending)))
                .andExpect(jsonPath("$[*].task_guid", not(hasItem(running))));
        mvc.perform(authed(get("/v1/tasks").param("state", "DONE")))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidRequest"));
    }

    @Test
    void tasksArePagedAsTheLrpListsAre() throws Exception {
        String domain = "paged-" + UUID.randomUUID();
        List<String> submitted = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            submitted.add(submit("paged", domain));
        }
        List<String> listed = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            MockHttpServletRequestBuilder page = get("/v1/tasks").param("domain", domain).param("limit", "2");
            MvcResult result = mvc.perform(authed(token == null ? page : page.param("continue", token)))
                    .andExpect(status().isOk()).andReturn();
            Json.tree(result.getResponse().getContentAsString())
                    .forEach(task -> listed.add(task.get("task_guid").asString()));
            token = result.getResponse().getHeader("Drover-Continue");
            pages++;
        } while (token != null);

        assertThat(pages).isEqualTo(3);
        assertThat(listed).containsExactlyElementsOf(submitted.stream().sorted().toList());
        mvc.perform(authed(get("/v1/tasks").param("domain", domain).param("limit", "2").param("continue", "@@@")))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidRequest"));
        String first = mvc.perform(authed(get("/v1/tasks").param("domain", domain).param("limit", "2"))).andReturn()
                .getResponse().getHeader("Drover-Continue");
        mvc.perform(authed(get("/v1/tasks").param("domain", domain).param("state", "RUNNING").param("limit", "2")
                .param("continue", first)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidRequest"));
    }

    @Test
    void anUnknownTaskIsNotFoundWhateverIsAskedOfIt() throws Exception {
        for (String guid : new String[] { "no-such-task", "not.a.guid" }) {
            mvc.perform(authed(get("/v1/tasks/" + guid))).andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.name").value("TaskNotFound"));
            mvc.perform(authed(post("/v1/tasks/" + guid + "/cancel"))).andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.name").value("TaskNotFound"));
            mvc.perform(authed(delete("/v1/tasks/" + guid))).andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.name").value("TaskNotFound"));
        }
    }

    @Test
    void aCancelledTaskIsCompletedFailedAndCancellingAgainIsHarmless() throws Exception {
        String guid = submit("cancel", "cancel-tasks");
        start(guid, "cell-" + UUID.randomUUID());

        for (int i = 0; i < 2; i++) {
            mvc.perform(authed(post("/v1/tasks/" + guid + "/cancel")))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.state").value("COMPLETED"))
                    .andExpect(jsonPath("$.failed").value(true))
                    .andExpect(jsonPath("$.failure_reason").value("cancelled"));
        }
    }

    @Test
    void onlyACompletedTaskCanBeDeletedAndACompletedOneNotCancelled() throws Exception {
        String guid = submit("resolve", "resolve-tasks");
        String cell = "cell-" + UUID.randomUUID();
        start(guid, cell);
        mvc.perform(authed(delete("/v1/tasks/" + guid)))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.name").value("TaskNotDeletable"))
                .andExpect(jsonPath("$.message", containsString("RUNNING")));

        lifecycle.complete(Map.of(guid, TaskCompletion.succeeded(cell, "42")), Actor.service("test"));
        mvc.perform(authed(get("/v1/tasks/" + guid)))
                .andExpect(jsonPath("$.state").value("COMPLETED"))
                .andExpect(jsonPath("$.result").value("42"))
                .andExpect(jsonPath("$.cell_id").value(cell))
                .andExpect(jsonPath("$.first_completed_at").isNotEmpty());
        mvc.perform(authed(post("/v1/tasks/" + guid + "/cancel")))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.name").value("TaskNotCancelable"));
        mvc.perform(authed(delete("/v1/tasks/" + guid))).andExpect(status().isNoContent());
        mvc.perform(authed(get("/v1/tasks/" + guid))).andExpect(status().isNotFound());
    }

    @Test
    void aTaskShowsWhereItsCompletionCallbackStands() throws Exception {
        String guid = submit("callback", "callback-tasks");
        String cell = "cell-" + UUID.randomUUID();
        start(guid, cell);
        lifecycle.complete(Map.of(guid, TaskCompletion.failed(cell, "exited with status 1")), Actor.service("test"));
        mvc.perform(authed(get("/v1/tasks/" + guid)))
                .andExpect(jsonPath("$.callback_status").value("pending"))
                .andExpect(jsonPath("$.callback_attempts").value(0));

        lifecycle.resolving(List.of(guid), Actor.service("converger"));
        lifecycle.callbackAnswered(Map.of(guid, CallbackAnswer.givenUp(500)), Actor.service("converger"));

        mvc.perform(authed(get("/v1/tasks/" + guid)))
                .andExpect(jsonPath("$.state").value("COMPLETED"))
                .andExpect(jsonPath("$.callback_status").value("given_up"))
                .andExpect(jsonPath("$.callback_attempts").value(1))
                .andExpect(jsonPath("$.callback_last_status").value(500))
                .andExpect(jsonPath("$.callback_last_at").isNotEmpty());
    }

    @Test
    void aRetriedSubmissionOfADeletedTaskAnswersThatItWasDeletedAndRunsNothing() throws Exception {
        String guid = submit("tombstone", "tombstone-tasks");
        String cell = "cell-" + UUID.randomUUID();
        start(guid, cell);
        lifecycle.complete(Map.of(guid, TaskCompletion.succeeded(cell, "")), Actor.service("test"));
        mvc.perform(authed(delete("/v1/tasks/" + guid))).andExpect(status().isNoContent());

        mvc.perform(json(post("/v1/tasks"), task(guid, "tombstone-tasks")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.task_guid").value(guid))
                .andExpect(jsonPath("$.domain").value("tombstone-tasks"))
                .andExpect(jsonPath("$.deleted").value(true))
                .andExpect(jsonPath("$.deleted_at").isNotEmpty());
        mvc.perform(json(post("/v1/tasks"), task(guid, "another-domain")))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.name").value("TaskGuidAlreadyExists"));
        mvc.perform(authed(get("/v1/tasks/" + guid))).andExpect(status().isNotFound());
    }

    @Test
    void aCallbackUrlToLoopbackLinkLocalOrAServiceOfTheClusterIsRefusedNamingTheField() throws Exception {
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(new CellRegistration(cell, "z1", "10.77.0.5", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of(), null, "http://10.77.0.5:1801"), Duration.ofSeconds(30));
        for (String refused : List.of("http://127.0.0.1:9000/done", "http://localhost/done", "http://[::1]/done",
                "http://169.254.169.254/latest/meta-data", "http://0.0.0.0:8080/done", "http://10.77.0.5:1801/x")) {
            mvc.perform(json(post("/v1/tasks"), withCallback(guid("refused"), refused)))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.name").value("InvalidTask"))
                    .andExpect(jsonPath("$.message", containsString("Invalid field: completion_callback_url")));
        }
        for (String allowed : List.of("http://10.77.0.5:8080/done", "https://203.0.113.10/done")) {
            mvc.perform(json(post("/v1/tasks"), withCallback(guid("allowed"), allowed)))
                    .andExpect(status().isCreated());
        }
    }

    private static String withCallback(String guid, String url) {
        return "{\"task_guid\": \"" + guid + "\", \"domain\": \"callbacks\", \"rootfs\": \"preloaded:host\", "
                + "\"action\": {\"run\": {\"path\": \"true\"}}, \"completion_callback_url\": \"" + url + "\"}";
    }

    @Test
    void theOpenApiDocumentListsTheTaskEndpoints() throws Exception {
        mvc.perform(get("/v3/api-docs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paths['/v1/tasks'].post").exists())
                .andExpect(jsonPath("$.paths['/v1/tasks'].get").exists())
                .andExpect(jsonPath("$.paths['/v1/tasks/{taskGuid}'].get").exists())
                .andExpect(jsonPath("$.paths['/v1/tasks/{taskGuid}'].delete").exists())
                .andExpect(jsonPath("$.paths['/v1/tasks/{taskGuid}/cancel'].post").exists());
    }

    private String submit(String prefix, String domain) throws Exception {
        String guid = guid(prefix);
        mvc.perform(json(post("/v1/tasks"), task(guid, domain))).andExpect(status().isCreated());
        return guid;
    }

    private void start(String guid, String cell) {
        UUID epoch = reads.find(guid).orElseThrow().modificationTag().epoch();
        lifecycle.place(UUID.randomUUID(), Map.of(guid, cell), Actor.service("auctioneer"));
        lifecycle.start(Map.of(guid, new TaskStart(cell, epoch)), Actor.service("test"));
    }
}
