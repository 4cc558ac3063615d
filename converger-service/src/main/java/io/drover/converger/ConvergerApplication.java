package io.drover.converger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The converger: the reconciliation loop that repairs every difference between desired and actual. */
@SpringBootApplication
@EnableConfigurationProperties(ConvergerProperties.class)
public class ConvergerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ConvergerApplication.class, args);
    }
}
