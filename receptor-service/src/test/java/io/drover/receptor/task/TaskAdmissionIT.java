package io.drover.receptor.task;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static io.drover.receptor.TestApi.task;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.lrp.Actor;
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
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/** Admission of task submissions against a domain's limit of unfinished tasks (3 here, 100,000 by default). */
@ReceptorTest
@TestPropertySource(properties = "drover.receptor.tasks.max-unfinished-per-domain=3")
class TaskAdmissionIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    TaskLifecycle lifecycle;
    @Autowired
    TaskReads reads;

    @Test
    void aDomainAtItsLimitOfUnfinishedTasksIsAnsweredTooManyTasksUntilOneFinishes() throws Exception {
        String domain = guid("full");
        List<String> admitted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            admitted.add(guid("admitted"));
            mvc.perform(json(post("/v1/tasks"), task(admitted.get(i), domain))).andExpect(status().isCreated());
        }

        String waiting = guid("waiting");
        mvc.perform(json(post("/v1/tasks"), task(waiting, domain)))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().exists("Retry-After"))
                .andExpect(jsonPath("$.name").value("TooManyTasks"));
        mvc.perform(authed(get("/v1/tasks/" + waiting))).andExpect(status().isNotFound());
        mvc.perform(json(post("/v1/tasks"), task(admitted.get(0), domain))) // a retry of an admitted one
                .andExpect(status().isOk());
        mvc.perform(json(post("/v1/tasks"), task(guid("elsewhere"), guid("other-domain"))))
                .andExpect(status().isCreated());

        finish(admitted.get(0));

        await().atMost(Duration.ofSeconds(10)).until(() -> mvc.perform(json(post("/v1/tasks"),
                task(waiting, domain))).andReturn().getResponse().getStatus() == 201);
    }

    private void finish(String guid) {
        String cell = "cell-" + UUID.randomUUID();
        UUID epoch = reads.find(guid).orElseThrow().modificationTag().epoch();
        lifecycle.place(UUID.randomUUID(), Map.of(guid, cell), Actor.service("auctioneer"));
        lifecycle.start(Map.of(guid, new TaskStart(cell, epoch)), Actor.cell(cell));
        lifecycle.complete(Map.of(guid, TaskCompletion.succeeded(cell, "")), Actor.cell(cell));
    }
}
