package io.drover.model.lrp;

import java.util.UUID;

/** What clients see of a row's optimistic lock: the epoch of the row's creation and its version. */
public record ModificationTag(UUID epoch, long index) {
}
