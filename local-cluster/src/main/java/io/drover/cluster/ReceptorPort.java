package io.drover.cluster;

import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The receptor's port (and the router's, the same way): the one asked for (8080 by default, a URL the README can show) when it is free, any free port
 * otherwise. Only binding the port proves it free, and two clusters may start at the same moment: when the bind fails
 * the receptor starts again on a port the OS picks (0), which cannot be taken away.
 */
final class ReceptorPort {

    private static final Logger log = LoggerFactory.getLogger(ReceptorPort.class);

    private ReceptorPort() {
    }

    static ConfigurableApplicationContext launch(int preferred,
            Function<Map<String, String>, ConfigurableApplicationContext> receptor) {
        int port = preferred > 0 && FreePorts.isFree(preferred) ? preferred : 0;
        try {
            return receptor.apply(properties(port));
        } catch (RuntimeException e) {
            if (port == 0 || !portInUse(e)) {
                throw e;
            }
            log.info("local-cluster-port-taken port={} (starting on a free port instead)", port);
            return receptor.apply(properties(0));
        }
    }

    /** The port the receptor's web server listens on. */
    static int of(ConfigurableApplicationContext receptor) {
        return ((WebServerApplicationContext) receptor).getWebServer().getPort();
    }

    private static Map<String, String> properties(int port) {
        return Map.of("server.port", String.valueOf(port), "server.address", "127.0.0.1");
    }

    private static boolean portInUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PortInUseException || t instanceof java.net.BindException) {
                return true;
            }
        }
        return false;
    }
}
