package io.drover.auctioneer;

import io.drover.model.config.ServiceDefaults;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.PropertySource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The auctioneer: places instances on cells in batched auctions. */
@SpringBootApplication
@PropertySource(value = "classpath:auctioneer-service.yml", factory = ServiceDefaults.class)
@EnableConfigurationProperties(AuctioneerProperties.class)
public class AuctioneerApplication {

    public static void main(String[] args) {
        SpringApplication.run(AuctioneerApplication.class, args);
    }
}
