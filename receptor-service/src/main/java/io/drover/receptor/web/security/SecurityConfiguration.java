package io.drover.receptor.web.security;

import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.session.DisableEncodeUrlFilter;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

/**
 * SPEC 5.5: HTTP Basic on every API and actuator path except {@code /actuator/health} (and the API docs), stateless,
 * no CSRF tokens (no cookies, no sessions) but no cross-site writes from browsers either ({@link CrossSiteWrites}: the
 * dashboard's browser holds the Basic credentials), CORS only for configured origins, errors in the API's shape.
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
            // SPEC 5.5: never in a log, not even this one; in a file only this user can read
            log.warn("receptor-credentials generated=true username={} password_file={} "
                    + "(set drover.receptor.password or DROVER_RECEPTOR_PASSWORD to choose one)",
                    credentials.username(), writeOwnerOnly(credentials.generatedPassword()));
        } else {
            log.info("receptor-credentials generated=false username={}", credentials.username());
        }
        return credentials;
    }

    /** A new file readable and writable by this user only (0600), holding {@code password}; deleted at exit. */
    private static Path writeOwnerOnly(String password) {
        try {
            Path file = Files.createTempFile("drover-receptor-", ".password",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, password + "\n");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the generated receptor password to a file", e);
        }
    }

    /**
     * No observation of Spring Security's own filters, authentication and authorization: it would wrap each of a dozen
     * filters in an observation on every request (the request itself is still measured, {@code http.server.requests}).
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    AuthenticationManager authenticationManager(ReceptorCredentials credentials) {
        return new ProviderManager(new CredentialsAuthenticationProvider(credentials));
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ReceptorSecurityProperties properties,
            AuthenticationManager authenticationManager, ReceptorCredentials credentials,
            @Value("${server.address:#{null}}") String serverAddress) {
        boolean open = properties.devMode();
        if (open) {
            DevMode.requireLoopback(serverAddress);
            log.warn("receptor-dev-mode auth=OFF address={} *** DEV MODE: THE API ACCEPTS UNAUTHENTICATED REQUESTS "
                    + "(loopback only). NEVER USE THIS IN PRODUCTION. ***", serverAddress);
        }
        // Every request runs the whole chain: keep only the filters an API of Basic credentials needs (no logout
        // endpoint, no saved requests for a login redirect, no servlet API wrapper). The security headers stay written
        // at commit: written up front, their Cache-Control: no-store would keep the body-hashing ETag filter of the
        // small reads from tagging them.
        LoopbackHosts hosts = new LoopbackHosts(serverAddress, properties.allowedHosts());
        if (hosts.active()) {
            http.addFilterBefore(new LoopbackHostFilter(hosts), DisableEncodeUrlFilter.class);
        }
        http.csrf(csrf -> csrf.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .servletApi(servletApi -> servletApi.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authenticationManager(authenticationManager)
                .httpBasic(basic -> basic.realmName("drover").authenticationEntryPoint(JsonSecurityErrors.unauthorized()))
                .addFilterBefore(new CrossSiteWritesFilter(new CrossSiteWrites(properties.corsAllowedOrigins())),
                        BasicAuthenticationFilter.class)
                .addFilterBefore(new KnownCredentialsFilter(credentials), BasicAuthenticationFilter.class)
                .exceptionHandling(e -> e.authenticationEntryPoint(JsonSecurityErrors.unauthorized())
                        .accessDeniedHandler(JsonSecurityErrors.forbidden()))
                .authorizeHttpRequests(auth -> {
                    // Not the path /error: a request for it needs credentials like any other. The container's
                    // own forward to it (to render an error in the API's shape) is let through.
                    auth.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll();
                    // The API first: nearly every request is one, and one pattern then decides it.
                    if (open) {
                        auth.requestMatchers("/v1/**").permitAll();
                    } else {
                        auth.requestMatchers("/v1/**").authenticated();
                    }
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
