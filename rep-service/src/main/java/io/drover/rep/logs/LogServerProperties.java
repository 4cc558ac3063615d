package io.drover.rep.logs;

import java.time.Duration;
import org.springframework.util.unit.DataSize;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
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
 * @param keepFor how long the last lines of a container that is gone (a finished task, a crashed or replaced
 *     instance) stay servable ({@code io.drover.rep.executor.KeptLogs})
 * @param keptBytesPerCell the memory those lines take per cell at most; the oldest go first
 */
@ConfigurationProperties("drover.rep.logs")
public record LogServerProperties(@DefaultValue("true") boolean enabled, String address,
        @DefaultValue("1801") int port, @DefaultValue("64") int maxStreams,
        @DefaultValue("1h") Duration maxFollow, @DefaultValue("1h") Duration keepFor,
        @DefaultValue("16MB") DataSize keptBytesPerCell) {

    @ConstructorBinding
    public LogServerProperties {
    }

    /** The settings of a log server that keeps gone containers' lines an hour, 16 MB per cell. */
    public LogServerProperties(boolean enabled, String address, int port, int maxStreams, Duration maxFollow) {
        this(enabled, address, port, maxStreams, maxFollow, Duration.ofHours(1), DataSize.ofMegabytes(16));
    }
}
