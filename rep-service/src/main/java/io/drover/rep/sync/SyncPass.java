package io.drover.rep.sync;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.rep.cell.RepMetrics;
import io.drover.rep.evacuation.Drain;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.Executor;
import io.drover.rep.records.CellRecords;
import io.drover.rep.records.RecordView;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One sync pass of one cell (SPEC 8.4): read its containers, the records it owns or that its containers point at, and
 * the evacuating twins it holds; plan; carry the plan out.
 */
public final class SyncPass {

    private final String cellId;
    private final Executor executor;
    private final CellRecords records;
    private final Reconciler reconciler;
    private final RepMetrics metrics;
    private final int batchSize;

    public SyncPass(String cellId, Executor executor, CellRecords records, Reconciler reconciler, RepMetrics metrics,
            int batchSize) {
        this.cellId = cellId;
        this.executor = executor;
        this.records = records;
        this.reconciler = reconciler;
        this.metrics = metrics;
        this.batchSize = batchSize;
    }

    public void run(Drain.Mode mode) {
        long started = System.nanoTime();
        List<Container> containers = executor.containers();
        Map<ActualLrpKey, RecordView> owned = new HashMap<>();
        records.ownedBy(cellId).forEach(r -> owned.put(r.key(), r));
        List<ActualLrpKey> others = containers.stream().map(Container::key).filter(k -> !owned.containsKey(k))
                .distinct().toList();
        owned.putAll(records.byKeys(others));
        Map<ActualLrpKey, RecordView> twins = new HashMap<>();
        records.evacuatingOn(cellId).forEach(t -> twins.put(t.key(), t));
        reconciler.apply(SyncPlan.plan(cellId, containers, owned, twins, reconciler.busy(), mode), batchSize);
        metrics.sync(Duration.ofNanos(System.nanoTime() - started));
    }
}
