package io.drover.router.proxy;

import io.drover.router.RouterProperties;
import io.drover.router.feed.TableKeeper;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.config.HttpClientCustomizer;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.LoopResources;

/**
 * The gateway's one route: every request, whatever its host and path; {@link HostRoutingFilter} picks where it goes.
 * One route instead of one per hostname because the gateway tries its routes' predicates in turn on every request,
 * where the table is one map lookup; and since there is one, it is not looked up at all ({@link OneRoute}).
 *
 * <p>The router's event loops are its own ({@code drover.router.io-threads}, one per core), for its server and the
 * gateway's client alike, and each request stays on its loop ({@link RoutingFilter}).
 */
@Configuration(proxyBeanMethods = false)
class GatewayConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GatewayConfiguration.class);

    static final String ROUTE_ID = "drover-routes";
    /** The URI is a placeholder: the routing filter sets each request's target. */
    private static final Route ROUTE = Route.async().id(ROUTE_ID).uri(URI.create("http://drover-router.invalid"))
            .asyncPredicate(exchange -> Mono.just(true)).build();

    @Bean
    RouteLocator droverRoutes() {
        return () -> Flux.just(ROUTE);
    }

    @Bean
    OneRoute routePredicateHandlerMapping(FilteringWebHandler handler, RouteLocator routes,
            GlobalCorsProperties cors, Environment environment) {
        return new OneRoute(handler, routes, cors, environment);
    }

    /**
     * The server's and the gateway client's event loops: the router's own rather than Reactor Netty's shared ones
     * (as many as the cores, but at least four), so that there are as many as it has cores to run them.
     */
    @Bean
    ReactorResourceFactory reactorResourceFactory(RouterProperties properties) {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        int threads = properties.ioThreads() > 0 ? properties.ioThreads() : Runtime.getRuntime().availableProcessors();
        factory.setUseGlobalResources(false);
        factory.setLoopResourcesSupplier(() -> LoopResources.create("reactor-http", threads, true));
        factory.setShutdownQuietPeriod(Duration.ofMillis(100));
        return factory;
    }

    @Bean
    HttpClientCustomizer onTheRoutersLoops(ReactorResourceFactory resources) {
        return client -> client.runOn(resources.getLoopResources());
    }

    /** In place of the gateway's routing filter ({@code global-filter.netty-routing.enabled: false}). */
    @Bean
    RoutingFilter droverRoutingFilter(HttpClient client, ObjectProvider<List<HttpHeadersFilter>> gatewayHeaders,
            HttpClientProperties properties, ProxyHeaders headers) {
        return new RoutingFilter(client, gatewayHeaders, properties, headers);
    }

    /** The gateway's own, which goes with its routing filter (and is switched off with it). */
    @Bean
    NettyWriteResponseFilter droverWriteResponseFilter(GatewayProperties properties,
            ObjectProvider<List<HttpHeadersFilter>> gatewayHeaders) {
        return new NettyWriteResponseFilter(properties.getStreamingMediaTypes(), gatewayHeaders);
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

    /** Also among the gateway's header filters, for its WebSocket filter. */
    @Bean
    ProxyHeaders proxyHeaders(RouterProperties properties) {
        return new ProxyHeaders(properties.trustedProxies());
    }

    /**
     * What runs on every request, once at start ({@code router-filters}): the gateway's filter chain in its order and
     * the web filters before it.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> filtersAtStart(ObjectProvider<GlobalFilter> global,
            ObjectProvider<WebFilter> web) {
        return ready -> log.info("router-filters global={} web={}", names(global), names(web));
    }

    private static String names(ObjectProvider<?> beans) {
        return String.join(",", beans.orderedStream().map(b -> b.getClass().getSimpleName()).toList());
    }

    /**
     * The gateway's handler mapping without the look-up: its {@code lookupRoute} tries every route's predicate on every
     * request, through a chain of Reactor operators; the router has one route, which takes every request.
     */
    static final class OneRoute extends RoutePredicateHandlerMapping {

        private final Mono<Route> route = Mono.just(ROUTE);

        OneRoute(FilteringWebHandler handler, RouteLocator routes, GlobalCorsProperties cors,
                Environment environment) {
            super(handler, routes, cors, environment);
        }

        @Override
        protected Mono<Route> lookupRoute(ServerWebExchange exchange) {
            return route;
        }
    }
}
