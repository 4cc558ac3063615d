/** Work intake: the per-cell Kafka partitions a rep reads, and the pure checks a placement must pass before a claim. */
package io.drover.rep.intake;
