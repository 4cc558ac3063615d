package io.drover.model.lrp;

/**
 * A cell reports a container up and healthy; {@code domain} is used when the record must be recreated, {@code runs} is
 * the definition the container runs (null when its cell cannot tell: a container adopted from a rep that did not keep
 * it).
 */
public record StartedInstance(ActualLrpKey key, String domain, InstanceOwner owner, NetInfo netInfo, DefinitionId runs) {

    public StartedInstance(ActualLrpKey key, String domain, InstanceOwner owner, NetInfo netInfo) {
        this(key, domain, owner, netInfo, null);
    }
}
