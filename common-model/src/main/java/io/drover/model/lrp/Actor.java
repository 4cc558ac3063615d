package io.drover.model.lrp;

/** Who made a change, for the audit trail: the service and, for a rep, its cell. */
public record Actor(String service, String cellId) {

    public static Actor service(String service) {
        return new Actor(service, null);
    }

    public static Actor cell(String cellId) {
        return new Actor("rep", cellId);
    }

    /** The same service, acting for the cell that owns an incarnation (one rep process may host many cells). */
    public Actor on(InstanceOwner owner) {
        return owner.isEmpty() ? this : new Actor(service, owner.cellId());
    }
}
