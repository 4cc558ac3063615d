package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.IllegalTransitionException;
import io.drover.model.lrp.InstanceOwner;
import io.drover.test.WithDroverInfrastructure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/** Eight cells race to claim one UNCLAIMED instance: the optimistic lock lets exactly one win, with no lost update. */
@SpringBootTest
@WithDroverInfrastructure
class ClaimConcurrencyIT {

    static final int CELLS = 8;
    static final ExecutorService POOL = Executors.newFixedThreadPool(CELLS);

    @Autowired
    ActualLrpLifecycle lifecycle;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    JdbcTemplate jdbc;

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @RepeatedTest(3)
    void exactlyOneOfEightCellsClaimsAnInstance() throws Exception {
        String guid = "race-" + UUID.randomUUID();
        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        lifecycle.createUnclaimed(guid, "d1", List.of(0), "test", Actor.service("test"));

        CountDownLatch ready = new CountDownLatch(CELLS);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<InstanceOwner>> attempts = new ArrayList<>();
        for (int i = 0; i < CELLS; i++) {
            InstanceOwner owner = InstanceOwner.of("ig-" + i, "cell-" + i);
            attempts.add(POOL.submit(() -> {
                ready.countDown();
                go.await();
                try {
                    lifecycle.claim(key, owner, Actor.cell(owner.cellId()));
                    return owner;
                } catch (IllegalTransitionException rejected) {
                    return null;
                }
            }));
        }
        assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
        go.countDown();
        List<InstanceOwner> winners = new ArrayList<>();
        for (Future<InstanceOwner> attempt : attempts) {
            InstanceOwner won = attempt.get(30, TimeUnit.SECONDS);
            if (won != null) {
                winners.add(won);
            }
        }

        assertThat(winners).hasSize(1);
        ActualLrp row = actuals.findById(key).orElseThrow();
        assertThat(row.state()).isEqualTo(ActualLrpState.CLAIMED);
        assertThat(row.owner()).isEqualTo(winners.get(0));
        assertThat(row.version()).isEqualTo(1);
        List<Map<String, Object>> claims = jdbc.queryForList("SELECT actor_cell_id, version FROM lrp_events "
                + "WHERE process_guid = ? AND to_state = 'CLAIMED'", guid);
        assertThat(claims).singleElement().satisfies(audit -> {
            assertThat(audit.get("actor_cell_id")).isEqualTo(winners.get(0).cellId());
            assertThat(audit.get("version")).isEqualTo(1L);
        });
    }
}
