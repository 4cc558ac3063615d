package io.drover.cluster;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The properties one service of the local cluster runs with, whether it runs in this JVM ({@link LocalCluster}) or in
 * a process of its own ({@link ProcessCluster}): its name, the shared PostgreSQL and Kafka, the receptor's
 * credentials and the log servers' secret, the service's local-cluster defaults, its own properties, then the settings' extra properties.
 */
final class ServiceArguments {

    private ServiceArguments() {
    }

    static Map<String, String> of(ServiceKind kind, LocalClusterSettings settings, Infrastructure infrastructure,
            Map<String, String> own) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.application.name", kind.applicationName());
        properties.put("spring.datasource.url", infrastructure.jdbcUrl());
        properties.put("spring.datasource.username", infrastructure.username());
        properties.put("spring.datasource.password", infrastructure.password());
        properties.put("spring.kafka.bootstrap-servers", infrastructure.kafkaBootstrapServers());
        properties.put("server.port", "0");
        properties.put("spring.main.banner-mode", "off");
        properties.put("drover.receptor.username", settings.username());
        properties.put("drover.receptor.password", settings.password());
        properties.put("drover.logs.secret", infrastructure.logsSecret());
        properties.putAll(kind.defaults(settings));
        properties.putAll(own);
        properties.putAll(settings.extraProperties());
        return properties;
    }

    /** As Spring Boot command-line arguments ({@code --name=value}). */
    static String[] asArgs(Map<String, String> properties) {
        return properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
    }

    /** A fresh secret the receptor and the reps share for the cells' log servers. */
    static String randomSecret() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Where the shared PostgreSQL and Kafka are, and the log servers' shared secret. */
    record Infrastructure(String jdbcUrl, String username, String password, String kafkaBootstrapServers,
            String logsSecret) {
    }
}
