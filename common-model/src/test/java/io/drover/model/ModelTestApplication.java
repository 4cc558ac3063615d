package io.drover.model;

import io.drover.test.MutableClock;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The smallest application that carries the model, for the model's integration tests. Its clock is a
 * {@link MutableClock} the tests move by hand (crash back-off, presence TTLs); every IT shares this one context.
 */
@SpringBootApplication
public class ModelTestApplication {

    @Bean
    MutableClock clock() {
        return MutableClock.startingNow();
    }

    @Bean
    static StatementCounter statementCounter() {
        return new StatementCounter();
    }
}
