package io.drover.receptor.web.security;

import jakarta.servlet.DispatcherType;
import java.security.SecureRandom;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

/**
 * SPEC 5.5: HTTP Basic on every API and actuator path except {@code /actuator/health} (and the API docs), stateless,
 * no CSRF (no cookies, no sessions), CORS only for configured origins, errors in the API's shape.
 */
@Configuration
@EnableConfigurationProperties(ReceptorSecurityProperties.class)
class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean
    ReceptorCredentials receptorCredentials(ReceptorSecurityProperties properties) {
        ReceptorCredentials credentials = ReceptorCredentials.from(properties, new SecureRandom());
        if (properties.devMode()) {
            return credentials;
        }
        if (credentials.generated()) {
            log.warn("receptor-credentials generated=true username={} password={} "
                    + "(set drover.receptor.password or DROVER_RECEPTOR_PASSWORD to choose one)",
                    credentials.username(), credentials.generatedPassword());
        } else {
            log.info("receptor-credentials generated=false username={}", credentials.username());
        }
        return credentials;
    }

    @Bean
    AuthenticationManager authenticationManager(ReceptorCredentials credentials) {
        return new ProviderManager(new CredentialsAuthenticationProvider(credentials));
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ReceptorSecurityProperties properties,
            AuthenticationManager authenticationManager, @Value("${server.address:#{null}}") String serverAddress) {
        boolean open = properties.devMode();
        if (open) {
            DevMode.requireLoopback(serverAddress);
            log.warn("receptor-dev-mode auth=OFF address={} *** DEV MODE: THE API ACCEPTS UNAUTHENTICATED REQUESTS "
                    + "(loopback only). NEVER USE THIS IN PRODUCTION. ***", serverAddress);
        }
        http.csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authenticationManager(authenticationManager)
                .httpBasic(basic -> basic.realmName("drover").authenticationEntryPoint(JsonSecurityErrors.unauthorized()))
                .exceptionHandling(e -> e.authenticationEntryPoint(JsonSecurityErrors.unauthorized())
                        .accessDeniedHandler(JsonSecurityErrors.forbidden()))
                .authorizeHttpRequests(auth -> {
                    // Not the path /error: a request for it needs credentials like any other. The container's
                    // own forward to it (to render an error in the API's shape) is let through.
                    auth.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll();
                    auth.requestMatchers("/actuator/health", "/actuator/health/**").permitAll();
                    auth.requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**")
                            .permitAll();
                    if (open) {
                        auth.anyRequest().permitAll();
                    } else {
                        auth.anyRequest().authenticated();
                    }
                });
        List<String> origins = properties.corsAllowedOrigins();
        if (origins.isEmpty()) {
            http.cors(cors -> cors.disable());
        } else {
            http.cors(cors -> cors.configurationSource(corsSource(origins)));
        }
        return http.build();
    }

    private static UrlBasedCorsConfigurationSource corsSource(List<String> origins) {
        CorsConfiguration cors = new CorsConfiguration();
        cors.setAllowedOrigins(origins);
        cors.setAllowedMethods(List.of("GET", "POST", "PUT", "DELETE"));
        cors.setAllowedHeaders(List.of("Authorization", "Content-Type", "If-Match", "If-None-Match", "Cache-Control"));
        cors.setExposedHeaders(List.of("ETag", "Location", "Drover-Continue"));
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/v1/**", cors);
        return source;
    }
}
