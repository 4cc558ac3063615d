package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import io.drover.model.json.Json;

/**
 * No Docker engine runs here, so the compose file's wiring is checked by reading it: every service is built from this
 * repository, points at the compose PostgreSQL and Kafka, waits for them to be healthy, and is configured only
 * through environment variables that name real Spring properties (checked against the configuration metadata of
 * every module on the classpath).
 */
class DockerComposeWiringTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> APPS = Set.of("receptor", "converger", "auctioneer", "rep-1", "rep-2");

    private static Map<String, Map<String, Object>> services;
    private static Set<String> knownProperties;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void readComposeFile() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(100);
        Map<String, Object> compose = new Yaml(options).load(Files.readString(ROOT.resolve("docker-compose.yml")));
        services = (Map<String, Map<String, Object>>) compose.get("services");
        knownProperties = knownPropertyEnvNames();
    }

    @Test
    void everyApplicationServiceIsBuiltFromAnExistingModuleWithTheRepositoryDockerfile() throws IOException {
        assertThat(services.keySet()).containsAll(APPS).contains("postgres", "kafka");
        for (String app : APPS) {
            Map<String, Object> build = map(services.get(app).get("build"));
            assertThat(Files.exists(ROOT.resolve((String) build.get("context")).resolve((String) build.get("dockerfile"))))
                    .as(app + " dockerfile").isTrue();
            String module = (String) map(build.get("args")).get("SERVICE");
            assertThat(Files.exists(ROOT.resolve(module).resolve("pom.xml"))).as(app + " module " + module).isTrue();
            assertThat(Files.readString(ROOT.resolve("Dockerfile"), java.nio.charset.StandardCharsets.UTF_8))
                    .contains("COPY " + module + "/src");
        }
    }

    @Test
    void everyApplicationServicePointsAtTheComposePostgresAndKafkaAndWaitsForThemToBeHealthy() {
        Map<String, Object> postgresEnv = map(services.get("postgres").get("environment"));
        Map<String, Object> kafkaEnv = map(services.get("kafka").get("environment"));
        assertThat(services.get("postgres")).containsKey("healthcheck");
        assertThat(services.get("kafka")).containsKey("healthcheck");
        for (String app : APPS) {
            Map<String, Object> service = services.get(app);
            Map<String, Object> env = map(service.get("environment"));
            assertThat(env.get("SPRING_DATASOURCE_URL"))
                    .isEqualTo("jdbc:postgresql://postgres:5432/" + postgresEnv.get("POSTGRES_DB"));
            assertThat(env.get("SPRING_DATASOURCE_USERNAME")).isEqualTo(postgresEnv.get("POSTGRES_USER"));
            assertThat(env.get("SPRING_DATASOURCE_PASSWORD")).isEqualTo(postgresEnv.get("POSTGRES_PASSWORD"));
            assertThat((String) kafkaEnv.get("KAFKA_ADVERTISED_LISTENERS"))
                    .contains("//" + env.get("SPRING_KAFKA_BOOTSTRAP_SERVERS"));
            Map<String, Object> dependsOn = map(service.get("depends_on"));
            assertThat(dependsOn).containsOnlyKeys("postgres", "kafka");
            dependsOn.values().forEach(d -> assertThat(map(d).get("condition")).isEqualTo("service_healthy"));
            assertThat(service).containsKey("healthcheck");
            assertThat(service.get("healthcheck").toString()).contains("/actuator/health");
        }
    }

    @Test
    void theReceptorPublishesItsPortAndTheCellsAreDistinct() {
        Map<String, Object> receptor = services.get("receptor");
        String port = (String) map(receptor.get("environment")).get("SERVER_PORT");
        assertThat((List<?>) receptor.get("ports")).map(Object::toString).anyMatch(p -> p.endsWith(":" + port));
        Set<Object> cells = new HashSet<>();
        Set<Object> zones = new HashSet<>();
        for (String rep : List.of("rep-1", "rep-2")) {
            Map<String, Object> env = map(services.get(rep).get("environment"));
            cells.add(env.get("DROVER_REP_CELL_ID"));
            zones.add(env.get("DROVER_REP_ZONE"));
            String range = (String) env.get("DROVER_REP_PROCESS_HOST_PORT_RANGE");
            assertThat((List<?>) services.get(rep).get("ports")).map(Object::toString)
                    .contains(range + ":" + range);
        }
        assertThat(cells).hasSize(2);
        assertThat(zones).hasSize(2);
    }

    /** docs/process-executor.md: cgroups need root and a writable cgroup filesystem of the container's own. */
    @Test
    void theRepsMayGiveEachInstanceACgroup() {
        for (String rep : List.of("rep-1", "rep-2")) {
            assertThat(services.get(rep)).as(rep).containsEntry("user", "root").containsEntry("privileged", true)
                    .containsEntry("cgroup", "private");
        }
    }

    @Test
    void everyEnvironmentVariableNamesARealSpringProperty() {
        for (String app : APPS) {
            for (String name : map(services.get(app).get("environment")).keySet()) {
                assertThat(knownProperties).as(app + ": " + name + " binds to no known property").contains(name);
            }
        }
    }

    /** Property names from every configuration metadata file, in their environment-variable form. */
    private static Set<String> knownPropertyEnvNames() throws IOException {
        Set<String> names = new HashSet<>();
        for (URL url : Collections.list(DockerComposeWiringTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                JsonNode properties = Json.MAPPER.readTree(in).path("properties");
                properties.forEach(p -> names.addAll(envNames(p.path("name").asString())));
            }
        }
        return names.stream().collect(Collectors.toUnmodifiableSet());
    }

    /** Spring's canonical form (dashes dropped) and the legacy one it also binds (dashes as underscores). */
    private static List<String> envNames(String property) {
        String upper = property.replace('.', '_').toUpperCase(Locale.ROOT);
        return List.of(upper.replace("-", ""), upper.replace('-', '_'));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
