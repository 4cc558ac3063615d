package io.drover.converger;

import io.drover.model.config.ServiceDefaults;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.PropertySource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The converger: the reconciliation loop that repairs every difference between desired and actual. */
@SpringBootApplication
@PropertySource(value = "classpath:converger-service.yml", factory = ServiceDefaults.class)
@EnableConfigurationProperties({ ConvergerProperties.class, TaskProperties.class })
public class ConvergerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ConvergerApplication.class, args);
    }
}
