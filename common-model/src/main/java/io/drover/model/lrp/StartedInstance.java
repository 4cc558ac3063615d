package io.drover.model.lrp;

/** A cell reports a container up and healthy; {@code domain} is used when the record must be recreated. */
public record StartedInstance(ActualLrpKey key, String domain, InstanceOwner owner, NetInfo netInfo) {
}
