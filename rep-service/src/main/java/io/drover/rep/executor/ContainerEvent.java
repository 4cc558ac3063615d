package io.drover.rep.executor;

/** A container changed state. */
public record ContainerEvent(Container container) {
}
