package io.drover.rep;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.RunAction;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Task fixtures through the task lifecycle, playing the receptor and the auctioneer. */
record Tasks(TaskLifecycle lifecycle, TaskReads reads) {

    static final Actor TEST = Actor.service("test");

    /** Submits a task running {@code action}; returns its guid. */
    String submit(String prefix, Action action, String resultFile) {
        String guid = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        lifecycle.submit(new TaskDefinition(guid, "d1", "preloaded:host", action, List.of(), 64, 16, 0, 0, List.of(),
                resultFile, null, null, null, null), TEST);
        return guid;
    }

    /** What the auctioneer does: places the task on the cell, which sends the cell an auction result. */
    void place(String guid, String cellId) {
        lifecycle.place(UUID.randomUUID(), Map.of(guid, cellId), Actor.service("auctioneer"));
    }

    TaskSnapshot find(String guid) {
        return reads.find(guid).orElse(null);
    }

    static Action run(String path, String... args) {
        return new Action(new RunAction(path, List.of(args), null, List.of(), null));
    }

    /** A simulated task that runs {@code steps} steps one after the other. */
    static Action steps(int steps) {
        return Action.inSerial(Collections.nCopies(steps, run("work")));
    }
}
