package io.drover.router;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The router's settings ({@code drover.router.*}).
 *
 * @param balancing how a route spreads requests over its instances
 * @param checkInterval how often the table's fingerprint is compared with the read model's (a lost event is found
 *     within about this long, plus {@code recheckDelay})
 * @param recheckDelay a mismatch is looked at again after this long before the table is rebuilt (events in flight)
 * @param startWait how long the start waits for Kafka before it builds the table from the read model anyway
 * @param trustedProxies the peers (a regular expression over their address) whose {@code X-Forwarded-*} headers are
 *     kept and added to; anyone else's are replaced
 * @param ejectFor an instance that refused a connection gets no request for this long while its route has others
 * @param ioThreads the event loops that serve requests (the server's and the client's side alike); 0: one per core
 */
@ConfigurationProperties("drover.router")
public record RouterProperties(@DefaultValue("ROUND_ROBIN") Balancing balancing,
        @DefaultValue("5s") Duration checkInterval, @DefaultValue("1s") Duration recheckDelay,
        @DefaultValue("10s") Duration startWait,
        @DefaultValue("127\\.0\\.0\\.1|0:0:0:0:0:0:0:1|::1") String trustedProxies,
        @DefaultValue("5s") Duration ejectFor, @DefaultValue("0") int ioThreads) {

    /** How a route spreads requests over its instances. */
    public enum Balancing {
        /** Each instance in turn. */
        ROUND_ROBIN,
        /** The instance with the fewest requests in flight from this router (ties in turn). */
        LEAST_IN_FLIGHT
    }
}
