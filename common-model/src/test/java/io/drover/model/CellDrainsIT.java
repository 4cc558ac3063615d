package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellGoneException;
import io.drover.model.cell.CellNotFoundException;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.CellState;
import io.drover.model.cell.DrainOrder;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Actor;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.read.LiveCells;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An operator's drain of a cell (SPEC 18) is state on the cell's row: the API writes the order, the rep's heartbeats
 * read it back and never overwrite it, the rep alone says when it is done, and the order outlives the rep.
 */
@SpringBootTest
@WithDroverInfrastructure
class CellDrainsIT {

    static final Duration TTL = Duration.ofSeconds(15);
    static final Actor RECEPTOR = Actor.service("receptor");

    @Autowired
    CellDrains drains;
    @Autowired
    CellPresence cells;
    @Autowired
    LiveCells live;
    @Autowired
    MutableClock clock;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aCellOrderedToDrainTakesNoWorkAtOnceAndItsRepsBeatsReadTheOrderWithoutOverwritingIt() {
        String cell = "drain-" + UUID.randomUUID();
        String rep = "rep-" + UUID.randomUUID();
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, Duration.ofMinutes(5))), TTL);
        assertThat(live.schedulable()).extracting(Cell::cellId).contains(cell);

        Cell ordered = drains.drain(cell, null, "ops", RECEPTOR);

        assertThat(ordered.state()).isEqualTo(CellState.EVACUATING);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        assertThat(ordered.drain()).isEqualTo(new DrainOrder(now, now.plus(Duration.ofMinutes(5)), "ops"));
        assertThat(live.schedulable()).as("no new work from the moment of the order").extracting(Cell::cellId)
                .doesNotContain(cell);
        CellPresence.Beats beaten = cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, Duration.ofMinutes(5))), TTL);
        assertThat(beaten.drainOrders()).containsEntry(cell, ordered.drain());
        Cell afterBeat = cells.find(cell).orElseThrow();
        assertThat(afterBeat.drain()).as("a heartbeat leaves the operator's order").isEqualTo(ordered.drain());
        assertThat(afterBeat.state()).isEqualTo(CellState.EVACUATING);
        assertThat(live.schedulable()).extracting(Cell::cellId).doesNotContain(cell);
    }

    @Test
    void aDrainNamingNoDeadlineTakesTheRepsOwnAndAnotherDrainOnlyMovesTheDeadline() {
        String cell = "drain-" + UUID.randomUUID();
        cells.beat("rep-" + UUID.randomUUID(), List.of(beat(cell, CellState.ACTIVE, null)), TTL);
        Instant asked = clock.instant().truncatedTo(ChronoUnit.MICROS);

        assertThat(drains.drain(cell, null, "ops", RECEPTOR).drain().deadlineAt())
                .as("a rep that does not say gets the reps' default").isEqualTo(asked.plus(CellDrains.DEFAULT_DEADLINE));
        clock.advance(Duration.ofSeconds(3));
        assertThat(drains.drain(cell, null, "someone-else", RECEPTOR).drain())
                .as("a repeated drain changes nothing").isEqualTo(new DrainOrder(asked,
                        asked.plus(CellDrains.DEFAULT_DEADLINE), "ops"));
        assertThat(drains.drain(cell, Duration.ofSeconds(30), "someone-else", RECEPTOR).drain())
                .isEqualTo(new DrainOrder(asked, clock.instant().truncatedTo(ChronoUnit.MICROS).plusSeconds(30), "ops"));
    }

    /** The dashboard's census in SQL against {@link Cell#state()}, over every pair of order and reported state. */
    @Test
    void theCountsByStateInSqlFollowTheSameRuleAsTheCell() {
        String rep = "rep-" + UUID.randomUUID();
        for (CellState reported : List.of(CellState.ACTIVE, CellState.EVACUATING, CellState.DRAINED)) {
            for (boolean ordered : List.of(false, true)) {
                String cell = "census-" + UUID.randomUUID();
                cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null)), TTL);
                if (ordered) {
                    drains.drain(cell, null, "ops", RECEPTOR);
                }
                cells.beat(rep, List.of(beat(cell, reported, null)), TTL);
            }
        }
        List<Cell> all = live.cells();
        assertThat(live.byState()).isEqualTo(new LiveCells.ByState(all.size(),
                all.stream().filter(c -> c.state() == CellState.EVACUATING).count(),
                all.stream().filter(c -> c.state() == CellState.DRAINED).count()));
        assertThat(live.byState().drained()).isPositive();
        assertThat(live.byState().evacuating()).isGreaterThanOrEqualTo(3);
        assertThat(live.page(1, 2)).extracting(Cell::cellId).containsExactly(all.get(1).cellId(),
                all.get(2).cellId());
    }

    @Test
    void onlyTheRepSaysTheCellIsDrainedAndAnUndrainMakesItActiveAtOnce() {
        String cell = "drain-" + UUID.randomUUID();
        String rep = "rep-" + UUID.randomUUID();
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null)), TTL);
        assertThat(drains.drained(cell, rep)).as("no order, nothing to be done with").isFalse();
        drains.drain(cell, null, "ops", RECEPTOR);

        assertThat(drains.drained(cell, "another-rep")).as("only the holder of the cell's presence").isFalse();
        assertThat(drains.drained(cell, rep)).isTrue();
        cells.beat(rep, List.of(beat(cell, CellState.DRAINED, null)), TTL);
        assertThat(cells.find(cell).orElseThrow().state()).isEqualTo(CellState.DRAINED);
        assertThat(live.cells()).as("a drained cell is live: it heartbeats").extracting(Cell::cellId).contains(cell);
        assertThat(live.schedulable()).extracting(Cell::cellId).doesNotContain(cell);

        Cell undrained = drains.undrain(cell, "ops", RECEPTOR);

        assertThat(undrained.state()).isEqualTo(CellState.ACTIVE);
        assertThat(undrained.drain()).isNull();
        assertThat(live.schedulable()).as("its rep reads the order again when work arrives").extracting(Cell::cellId)
                .contains(cell);
        assertThat(drains.drained(cell, rep)).as("too late: the order is gone").isFalse();
    }

    @Test
    void aCellUndrainedWhileItsRepStillHandsOverTakesWorkOnceItsRepHeardOfIt() {
        String cell = "drain-" + UUID.randomUUID();
        String rep = "rep-" + UUID.randomUUID();
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null)), TTL);
        drains.drain(cell, null, "ops", RECEPTOR);
        cells.beat(rep, List.of(beat(cell, CellState.EVACUATING, null)), TTL);

        drains.undrain(cell, "ops", RECEPTOR);

        assertThat(cells.find(cell).orElseThrow().state()).isEqualTo(CellState.EVACUATING);
        assertThat(live.schedulable()).extracting(Cell::cellId).doesNotContain(cell);
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null)), TTL);
        assertThat(live.schedulable()).extracting(Cell::cellId).contains(cell);
    }

    @Test
    void eachDrainUndrainAndDrainedIsAuditedWithWhoDidItAndIsACellChangedEvent() {
        String cell = "drain-" + UUID.randomUUID();
        String rep = "rep-" + UUID.randomUUID();
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null)), TTL);

        drains.drain(cell, Duration.ofMinutes(2), "alice", RECEPTOR);
        drains.drained(cell, rep);
        drains.undrain(cell, "bob", RECEPTOR);
        drains.undrain(cell, "bob", RECEPTOR);

        List<Map<String, Object>> rows = jdbc.queryForList("SELECT entity, event_type, from_state, to_state, reason, "
                + "actor_service, actor_cell_id, payload FROM lrp_events WHERE process_guid = ? ORDER BY id", cell);
        assertThat(rows).extracting(r -> r.get("entity") + " " + r.get("event_type") + " " + r.get("from_state")
                + "->" + r.get("to_state") + " by " + r.get("actor_service") + "/" + r.get("actor_cell_id"))
                .containsExactly("cell cell_changed ACTIVE->EVACUATING by receptor/null",
                        "cell cell_changed EVACUATING->DRAINED by rep/" + cell,
                        "cell cell_changed DRAINED->ACTIVE by receptor/null");
        assertThat((String) rows.get(0).get("reason")).startsWith("drain requested by alice (deadline ");
        assertThat((String) rows.get(2).get("reason")).isEqualTo("undrained by bob");
        LifecycleEvent event = Json.MAPPER.readValue((byte[]) rows.get(0).get("payload"), LifecycleEvent.class);
        assertThat(event.type()).isEqualTo("cell_changed");
        assertThat(event.before().path("state").asString()).isEqualTo("ACTIVE");
        assertThat(event.before().path("drain").isNull()).isTrue();
        assertThat(event.after().path("cell_id").asString()).isEqualTo(cell);
        assertThat(event.after().path("state").asString()).isEqualTo("EVACUATING");
        assertThat(event.after().path("drain").path("requested_by").asString()).isEqualTo("alice");
        assertThat(event.after().path("drain").path("deadline_at").asString()).isNotEmpty();
    }

    @Test
    void anUnknownCellIsNotFoundAndACellWhoseRepIsGoneCannotBeDrainedButCanBeUndrained() {
        assertThatThrownBy(() -> drains.drain("no-such-" + UUID.randomUUID(), null, "ops", RECEPTOR))
                .isInstanceOf(CellNotFoundException.class);
        assertThatThrownBy(() -> drains.undrain("no-such-" + UUID.randomUUID(), "ops", RECEPTOR))
                .isInstanceOf(CellNotFoundException.class);
        String cell = "drain-" + UUID.randomUUID();
        String other = "drain-" + UUID.randomUUID();
        String rep = "rep-" + UUID.randomUUID();
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null), beat(other, CellState.ACTIVE, null)), TTL);
        drains.drain(other, null, "ops", RECEPTOR);

        clock.advance(TTL.plusSeconds(1));

        assertThatThrownBy(() -> drains.drain(cell, null, "ops", RECEPTOR)).isInstanceOf(CellGoneException.class)
                .hasMessageContaining("presence expired");
        assertThat(drains.undrain(other, "ops", RECEPTOR).drain()).isNull();
    }

    @Test
    void theOrderOutlivesTheRepsGoodbyeAndTheCollectionOfDeadCells() {
        String cell = "drain-" + UUID.randomUUID();
        String plain = "plain-" + UUID.randomUUID();
        String rep = "rep-" + UUID.randomUUID();
        cells.beat(rep, List.of(beat(cell, CellState.ACTIVE, null), beat(plain, CellState.ACTIVE, null)), TTL);
        DrainOrder order = drains.drain(cell, null, "ops", RECEPTOR).drain();

        cells.remove(cell, rep);
        cells.remove(plain, rep);

        assertThat(cells.find(plain)).as("a clean goodbye").isEmpty();
        assertThat(cells.find(cell)).as("kept for its order, gone from the live ones").hasValueSatisfying(c ->
                assertThat(c.isLive(clock.instant())).isFalse());
        clock.advance(Duration.ofHours(2));
        cells.deleteExpiredBefore(clock.instant().minus(Duration.ofMinutes(10)));
        assertThat(cells.find(cell)).isPresent();

        String next = "rep-" + UUID.randomUUID();
        assertThat(cells.beat(next, List.of(beat(cell, CellState.ACTIVE, null)), TTL).drainOrders())
                .as("the next rep of the cell hears of the order with its first beat").containsEntry(cell, order);
        drains.undrain(cell, "ops", RECEPTOR);
        cells.remove(cell, next);
        assertThat(cells.find(cell)).isEmpty();
    }

    private static CellPresence.Heartbeat beat(String cell, CellState state, Duration evacuationDeadline) {
        return new CellPresence.Heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 4096, 10),
                List.of("preloaded:host"), List.of(), List.of()), state, null, evacuationDeadline);
    }
}
