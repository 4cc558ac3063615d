package io.drover.receptor.task;

import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.Actor;
import io.drover.model.task.IllegalTaskTransitionException;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskNotFoundException;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskState;
import io.drover.model.task.TaskSubmission;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.drover.receptor.web.GroupCommit;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * What the task endpoints do: writes through {@link TaskLifecycle} (submissions through this receptor's group commit,
 * {@link GroupCommit}; a new task admitted by {@link DomainAdmission}),
 * reads through {@link TaskReads}, and the API's names for the lifecycle's refusals (TaskNotFound, TaskNotDeletable,
 * TaskNotCancelable).
 */
@Service
@EnableConfigurationProperties(TaskApiProperties.class)
class Tasks {

    static final Actor RECEPTOR = Actor.service("receptor");
    private static final Logger log = LoggerFactory.getLogger(Tasks.class);

    private final TaskLifecycle lifecycle;
    private final TaskReads reads;
    private final CallbackUrls callbacks;
    private final GroupCommit<TaskDefinition, TaskSubmission> submissions;

    Tasks(TaskLifecycle lifecycle, TaskReads reads, TaskApiProperties properties, Clock clock, CellPresence cells,
            Environment environment) {
        this.lifecycle = lifecycle;
        this.reads = reads;
        DomainAdmission admission = new DomainAdmission(reads::unfinished, clock, properties);
        this.submissions = new GroupCommit<>("task-submissions", batch -> lifecycle.submitAll(batch, RECEPTOR,
                admission).stream().map(s -> new GroupCommit.Answer<>(s.submission(), s.refusal())).toList());
        this.callbacks = new CallbackUrls(new CallbackTargets(properties.callbackAllowedHosts()),
                new ClusterEndpoints(environment, cells, clock, properties.clusterEndpointsRefresh()));
    }

    TaskSubmission submit(TaskDefinition definition) {
        callbacks.check(definition.completionCallbackUrl());
        TaskSubmission submission = submissions.submit(definition);
        log.info("submit-task task_guid={} domain={} created={} deleted={}", definition.taskGuid(),
                definition.domain(), submission.created(), submission.wasDeleted());
        return submission;
    }

    @PreDestroy
    void stop() {
        submissions.close();
    }

    /** The listing of the tasks matching every filter given; an unknown state is a 400. */
    TaskList listing(String domain, String cellId, String state) {
        return new TaskList(reads, new TaskReads.TaskFilter(domain, cellId, state == null ? null : state(state)));
    }

    TaskSnapshot get(String guid) {
        requireValidGuid(guid);
        return reads.find(guid).orElseThrow(() -> new TaskNotFoundException(guid));
    }

    TaskSnapshot cancel(String guid) {
        requireValidGuid(guid);
        try {
            lifecycle.cancel(guid, RECEPTOR);
        } catch (IllegalTaskTransitionException e) {
            throw new ApiException(HttpStatus.CONFLICT, ApiError.TASK_NOT_CANCELABLE, e.getMessage());
        }
        log.info("cancel-task task_guid={}", guid);
        return get(guid);
    }

    void delete(String guid) {
        requireValidGuid(guid);
        try {
            lifecycle.delete(guid, RECEPTOR);
        } catch (IllegalTaskTransitionException e) {
            throw new ApiException(HttpStatus.CONFLICT, ApiError.TASK_NOT_DELETABLE, e.getMessage());
        }
        log.info("resolve-task task_guid={}", guid);
    }

    /** A guid that could never have been submitted cannot be found (and never reaches the database). */
    static void requireValidGuid(String guid) {
        if (!TaskRequests.TASK_GUID.matcher(guid).matches()) {
            throw new TaskNotFoundException(guid);
        }
    }

    private static TaskState state(String state) {
        return Arrays.stream(TaskState.values()).filter(s -> s.name().equals(state)).findFirst()
                .orElseThrow(() -> ApiException.badRequest(ApiError.INVALID_REQUEST, "unknown state " + state
                        + "; one of " + Arrays.toString(TaskState.values())));
    }

}
