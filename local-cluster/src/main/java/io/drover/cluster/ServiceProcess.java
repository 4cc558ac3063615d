package io.drover.cluster;

import java.util.Arrays;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * The main class of one service of a {@link ProcessCluster}, run in a JVM of its own: the service named by
 * {@code --spring.application.name}, with every property on the command line exactly as the in-JVM cluster gives it.
 * SIGTERM closes it as it would close a production service (a rep stops its workloads first).
 */
public final class ServiceProcess {

    private ServiceProcess() {
    }

    public static void main(String[] args) {
        String name = Arrays.stream(args).filter(a -> a.startsWith("--spring.application.name="))
                .map(a -> a.substring(a.indexOf('=') + 1)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--spring.application.name=<service> is required"));
        ServiceKind kind = Arrays.stream(ServiceKind.values()).filter(k -> k.applicationName().equals(name))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no service " + name));
        new SpringApplicationBuilder(kind.applicationClass()).logStartupInfo(false).run(args);
    }
}
