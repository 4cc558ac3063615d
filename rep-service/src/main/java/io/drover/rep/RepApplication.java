package io.drover.rep;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The rep: one per cell; claims placed work, runs and watches the containers, reports truthfully. */
@SpringBootApplication
public class RepApplication {

    public static void main(String[] args) {
        SpringApplication.run(RepApplication.class, args);
    }
}
