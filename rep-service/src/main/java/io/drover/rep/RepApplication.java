package io.drover.rep;

import io.drover.model.config.ServiceDefaults;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.PropertySource;

/** The rep: one per cell; claims placed work, runs and watches the containers, reports truthfully. */
@SpringBootApplication
@PropertySource(value = "classpath:rep-service.yml", factory = ServiceDefaults.class)
public class RepApplication {

    public static void main(String[] args) {
        SpringApplication.run(RepApplication.class, args);
    }
}
