package io.drover.converger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The converger: the reconciliation loop that repairs every difference between desired and actual. */
@SpringBootApplication
public class ConvergerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ConvergerApplication.class, args);
    }
}
