package io.drover.model.config;

import io.drover.model.messaging.RelayNotifications;
import io.drover.model.messaging.RelayedRows;
import io.drover.model.read.ActualLrpOwners;
import io.drover.model.read.AutoscaledLrps;
import io.drover.model.read.AutoscalerStatuses;
import io.drover.model.read.ActualLrpRows;
import io.drover.model.read.ActualLrpSummaries;
import io.drover.model.read.CellLoads;
import io.drover.model.read.ConsistentReads;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.DrainProgress;
import io.drover.model.read.LifecycleEventRows;
import io.drover.model.read.LiveCells;
import io.drover.model.read.PlaceableInstances;
import io.drover.model.read.PlannerStatistics;
import io.drover.model.read.PreviousInstances;
import io.drover.model.read.RouteRows;
import io.drover.model.read.Tallies;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/** Gives every service the read model's query objects and retention (the relay's garbage collection), so none of them writes SQL of its own. */
@AutoConfiguration(after = DroverModelAutoConfiguration.class)
public class ReadModelAutoConfiguration {

    @Bean
    ActualLrpRows actualLrpRows(JdbcTemplate jdbc) {
        return new ActualLrpRows(jdbc);
    }

    @Bean
    ActualLrpSummaries actualLrpSummaries(DataSource dataSource) {
        return new ActualLrpSummaries(dataSource);
    }

    @Bean
    ActualLrpOwners actualLrpOwners(JdbcTemplate jdbc) {
        return new ActualLrpOwners(jdbc);
    }

    @Bean
    PreviousInstances previousInstances(JdbcTemplate jdbc) {
        return new PreviousInstances(jdbc);
    }

    @Bean
    DesiredLrpRows desiredLrpRows(JdbcTemplate jdbc) {
        return new DesiredLrpRows(jdbc);
    }

    @Bean
    AutoscaledLrps autoscaledLrps(JdbcTemplate jdbc) {
        return new AutoscaledLrps(jdbc);
    }

    @Bean
    AutoscalerStatuses autoscalerStatuses(JdbcTemplate jdbc) {
        return new AutoscalerStatuses(jdbc);
    }

    @Bean
    LiveCells liveCells(JdbcTemplate jdbc, Clock clock) {
        return new LiveCells(jdbc, clock);
    }

    @Bean
    PlannerStatistics plannerStatistics(JdbcTemplate jdbc) {
        return new PlannerStatistics(jdbc, PlannerStatistics.BURST_TABLES);
    }

    @Bean
    CellLoads cellLoads(JdbcTemplate jdbc) {
        return new CellLoads(jdbc);
    }

    @Bean
    DrainProgress drainProgress(JdbcTemplate jdbc) {
        return new DrainProgress(jdbc);
    }

    @Bean
    PlaceableInstances placeableInstances(JdbcTemplate jdbc) {
        return new PlaceableInstances(jdbc);
    }

    @Bean
    LifecycleEventRows lifecycleEventRows(JdbcTemplate jdbc) {
        return new LifecycleEventRows(jdbc);
    }

    /** What wakes a reader that follows {@code lrp_events}: the relay's notification, for the event stream. */
    @Bean
    RelayNotifications relayNotifications(DataSource dataSource) {
        return new RelayNotifications(dataSource);
    }

    @Bean
    RouteRows routeRows(JdbcTemplate jdbc) {
        return new RouteRows(jdbc);
    }

    @Bean
    Tallies tallies(JdbcTemplate jdbc) {
        return new Tallies(jdbc);
    }

    @Bean
    ConsistentReads consistentReads(JdbcTemplate jdbc) {
        return new ConsistentReads(DroverModelAutoConfiguration.plainTransactions(jdbc));
    }

    /** Retention has one owner, the relay's garbage collection: it deletes only rows the relay cursor has passed. */
    @Bean
    RelayedRows relayedRows(JdbcTemplate jdbc) {
        return new RelayedRows(jdbc);
    }
}
