package io.drover.router.feed;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Health {@code routeTable}: down until the table was built from the read model once. */
@Component("routeTable")
class TableHealth implements HealthIndicator {

    private final TableKeeper keeper;

    TableHealth(TableKeeper keeper) {
        this.keeper = keeper;
    }

    @Override
    public Health health() {
        if (!keeper.isBuilt()) {
            return Health.down().withDetail("table", "not built yet").build();
        }
        return Health.up().withDetail("routes", keeper.table().routes().size())
                .withDetail("instances", keeper.table().backendCount()).build();
    }
}
