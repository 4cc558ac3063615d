package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LocalDatabaseTest {

    @ParameterizedTest(name = "{0} MB of memory -> shared_buffers {1} MB")
    @CsvSource({
            "0,      256", // unknown: the floor
            "1024,   256",
            "2048,   256",
            "4096,   512",
            "8192,   1024",
            "16384,  2048",
            "24105,  2048",
            "262144, 2048"})
    void sharedBuffersAreAnEighthOfTheMemoryWithinBounds(long memoryMb, long sharedBuffersMb) {
        assertThat(LocalDatabase.sharedBuffersMb(memoryMb * 1024 * 1024)).isEqualTo(sharedBuffersMb);
    }
}
