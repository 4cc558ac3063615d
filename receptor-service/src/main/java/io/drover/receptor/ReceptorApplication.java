package io.drover.receptor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The receptor: Drover's public REST API (desired state in, actual state out, event stream). */
@SpringBootApplication
public class ReceptorApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReceptorApplication.class, args);
    }
}
