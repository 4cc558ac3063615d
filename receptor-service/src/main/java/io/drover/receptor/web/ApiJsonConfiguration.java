package io.drover.receptor.web;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.PropertyNamingStrategies;

/**
 * The API speaks snake_case JSON (Diego receptor v1). Set in code rather than in a property file, so the API keeps
 * its shape whatever configuration the JVM it runs in happens to load.
 */
@Configuration
class ApiJsonConfiguration {

    @Bean
    JsonMapperBuilderCustomizer snakeCaseApi() {
        return builder -> builder.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    }
}
