package io.drover.converger.callback;

import io.drover.converger.TaskProperties;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the completion callbacks to the converger's leader election; their writes are fenced by its lock. */
@Configuration(proxyBeanMethods = false)
class CallbackConfiguration {

    @Bean
    CompletionCallbacks completionCallbacks(TaskReads reads, TaskLifecycle lifecycle, LeaderLock lock,
            LeaderElection convergerLeaderElection, TaskProperties properties, Clock clock, MeterRegistry meters) {
        TaskLifecycle fenced = lifecycle.guardedBy(new LeadershipFence(lock, convergerLeaderElection));
        return new CompletionCallbacks(reads, fenced, convergerLeaderElection::isLeader, properties, clock, meters);
    }
}
