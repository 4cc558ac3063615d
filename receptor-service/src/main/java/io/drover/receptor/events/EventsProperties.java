package io.drover.receptor.events;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code drover.receptor.events.*}: frames buffered per client before it catches up from PostgreSQL instead, the most
 * clients at once, how often an idle stream gets a heartbeat comment (keeps proxies from closing it), how long a
 * stream can be resumed ({@code Last-Event-ID} older than that: 410), and how many events one read takes.
 */
@ConfigurationProperties("drover.receptor.events")
record EventsProperties(Integer clientBuffer, Integer maxClients, Duration heartbeatInterval, Duration retention,
        Integer batchSize) {

    EventsProperties {
        clientBuffer = clientBuffer == null ? 1024 : clientBuffer;
        maxClients = maxClients == null ? 512 : maxClients;
        heartbeatInterval = heartbeatInterval == null ? Duration.ofSeconds(15) : heartbeatInterval;
        retention = retention == null ? Duration.ofHours(24) : retention;
        batchSize = batchSize == null ? 500 : batchSize;
    }
}
