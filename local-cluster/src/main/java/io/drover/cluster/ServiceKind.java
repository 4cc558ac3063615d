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

    Map<String, String> defaults(LocalClusterSettings settings) {
        // One JVM holds every service: keep each connection pool small.
        return Map.of("spring.datasource.hikari.maximum-pool-size", this == REP ? "4" : "8",
                "spring.datasource.hikari.minimum-idle", "1");
    }
}
