package io.drover.router.feed;

import io.drover.model.messaging.TopicReader;
import io.drover.model.messaging.Topics;
import io.drover.model.read.ConsistentReads;
import io.drover.model.read.ListFingerprint;
import io.drover.model.read.RouteRows;
import io.drover.model.read.TransactionSnapshot;
import io.drover.router.RouterProperties;
import io.drover.router.table.RouteTable;
import io.drover.router.table.RoutingState;
import io.drover.router.table.Seen;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;

/**
 * Keeps the route table: built from the read model at start, kept current from the lifecycle events and the stop
 * requests on Kafka (every partition, no group, from the end), and compared by fingerprint with the read model every
 * {@code check-interval}: a table that still differs after {@code recheck-delay} is rebuilt, so an event lost on the
 * way only delays a change. One lock orders the feed, the loads and the rebuilds; requests read the published
 * {@link RouteTable} without it.
 */
@Component
public class TableKeeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TableKeeper.class);
    /** Stop requests are remembered this long (their instances are gone long before). */
    private static final Duration STOPS_KEPT = Duration.ofMinutes(30);

    private final RouteRows rows;
    private final ConsistentReads reads;
    private final RouterProperties properties;
    private final Clock clock;
    private final TableMetrics metrics;
    private final TopicReader reader;
    private final RoutingState state = new RoutingState();
    private volatile RouteTable table = RouteTable.EMPTY;
    private volatile boolean built;
    private volatile boolean running;
    private ScheduledExecutorService checks;
    private boolean mismatchSeen;

    TableKeeper(RouteRows rows, ConsistentReads reads, ConsumerFactory<?, ?> consumers, RouterProperties properties,
            Clock clock, TableMetrics metrics) {
        this.rows = rows;
        this.reads = reads;
        this.properties = properties;
        this.clock = clock;
        this.metrics = metrics;
        this.reader = new TopicReader(consumers, new TopicReader.Settings("router-feed", null,
                TopicReader.StartAt.LATEST, null, 2_000, Duration.ofMillis(250), 0),
                c -> Stream.concat(TopicReader.allOf(Topics.LIFECYCLE_EVENTS).apply(c).stream(),
                        TopicReader.allOf(Topics.STOP_REQUESTS).apply(c).stream()).toList(),
                this::handle, TopicReader.AfterPoll.NOTHING);
    }

    /** The table requests are routed by. */
    public RouteTable table() {
        return table;
    }

    /** Whether the table was built from the read model at least once. */
    public boolean isBuilt() {
        return built;
    }

    @Override
    public void start() {
        running = true;
        reader.start();
        // Positioned first, then read: every change committed after the read is on its way to the reader.
        long deadline = System.nanoTime() + properties.startWait().toNanos();
        while (!reader.positioned() && System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(20));
        }
        if (!reader.positioned()) {
            log.warn("router-feed-not-positioned wait_ms={} (the table is built now and checked by fingerprint)",
                    properties.startWait().toMillis());
        }
        checks = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "router-table-check"));
        rebuild("start");
        long every = properties.checkInterval().toMillis();
        checks.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    /** Rebuilds the table from the read model now (start, and a fingerprint that differs twice). */
    void rebuild(String reason) {
        try {
            synchronized (this) {
                // read under the lock: an event the feed applied between the read and the reset, and the read did
                // not see, would be wiped by the reset and never come again
                Snapshot read = reads.inOneSnapshot(() -> new Snapshot(rows.routedLrps(), rows.instances(),
                        rows.fingerprint(), rows.snapshot()));
                state.reset(read.lrps().stream().map(Changes::lrp).toList(),
                        read.instances().stream().map(Changes::row).toList(),
                        read.instances().stream().filter(RouteRows.RouteInstance::stopRequested)
                                .map(RouteRows.RouteInstance::instanceGuid).toList(), read.snapshot(), clock.millis());
                RoutingState.Fingerprint held = state.fingerprint();
                if (!RouteRows.matches(read.fingerprint(), held.rows(), held.sum())) {
                    log.error("router-table-fingerprint-differs-after-rebuild rows={} read_rows={}", held.rows(),
                            read.fingerprint().rows());
                }
                publish();
                mismatchSeen = false;
            }
            built = true;
            metrics.rebuilt(reason);
            log.info("router-table-built reason={} routes={} instances={}", reason, table.routes().size(),
                    table.backendCount());
        } catch (RuntimeException e) {
            log.warn("router-table-build-failed reason={} error={}", reason, e.toString());
        }
    }

    private void check() {
        try {
            if (!built) {
                rebuild("start");
                return;
            }
            ListFingerprint current = rows.fingerprint();
            boolean matches;
            synchronized (this) {
                RoutingState.Fingerprint held = state.fingerprint();
                matches = RouteRows.matches(current, held.rows(), held.sum());
                state.forgetStopsBefore(clock.millis() - STOPS_KEPT.toMillis());
            }
            if (matches) {
                mismatchSeen = false;
            } else if (!mismatchSeen) {
                mismatchSeen = true; // changes may be on their way: look again shortly
                checks.schedule(this::check, properties.recheckDelay().toMillis(), TimeUnit.MILLISECONDS);
            } else {
                log.info("router-table-differs (an event was missed or is late): rebuilding");
                rebuild("fingerprint");
            }
        } catch (RuntimeException e) {
            log.warn("router-table-check-failed error={}", e.toString());
        }
    }

    /**
     * Applies each record in order under the lock, so that whether an instance's LRP is routed is judged after every
     * earlier record (an event of an LRP that the same batch makes routed is skipped, and its rows read after it).
     */
    private void handle(List<ConsumerRecord<String, byte[]>> records) {
        int applied = 0;
        long oldest = Long.MAX_VALUE;
        synchronized (this) {
            long now = clock.millis();
            for (ConsumerRecord<String, byte[]> record : records) {
                try {
                    Seen change = Changes.of(record, state::routes);
                    if (change != null) {
                        state.apply(change, Changes.txId(record), now);
                        applied++;
                        oldest = Math.min(oldest, record.timestamp());
                    }
                } catch (RuntimeException e) {
                    log.warn("router-feed-record-skipped topic={} partition={} offset={} error={}", record.topic(),
                            record.partition(), record.offset(), e.toString());
                }
            }
            if (applied == 0) {
                return;
            }
            Set<String> toLoad = state.takeToLoad();
            if (!toLoad.isEmpty()) {
                load(toLoad, now);
            }
            publish();
        }
        metrics.applied(applied, Math.max(0, clock.millis() - oldest));
    }

    /** Reads the rows of LRPs that became routed, in one snapshot, and hands them to the state. */
    private void load(Set<String> processGuids, long now) {
        Loaded loaded = reads.inOneSnapshot(() -> new Loaded(processGuids.stream()
                .collect(Collectors.toMap(g -> g, rows::instancesOf)), rows.snapshot()));
        loaded.rows().forEach((processGuid, read) -> state.loaded(processGuid, read.stream().map(Changes::row)
                .toList(), read.stream().filter(RouteRows.RouteInstance::stopRequested)
                .map(RouteRows.RouteInstance::instanceGuid).toList(), loaded.snapshot(), now));
    }

    private void publish() {
        table = state.table();
        metrics.table(table);
    }

    private record Snapshot(List<RouteRows.RoutedLrp> lrps, List<RouteRows.RouteInstance> instances,
            ListFingerprint fingerprint, TransactionSnapshot snapshot) {
    }

    private record Loaded(Map<String, List<RouteRows.RouteInstance>> rows, TransactionSnapshot snapshot) {
    }

    @Override
    public void stop() {
        running = false;
        if (checks != null) {
            checks.shutdownNow();
        }
        reader.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the web server starts (its phase is lower than the default), so the first request finds a table. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 2048;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
