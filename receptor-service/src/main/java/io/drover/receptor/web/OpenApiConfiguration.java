package io.drover.receptor.web;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document ({@code /v3/api-docs}) and Swagger UI ({@code /swagger-ui.html}) with HTTP Basic. */
@Configuration
class OpenApiConfiguration {

    /** Swagger's model reader (Jackson 2) names properties as the API writes them: snake_case. */
    @Bean
    ModelResolver snakeCaseModelResolver() {
        return new ModelResolver(Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
    }

    @Bean
    OpenAPI droverOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Drover receptor API").version("v1")
                        .description("Desired state in, actual state out, event stream. Shaped like Diego's receptor "
                                + "v1: snake_case JSON; errors are {\"name\", \"message\"}.")
                        .license(new License().name("Apache-2.0")))
                .components(new Components().addSecuritySchemes("basic",
                        new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")))
                .addSecurityItem(new SecurityRequirement().addList("basic"));
    }
}
