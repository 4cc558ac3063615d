package io.drover.receptor.events;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code drover.receptor.events.*}: frames buffered per client before a slow client is dropped, the most clients at
 * once, and how often an idle stream gets a heartbeat comment (keeps proxies from closing it).
 */
@ConfigurationProperties("drover.receptor.events")
record EventsProperties(Integer clientBuffer, Integer maxClients, Duration heartbeatInterval) {

    EventsProperties {
        clientBuffer = clientBuffer == null ? 1024 : clientBuffer;
        maxClients = maxClients == null ? 512 : maxClients;
        heartbeatInterval = heartbeatInterval == null ? Duration.ofSeconds(15) : heartbeatInterval;
    }
}
