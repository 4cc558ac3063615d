package io.drover.model.task;

import java.util.UUID;

/** A cell starting a task an auction placed on it: valid only while that placement is the current one. */
public record TaskStart(String cellId, UUID placedEpoch) {
}
