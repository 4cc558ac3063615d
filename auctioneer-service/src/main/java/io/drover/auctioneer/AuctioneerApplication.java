package io.drover.auctioneer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The auctioneer: places instances on cells in batched auctions. */
@SpringBootApplication
@EnableConfigurationProperties(AuctioneerProperties.class)
public class AuctioneerApplication {

    public static void main(String[] args) {
        SpringApplication.run(AuctioneerApplication.class, args);
    }
}
