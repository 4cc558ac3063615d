package io.drover.converger.pass;

import io.drover.converger.ConvergerProperties;
import io.drover.converger.TaskProperties;
import io.drover.converger.plan.Convergence;
import io.drover.converger.plan.TaskConvergence;
import io.drover.model.domain.Domains;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderPasses;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.messaging.PipelineProgress;
import io.drover.model.read.ActualLrpSummaries;
import io.drover.model.read.ConsistentReads;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.LiveCells;
import io.drover.model.read.PlannerStatistics;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;

/** Wires the pass (snapshot, plan, executor, metrics), the loop and the leader election that gates it. */
@Configuration(proxyBeanMethods = false)
class PassConfiguration {

    /** The lock name: one active converger per database. */
    static final String LOCK = "converger";

    @Bean
    GraceOnElection graceOnElection(LeaderPasses passes, Clock clock, ConvergerProperties properties) {
        return new GraceOnElection(passes, clock, properties.cellGraceOnElection());
    }

    /**
     * Its tries to take or renew the lock (leader and standbys, every third of the TTL) also tell the grace when the
     * database could not be reached, so one elected when the database comes back freezes rather than judges.
     */
    @Bean
    LeaderElection convergerLeaderElection(LeaderLock lock, ConvergerProperties properties,
            ObjectProvider<ConvergenceLoop> loop, GraceOnElection grace) {
        return new LeaderElection(lock, LOCK, properties.leaderTtl(), () -> {
            grace.elected();
            loop.getObject().elected();
        }, () -> {
        }, grace::failed);
    }

    /** Writes through the lifecycle, each fenced by the leader lock (see {@link LeadershipFence}). */
    @Bean
    PlanExecutor planExecutor(ActualLrpLifecycle lifecycle, LeaderLock lock, LeaderElection convergerLeaderElection,
            ConvergerProperties properties) {
        return new PlanExecutor(lifecycle.guardedBy(new LeadershipFence(lock, convergerLeaderElection)),
                properties.batchSize());
    }

    /** The task rules; their writes are fenced by the leader lock like every other write of a pass. */
    @Bean
    TaskRepairs taskRepairs(TaskLifecycle lifecycle, LeaderLock lock,
            LeaderElection convergerLeaderElection, ConvergerProperties properties, TaskProperties tasks,
            MeterRegistry registry) {
        TaskConvergence convergence = new TaskConvergence(new TaskConvergence.Settings(tasks.staleAfter(),
                tasks.placementRetries(), tasks.maxRetriesPerPass(), tasks.pendingTimeout(), tasks.resolvingTimeout(),
                tasks.completedTtl()));
        return new TaskRepairs(convergence, lifecycle.guardedBy(new LeadershipFence(lock,
                convergerLeaderElection)), registry, properties.batchSize());
    }

    @Bean
    SnapshotReader snapshotReader(ConsistentReads reads, DesiredLrpRows desired, ActualLrpSummaries actuals,
            LiveCells cells, PipelineProgress progress, TaskReads tasks, Domains domains, GraceOnElection grace,
            Clock clock) {
        return new SnapshotReader(new SnapshotReader.ReadModel(reads, desired, actuals, cells, progress, tasks),
                domains, grace::at, clock);
    }

    @Bean
    ConvergencePass convergencePass(SnapshotReader snapshots, ActualLrpLifecycle lifecycle,
            ConvergerProperties properties, MeterRegistry registry, PlanExecutor planExecutor,
            ObjectProvider<PassHook> hook, TaskRepairs taskRepairs, LeaderPasses passes,
            LeaderElection convergerLeaderElection, GraceOnElection grace) {
        Convergence convergence = new Convergence(lifecycle.policy(), properties.staleUnclaimedAfter(),
                properties.maxUnclaimedWait(), properties.stageLagTolerance(), properties.maxLostCellUnclaims(),
                properties.maxStaleUnclaims());
        return new ConvergencePass(snapshots, convergence, planExecutor, new ConvergenceMetrics(registry),
                hook.getIfAvailable(() -> PassHook.NONE), taskRepairs,
                new PassLedger(passes, convergerLeaderElection::holder), grace);
    }

    @Bean
    ConvergenceLoop convergenceLoop(ConvergencePass pass, LiveCells cells, PlannerStatistics statistics, Clock clock,
            LeaderElection convergerLeaderElection, ConvergerProperties p, GraceOnElection grace) {
        return new ConvergenceLoop(pass, new CellLossWatcher(cells, clock), statistics::keepUp,
                convergerLeaderElection::isLeader,
                new ConvergenceLoop.Timings(p.interval(), p.cellWatchInterval(), p.debounce(), p.desiredChangeDelay()),
                grace::failed);
    }

    @Bean
    ConvergenceRequestListener convergenceRequestListener(ConsumerFactory<?, ?> consumers, ConvergenceLoop loop) {
        return new ConvergenceRequestListener(consumers, loop::desiredLrpChanged);
    }
}
