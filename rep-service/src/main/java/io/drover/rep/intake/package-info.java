/**
 * Work intake (SPEC 8.3 step 1): the per-cell Kafka partitions a rep reads, the pure checks a placement must pass, and
 * the placements turned into claimed, running containers.
 */
package io.drover.rep.intake;
