package io.drover.rep.logs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The rep's log server ({@code drover.rep.logs.*}); the secret it shares with the receptors is
 * {@code drover.logs.secret} (env {@code DROVER_LOGS_SECRET}), and without one the server does not start.
 *
 * @param enabled serve logs at all
 * @param address the address to bind; by default the cell's own ({@code drover.rep.address}), never all interfaces
 *     unless set to {@code 0.0.0.0}
 * @param port the port (0: any free one; the cell's presence record says which)
 * @param maxStreams requests served at once; more answer 429
 * @param maxFollow the longest one follow stream lasts (a client that went away is otherwise only noticed at the next
 *     line it is sent)
 */
@ConfigurationProperties("drover.rep.logs")
public record LogServerProperties(@DefaultValue("true") boolean enabled, String address,
        @DefaultValue("1801") int port, @DefaultValue("64") int maxStreams,
        @DefaultValue("1h") Duration maxFollow) {
}
