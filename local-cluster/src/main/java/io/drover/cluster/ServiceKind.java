package io.drover.cluster;

import io.drover.auctioneer.AuctioneerApplication;
import io.drover.converger.ConvergerApplication;
import io.drover.receptor.ReceptorApplication;
import io.drover.rep.RepApplication;
import java.util.Map;

/** The four services and what the local cluster sets for each of them. */
enum ServiceKind {

    RECEPTOR(ReceptorApplication.class, "receptor-service"),
    AUCTIONEER(AuctioneerApplication.class, "auctioneer-service"),
    CONVERGER(ConvergerApplication.class, "converger-service"),
    REP(RepApplication.class, "rep-service");

    private final Class<?> applicationClass;
    private final String applicationName;

    ServiceKind(Class<?> applicationClass, String applicationName) {
        this.applicationClass = applicationClass;
        this.applicationName = applicationName;
    }

    Class<?> applicationClass() {
        return applicationClass;
    }

    String applicationName() {
        return applicationName;
    }

    /**
     * Spring Security (and springdoc) is on the shared classpath only because the receptor needs it. The other services do not have it
     * in their own jars, so here too they must not get Boot's default security (which would also log a generated
     * password).
     */
    private static final String SECURITY_AUTO_CONFIGURATION = String.join(",",
            "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration");

    Map<String, String> defaults(LocalClusterSettings settings) {
        Map<String, String> defaults = new java.util.LinkedHashMap<>();
        // One JVM holds every service: keep each connection pool small.
        defaults.put("spring.datasource.hikari.maximum-pool-size", this == REP ? "4" : "8");
        defaults.put("spring.datasource.hikari.minimum-idle", "1");
        // The contexts share one Logback: its application-name label would name whichever context configured it last
        // on every line. The logger (io.drover.<service>...) and thread names say which service wrote a line.
        defaults.put("logging.include-application-name", "false");
        // An idle consumer's fetch waits this long at the broker for data (which still answers the moment a record
        // arrives): one request per consumer every 5 s instead of two a second keeps an idle cluster quiet.
        defaults.put("spring.kafka.consumer.fetch-max-wait", "5s");
        if (this != RECEPTOR) {
            defaults.put("spring.autoconfigure.exclude", SECURITY_AUTO_CONFIGURATION);
            // Likewise the OpenAPI document belongs to the receptor alone.
            defaults.put("springdoc.api-docs.enabled", "false");
            defaults.put("springdoc.swagger-ui.enabled", "false");
        }
        return defaults;
    }
}
