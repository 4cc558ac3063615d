package io.drover.receptor.reads;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lists page like Kubernetes' ({@code limit} and an opaque {@code continue} token): walking the pages gives the same
 * rows as one unlimited read, and while instances are created and deleted under the walk, every instance that exists
 * throughout appears exactly once and no instance appears twice.
 */
@ReceptorTest
class PaginationIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    JsonMapper mapper;
    @Autowired
    DesiredLrpLifecycle desired;

    @Test
    void walkingThePagesGivesTheUnlimitedList() throws Exception {
        String domain = TestApi.guid("pages");
        for (int i = 0; i < 3; i++) {
            mvc.perform(json(post("/v1/desired_lrps"), TestApi.desiredLrp(TestApi.guid("p" + i), domain, 4)));
        }
        for (String list : List.of("/v1/actual_lrps", "/v1/desired_lrps")) {
            List<String> all = items(read(list + "?domain=" + domain));
            assertThat(walk(list + "?domain=" + domain, 5)).isEqualTo(all);
            assertThat(walk(list + "?domain=" + domain, 1)).isEqualTo(all);
            assertThat(walk(list + "?domain=" + domain, 5000)).isEqualTo(all);
        }
        assertThat(items(read("/v1/actual_lrps?domain=" + domain))).hasSize(12);
    }

    @Test
    void noInstanceIsMissedOrRepeatedWhileInstancesAreCreatedAndDeleted() throws Exception {
        String domain = TestApi.guid("churn");
        Set<String> stable = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            String guid = TestApi.guid("stable");
            desire(guid, domain, 5);
            for (int index = 0; index < 5; index++) {
                stable.add(guid + "/" + index);
            }
        }
        AtomicBoolean walking = new AtomicBoolean(true);
        AtomicInteger churned = new AtomicInteger();
        CompletableFuture<Void> churn = CompletableFuture.runAsync(() -> {
            while (walking.get() || churned.get() < 10) {
                String guid = TestApi.guid(churned.get() % 2 == 0 ? "a-churn" : "z-churn");
                desire(guid, domain, 3);
                desired.remove(guid, Actor.service("test"));
                churned.incrementAndGet();
            }
        });
        List<String> seen = new ArrayList<>();
        for (int walk = 0; walk < 3; walk++) {
            seen.clear();
            walk("/v1/actual_lrps?domain=" + domain, 4).forEach(item -> seen.add(key(item)));
            assertThat(seen).as("no instance twice").doesNotHaveDuplicates();
            assertThat(seen).as("every instance that existed throughout").containsAll(stable);
        }
        walking.set(false);
        churn.get();
        assertThat(churned.get()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void aBadLimitOrTokenIsInvalidRequest() throws Exception {
        String domain = TestApi.guid("bad");
        mvc.perform(json(post("/v1/desired_lrps"), TestApi.desiredLrp(TestApi.guid("bad"), domain, 3)));
        String token = read("/v1/actual_lrps?limit=1&domain=" + domain).getHeader("Drover-Continue");
        assertThat(token).isNotNull();
        for (String query : List.of("limit=0", "limit=-1", "limit=abc", "limit=1.5", "limit=", "limit=99999999999",
                "limit=1&continue=%25%25", "limit=1&continue=AAAA", "limit=1&continue=" + token,
                "continue=" + token + "&domain=" + domain)) {
            MockHttpServletResponse response = mvc.perform(authed(get("/v1/actual_lrps?" + query))).andReturn()
                    .getResponse();
            assertThat(response.getStatus()).as(query).isEqualTo(400);
            assertThat(response.getContentAsString()).as(query).contains("\"name\":\"InvalidRequest\"");
        }
        MockHttpServletResponse otherList = mvc.perform(authed(get("/v1/desired_lrps?limit=1&continue=" + token
                + "&domain=" + domain))).andReturn().getResponse();
        assertThat(otherList.getStatus()).as("an actual LRP token on the desired list").isEqualTo(400);
        assertThat(read("/v1/actual_lrps?limit=1&continue=" + token + "&domain=" + domain).getStatus())
                .isEqualTo(200);
    }

    private List<String> walk(String list, int limit) throws Exception {
        List<String> walked = new ArrayList<>();
        String token = null;
        do {
            MockHttpServletResponse page = read(list + "&limit=" + limit + (token == null ? "" : "&continue="
                    + token));
            List<String> items = items(page);
            assertThat(items.size()).isLessThanOrEqualTo(limit);
            walked.addAll(items);
            token = page.getHeader("Drover-Continue");
        } while (token != null);
        return walked;
    }

    private MockHttpServletResponse read(String path) throws Exception {
        MockHttpServletResponse response = mvc.perform(authed(get(path))).andReturn().getResponse();
        assertThat(response.getStatus()).as(path).isEqualTo(200);
        return response;
    }

    private List<String> items(MockHttpServletResponse response) throws Exception {
        List<String> items = new ArrayList<>();
        mapper.readTree(response.getContentAsString()).forEach(item -> items.add(item.toString()));
        return items;
    }

    private String key(String item) {
        JsonNode node = mapper.readTree(item);
        return node.get("process_guid").stringValue() + "/" + node.get("index").intValue();
    }

    private void desire(String guid, String domain, int instances) {
        desired.desire(new DesiredLrpDefinition(guid, domain, "preloaded:host", instances,
                new Action(new RunAction("sleep", null, null, null, null)), null, null, 0, null, null, 0, 0, 0, 0,
                null, null, null, null, null), Actor.service("test"));
    }
}
