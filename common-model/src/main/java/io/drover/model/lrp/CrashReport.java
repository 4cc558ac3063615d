package io.drover.model.lrp;

/** A cell reports that the container of an incarnation it owns exited, and why. */
public record CrashReport(InstanceOwner owner, String reason) {
}
