package io.drover.model.lrp;

/** What an instance runs. Only the {@code run} kind exists today; the wrapper leaves room for others. */
public record Action(RunAction run) {
}
