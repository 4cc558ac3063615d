package io.drover.model.config;

import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The ids the lifecycles give events, messages, epochs and instances: UUID version 7 (RFC 9562), 48 bits of Unix
 * milliseconds, then 74 random bits. They must be unique, not secret. {@link UUID#randomUUID()} draws each id from the
 * shared {@link SecureRandom} (a lock, and a SHA-1 over bytes of {@code /dev/urandom} per call): 13 % of the time the
 * receptor spent encoding lifecycle events in the benchmark's burst of desires, which makes eleven ids per desire.
 * Here each thread draws from a {@link SplittableRandom} of its own, seeded once from {@code SecureRandom}; and ids
 * made later sort later, which is what a reader of events or logs expects of them.
 */
public final class TimeOrderedIds implements Supplier<UUID> {

    private static final SecureRandom SEEDS = new SecureRandom();
    private static final ThreadLocal<SplittableRandom> RANDOM = ThreadLocal.withInitial(
            () -> new SplittableRandom(SEEDS.nextLong()));

    private static final long VERSION_7 = 0x7000L;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;

    @Override
    public UUID get() {
        SplittableRandom random = RANDOM.get();
        long millis = System.currentTimeMillis();
        long mostSignificant = (millis << 16) | VERSION_7 | (random.nextLong() & 0x0FFFL);
        long leastSignificant = (random.nextLong() >>> 2) | VARIANT_RFC;
        return new UUID(mostSignificant, leastSignificant);
    }

    /** The Unix milliseconds a version 7 id was made at. */
    static long millis(UUID id) {
        return id.getMostSignificantBits() >>> 16;
    }
}
