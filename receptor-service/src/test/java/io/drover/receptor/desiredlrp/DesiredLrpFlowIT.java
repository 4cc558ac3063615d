package io.drover.receptor.desiredlrp;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.Topics;
import io.drover.receptor.ReceptorTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.test.web.servlet.MockMvc;

/** Desire, scale up, scale down and delete over the API, checked in PostgreSQL and on the start-request topic. */
@ReceptorTest
class DesiredLrpFlowIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    ConsumerFactory<String, String> consumers;

    private Consumer<String, String> startRequests;
    private final List<LrpStartRequested> received = new ArrayList<>();

    @BeforeEach
    void subscribe() {
        Properties p = new Properties();
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        startRequests = consumers.createConsumer(guid("flow-test"), "flow-test", null, p);
        startRequests.subscribe(List.of(Topics.START_REQUESTS));
    }

    @AfterEach
    void close() {
        startRequests.close();
    }

    @Test
    void desireScaleAndDeleteAnLrp() throws Exception {
        String guid = guid("flow");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 3))).andExpect(status().isCreated());
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index, ActualLrp::state)
                .containsExactly(tuple(0), tuple(1), tuple(2));
        awaitStartRequests(guid, 1);
        assertThat(received.get(0).indices()).containsExactly(0, 1, 2);
        assertThat(received.get(0).domain()).isEqualTo("apps");

        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 5}")).andExpect(status().isNoContent());
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index, ActualLrp::state)
                .containsExactly(tuple(0), tuple(1), tuple(2), tuple(3), tuple(4));
        awaitStartRequests(guid, 2);
        assertThat(received.get(1).indices()).containsExactly(3, 4);

        mvc.perform(json(put("/v1/desired_lrps/" + guid), "{\"instances\": 1}")).andExpect(status().isNoContent());
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index).containsExactly(0);

        mvc.perform(authed(delete("/v1/desired_lrps/" + guid))).andExpect(status().isNoContent());
        assertThat(actuals.findByProcessGuid(guid)).isEmpty();
        mvc.perform(authed(get("/v1/desired_lrps/" + guid))).andExpect(status().isNotFound());
        assertThat(received).hasSize(2);
    }

    private void awaitStartRequests(String guid, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (ConsumerRecord<String, String> record : startRequests.poll(Duration.ofMillis(200))) {
                if (guid.equals(record.key())) {
                    received.add(Json.read(record.value(), LrpStartRequested.class));
                }
            }
            return received.size() >= count;
        });
        assertThat(received).hasSize(count).allMatch(r -> r.processGuid().equals(guid));
    }

    private static org.assertj.core.groups.Tuple tuple(int index) {
        return org.assertj.core.groups.Tuple.tuple(index, ActualLrpState.UNCLAIMED);
    }
}
