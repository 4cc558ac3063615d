package io.drover.router.proxy;

import io.drover.router.RouterProperties;
import io.drover.router.feed.TableKeeper;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway's one route: every request, whatever its host and path; {@link HostRoutingFilter} picks where it goes.
 * One route instead of one per hostname because the gateway tries its routes' predicates in turn on every request,
 * where the table is one map lookup.
 */
@Configuration(proxyBeanMethods = false)
class GatewayConfiguration {

    static final String ROUTE_ID = "drover-routes";

    @Bean
    RouteLocator droverRoutes(RouteLocatorBuilder routes) {
        // The URI is a placeholder: the routing filter sets each request's target.
        return routes.routes().route(ROUTE_ID, r -> r.alwaysTrue().uri("http://drover-router.invalid")).build();
    }

    @Bean
    Balancer balancer(RouterProperties properties) {
        return new Balancer(properties.balancing(), properties.ejectFor(), System::nanoTime);
    }

    @Bean
    RequestMetrics requestMetrics(MeterRegistry meters) {
        return new RequestMetrics(meters);
    }

    @Bean
    UpstreamErrors upstreamErrors() {
        return new UpstreamErrors();
    }

    @Bean
    HostRoutingFilter hostRoutingFilter(TableKeeper keeper, Balancer balancer, RequestMetrics metrics) {
        return new HostRoutingFilter(keeper, balancer, metrics);
    }

    @Bean
    MeasuringFilter measuringFilter(RequestMetrics metrics, Balancer balancer) {
        return new MeasuringFilter(metrics, balancer);
    }

    @Bean
    ForwardedHeaders forwardedHeaders(RouterProperties properties) {
        return new ForwardedHeaders(properties.trustedProxies());
    }
}
