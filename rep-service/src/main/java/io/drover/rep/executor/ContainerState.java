package io.drover.rep.executor;

/** STARTING until healthy, then RUNNING; CRASHED when it exited or failed; STOPPED when stopped on request. */
public enum ContainerState {
    STARTING, RUNNING, CRASHED, STOPPED
}
