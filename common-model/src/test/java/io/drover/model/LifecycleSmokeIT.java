package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

@SpringBootTest
@WithDroverInfrastructure
class LifecycleSmokeIT {

    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void desireClaimStartAndRelay() {
        String guid = "smoke-" + UUID.randomUUID();
        desired.desire(new DesiredLrpDefinition(guid, "d1", "preloaded:host", 3,
                new Action(new RunAction("sleep", List.of("100"), null, null, null)), null, null, 0, null, List.of(8080),
                64, 64, 0, 0, null, null, null, null, null), Actor.service("test"));
        assertThat(actuals.findByProcessGuid(guid)).hasSize(3)
                .allMatch(a -> a.state() == ActualLrpState.UNCLAIMED);

        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        actual.place(UUID.randomUUID(), Map.of(key, "cell-1"), Actor.service("auctioneer"));
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-1");
        actual.claim(key, owner, Actor.cell("cell-1"));
        actual.claim(key, owner, Actor.cell("cell-1"));
        actual.start(new StartedInstance(key, "d1", owner,
                new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000)))), Actor.cell("cell-1"));
        assertThat(actuals.findById(key)).get().matches(a -> a.state() == ActualLrpState.RUNNING);

        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM outbox WHERE sent_at IS NULL", Integer.class) == 0);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM lrp_events WHERE process_guid = ?", Integer.class, guid))
                .isEqualTo(7);
    }
}
