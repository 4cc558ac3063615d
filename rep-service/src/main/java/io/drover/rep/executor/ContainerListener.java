package io.drover.rep.executor;

/** Receives container events; called from executor threads, so it must not block for long. */
@FunctionalInterface
public interface ContainerListener {

    void onEvent(ContainerEvent event);
}
