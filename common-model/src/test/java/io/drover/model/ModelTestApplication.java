package io.drover.model;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The smallest application that carries the model, for the model's integration tests. */
@SpringBootApplication
public class ModelTestApplication {
}
