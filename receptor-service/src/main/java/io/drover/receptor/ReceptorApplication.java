package io.drover.receptor;

import io.drover.model.config.ServiceDefaults;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.PropertySource;

/**
 * The receptor: Drover's public REST API (desired state in, actual state out, event stream). Its defaults live in
 * {@code receptor-service.yml}, so it can share a JVM (and a classpath) with the other services.
 */
@SpringBootApplication
@PropertySource(value = "classpath:receptor-service.yml", factory = ServiceDefaults.class)
public class ReceptorApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReceptorApplication.class, args);
    }
}
