package io.drover.model.autoscale;

import java.time.Instant;

/**
 * One tick's raw proposal for an LRP's size, before stabilisation: what the proportional rule said at {@code at}. The
 * autoscaler keeps the last few minutes of them (its stabilisation windows) in PostgreSQL.
 */
public record Recommendation(Instant at, int instances) {
}
