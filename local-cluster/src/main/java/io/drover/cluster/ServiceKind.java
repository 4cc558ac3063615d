package io.drover.cluster;

import io.drover.auctioneer.AuctioneerApplication;
import io.drover.converger.ConvergerApplication;
import io.drover.receptor.ReceptorApplication;
import io.drover.rep.RepApplication;
import io.drover.router.RouterApplication;
import java.util.Map;

/** The services and what the local cluster sets for each of them. */
enum ServiceKind {

    RECEPTOR(ReceptorApplication.class, "receptor-service"),
    AUCTIONEER(AuctioneerApplication.class, "auctioneer-service"),
    CONVERGER(ConvergerApplication.class, "converger-service"),
    REP(RepApplication.class, "rep-service"),
    ROUTER(RouterApplication.class, "router-service");

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
            "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.actuate.web.reactive."
                    + "ReactiveManagementWebSecurityAutoConfiguration");

    private static final String TOMCAT_REACTIVE_AUTO_CONFIGURATION = String.join(",",
            "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
            "org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
                    + "TomcatReactiveManagementContextAutoConfiguration");

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
        if (this == ROUTER) {
            // Spring Cloud Gateway's server runs on Reactor Netty (WebFlux), though Spring MVC is on this classpath.
            defaults.put("spring.main.web-application-type", "reactive");
            // The actuator on a loopback port of its own: the router's port belongs to the applications' paths.
            defaults.put("management.server.port", "0");
            defaults.put("management.server.address", "127.0.0.1");
        } else {
            // The router's proxy engine is on the shared classpath only because the router needs it.
            defaults.put("spring.cloud.gateway.server.webflux.enabled", "false");
        }
        if (this != RECEPTOR) {
            // The router runs on Reactor Netty: Tomcat is on this classpath only for the others.
            defaults.put("spring.autoconfigure.exclude", this == ROUTER ? SECURITY_AUTO_CONFIGURATION + ","
                    + TOMCAT_REACTIVE_AUTO_CONFIGURATION : SECURITY_AUTO_CONFIGURATION);
            // Likewise the OpenAPI document belongs to the receptor alone.
            defaults.put("springdoc.api-docs.enabled", "false");
            defaults.put("springdoc.swagger-ui.enabled", "false");
        }
        return defaults;
    }
}
