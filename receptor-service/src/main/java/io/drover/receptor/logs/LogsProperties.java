package io.drover.receptor.logs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code drover.receptor.logs.*}: how long to wait for a cell's log server to connect and to answer, the longest one
 * follow stream lasts, and how many log streams one receptor relays at once. The secret shared with the reps is
 * {@code drover.logs.secret} (env {@code DROVER_LOGS_SECRET}).
 */
@ConfigurationProperties("drover.receptor.logs")
record LogsProperties(Duration connectTimeout, Duration responseTimeout, Duration followTimeout, Integer maxStreams) {

    LogsProperties {
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(3) : connectTimeout;
        responseTimeout = responseTimeout == null ? Duration.ofSeconds(10) : responseTimeout;
        followTimeout = followTimeout == null ? Duration.ofHours(1) : followTimeout;
        maxStreams = maxStreams == null ? 256 : maxStreams;
    }
}
