package io.drover.router;

import io.drover.model.config.ServiceDefaults;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.config.GatewayNoLoadBalancerClientAutoConfiguration;
import org.springframework.context.annotation.PropertySource;

/** The router: one stable address per LRP, requests routed by Host to its running instances (SPEC 16). */
// The gateway's stand-in for a load balancer only turns away "lb://" URLs, a step on every request: the router
// balances by itself.
@SpringBootApplication(exclude = GatewayNoLoadBalancerClientAutoConfiguration.class)
@PropertySource(value = "classpath:router-service.yml", factory = ServiceDefaults.class)
@EnableConfigurationProperties(RouterProperties.class)
public class RouterApplication {

    public static void main(String[] args) {
        // Spring Cloud Gateway's server runs on Reactor Netty (WebFlux), even where Spring MVC is on the classpath.
        SpringApplication application = new SpringApplication(RouterApplication.class);
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        application.run(args);
    }
}
