package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * The compose file's wiring, checked by reading it (./drover-compose-test runs it for real where Docker runs): every
 * service is built from this repository's jars, points at the compose PostgreSQL and Kafka, waits for them to be
 * healthy, has a health check, an init and a memory limit its heap fits in, and is configured only through environment
 * variables that name real Spring properties (checked against the configuration metadata of every module).
 */
class DockerComposeWiringTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> APPS = Set.of("receptor", "converger-1", "converger-2", "auctioneer-1",
            "auctioneer-2", "router", "rep-1", "rep-2", "rep-sim");
    private static final List<String> PROCESS_REPS = List.of("rep-1", "rep-2");
    /** Read by the image's entrypoint (docker/service-entrypoint), not by Spring. */
    private static final Set<String> ENTRYPOINT_VARIABLES = Set.of("JAVA_OPTS", "DROVER_MAIN");
    private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\{(\\w+):-([^}]*)}");

    /** Keys of a map property ({@code spring.kafka.producer.properties.*}), which the metadata cannot list. */
    private static final String PRODUCER_PROPERTIES = "SPRING_KAFKA_PRODUCER_PROPERTIES_";

    private static Map<String, Map<String, Object>> services;
    private static Map<String, Map<String, Object>> verifyServices;
    private static Set<String> knownProperties;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void readComposeFile() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(100);
        Map<String, Object> compose = new Yaml(options).load(Files.readString(ROOT.resolve("docker-compose.yml")));
        services = (Map<String, Map<String, Object>>) compose.get("services");
        Map<String, Object> verify = new Yaml(options).load(Files.readString(ROOT.resolve("docker-compose.verify.yml")));
        verifyServices = (Map<String, Map<String, Object>>) verify.get("services");
        knownProperties = knownPropertyEnvNames();
    }

    @Test
    void everyJavaServiceIsBuiltFromTheJarOfAnExistingModuleThatTheBuildContextLetsThrough() throws IOException {
        assertThat(services.keySet()).containsAll(APPS).contains("postgres", "kafka");
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"), StandardCharsets.UTF_8);
        assertThat(dockerfile).contains("COPY ${SERVICE}/target/${SERVICE}-*-exec.jar");
        List<String> ignored = Files.readAllLines(ROOT.resolve(".dockerignore"));
        for (String name : union(APPS, Set.of("kafka"))) {
            Map<String, Object> build = map(services.get(name).get("build"));
            assertThat(ROOT.resolve((String) build.get("context")).normalize()).as(name).isEqualTo(ROOT);
            assertThat(build.get("dockerfile")).as(name + " uses the root Dockerfile").isIn(null, "Dockerfile");
            String module = resolve((String) map(build.get("args")).get("SERVICE"));
            assertThat(ROOT.resolve(module).resolve("pom.xml")).as(name + " module " + module).exists();
            assertThat(ignored).as(".dockerignore lets " + module + "'s jar through")
                    .contains("!" + module + "/target/*-exec.jar");
            assertThat((String) services.get(name).get("image")).as(name).startsWith("drover/");
        }
        Map<String, Object> postgres = map(services.get("postgres").get("build"));
        assertThat(ROOT.resolve((String) postgres.get("dockerfile"))).exists();
    }

    @Test
    void theKafkaImageRunsTheBrokerMainOfTheLocalClusterJar() throws Exception {
        Map<String, Object> kafka = services.get("kafka");
        assertThat(resolve((String) map(map(kafka.get("build")).get("args")).get("SERVICE"))).isEqualTo("local-cluster");
        String main = (String) env("kafka").get("DROVER_MAIN");
        assertThat(Modifier.isStatic(Class.forName(main).getMethod("main", String[].class).getModifiers())).isTrue();
        assertThat(env("kafka").get("KAFKA_ADVERTISED_HOST")).as("clients reach the broker by its service name")
                .isEqualTo("kafka");
    }

    @Test
    void everyApplicationServicePointsAtTheComposePostgresAndKafkaAndWaitsForThemToBeHealthy() {
        Map<String, Object> postgresEnv = env("postgres");
        Map<String, Object> kafkaEnv = env("kafka");
        for (String app : APPS) {
            Map<String, Object> env = env(app);
            assertThat(env.get("SPRING_DATASOURCE_URL"))
                    .isEqualTo("jdbc:postgresql://postgres:5432/" + postgresEnv.get("POSTGRES_DB"));
            assertThat(env.get("SPRING_DATASOURCE_USERNAME")).isEqualTo(postgresEnv.get("POSTGRES_USER"));
            assertThat(env.get("SPRING_DATASOURCE_PASSWORD")).isEqualTo(postgresEnv.get("POSTGRES_PASSWORD"));
            assertThat(env.get("SPRING_KAFKA_BOOTSTRAP_SERVERS"))
                    .isEqualTo(kafkaEnv.get("KAFKA_ADVERTISED_HOST") + ":" + kafkaEnv.get("KAFKA_PORT"));
            Map<String, Object> dependsOn = map(services.get(app).get("depends_on"));
            assertThat(dependsOn).as(app).containsOnlyKeys("postgres", "kafka");
            dependsOn.values().forEach(d -> assertThat(map(d).get("condition")).isEqualTo("service_healthy"));
            assertThat(services.get(app).get("healthcheck").toString()).as(app).contains("/actuator/health");
        }
    }

    @Test
    void everyServiceHasAHealthCheckAnInitAndAMemoryLimitItsHeapFitsIn() {
        for (Map.Entry<String, Map<String, Object>> service : services.entrySet()) {
            String name = service.getKey();
            assertThat(service.getValue()).as(name).containsKey("healthcheck").containsEntry("init", true);
            long limit = bytes((String) service.getValue().get("mem_limit"));
            String javaOpts = (String) env(name).get("JAVA_OPTS");
            if (javaOpts != null) {
                Matcher xmx = Pattern.compile("-Xmx(\\w+)").matcher(javaOpts);
                assertThat(xmx.find()).as(name + " sets its heap").isTrue();
                long workloads = PROCESS_REPS.contains(name)
                        ? Long.parseLong((String) env(name).get("DROVER_REP_CAPACITY_MEMORYMB")) << 20 : 0;
                // Besides the heap a JVM needs metaspace, code cache, thread stacks and direct buffers.
                assertThat(bytes(xmx.group(1)) + workloads + (160L << 20)).as(name + " heap within its limit")
                        .isLessThanOrEqualTo(limit);
            }
        }
    }

    @Test
    void theRoutersPortIsPublishedAndItsHealthIsOnTheActuatorsPortOfItsOwn() {
        String port = (String) env("router").get("SERVER_PORT");
        String management = (String) env("router").get("MANAGEMENT_SERVER_PORT");
        assertThat(management).as("every path on the router's port belongs to the applications").isNotEqualTo(port);
        assertThat((List<?>) services.get("router").get("ports")).map(p -> resolve(p.toString()))
                .anyMatch(p -> p.endsWith(":" + port));
        assertThat(services.get("router").get("healthcheck").toString())
                .contains("localhost:" + management + "/actuator/health");
    }

    @Test
    void theStandbysRunTheSameImageAsTheActiveInstances() {
        assertThat(services.get("converger-1").get("image")).isEqualTo(services.get("converger-2").get("image"));
        assertThat(services.get("auctioneer-1").get("image")).isEqualTo(services.get("auctioneer-2").get("image"));
    }

    @Test
    void aRepIsGivenTheTimeToDrainBeforeItIsKilled() {
        for (String rep : PROCESS_REPS) {
            Duration deadline = Duration.parse("PT" + env(rep).get("DROVER_REP_TIMING_EVACUATIONDEADLINE"));
            Duration stopGrace = Duration.ofSeconds(10); // drover.rep.timing.stop-grace, not overridden here
            Duration grace = Duration.parse("PT" + services.get(rep).get("stop_grace_period"));
            assertThat(grace).as(rep).isGreaterThan(deadline.plus(stopGrace));
        }
    }

    @Test
    void theReceptorAndEachCellsPortRangeArePublishedAndTheCellsAreDistinct() {
        Map<String, Object> receptor = services.get("receptor");
        String port = (String) env("receptor").get("SERVER_PORT");
        assertThat((List<?>) receptor.get("ports")).map(p -> resolve(p.toString())).anyMatch(p -> p.endsWith(":" + port));
        Set<Object> cells = new HashSet<>();
        Set<Object> zones = new HashSet<>();
        Set<Integer> hostPorts = new HashSet<>();
        for (String rep : PROCESS_REPS) {
            Map<String, Object> env = env(rep);
            cells.add(env.get("DROVER_REP_CELL_ID"));
            zones.add(env.get("DROVER_REP_ZONE"));
            assertThat(env.get("DROVER_REP_ADDRESS")).as("instances are reached at the rep's host name")
                    .isEqualTo(services.get(rep).get("hostname"));
            String range = resolve((String) env.get("DROVER_REP_PROCESS_HOST_PORT_RANGE"));
            assertThat((List<?>) services.get(rep).get("ports")).map(p -> resolve(p.toString()))
                    .contains(range + ":" + range);
            String[] bounds = range.split("-");
            int size = Integer.parseInt(bounds[1]) - Integer.parseInt(bounds[0]) + 1;
            assertThat(Integer.parseInt((String) env.get("DROVER_REP_CAPACITY_CONTAINERS"))).as(rep)
                    .isLessThanOrEqualTo(size);
            for (int p = Integer.parseInt(bounds[0]); p <= Integer.parseInt(bounds[1]); p++) {
                assertThat(hostPorts.add(p)).as(rep + " port " + p + " published once").isTrue();
            }
        }
        assertThat(cells).hasSize(2);
        assertThat(zones).hasSize(2);
    }

    /**
     * docs/process-executor.md: cgroups need root and a writable cgroup filesystem of the container's own. Not the
     * {@code cgroup} key: docker-compose 1.29 (Debian's, which ./drover-compose-test uses) refuses the whole file.
     */
    @Test
    void theRepsMayGiveEachInstanceACgroup() {
        for (String rep : List.of("rep-1", "rep-2")) {
            assertThat(services.get(rep)).as(rep).containsEntry("user", "root").doesNotContainKey("cgroup");
            assertThat(resolve(String.valueOf(services.get(rep).get("privileged")))).as(rep + " privileged")
                    .isEqualTo("true");
        }
    }

    @Test
    void everyEnvironmentVariableNamesARealSpringProperty() {
        for (String app : union(APPS, Set.of("kafka"))) {
            for (String name : env(app).keySet()) {
                if (!ENTRYPOINT_VARIABLES.contains(name) && !(app.equals("kafka") && name.startsWith("KAFKA_"))) {
                    assertThat(knownProperties).as(app + ": " + name + " binds to no known property").contains(name);
                }
            }
        }
    }

    /** docs/verification.md: the truth checker's override sets only real properties of services the base file has. */
    @Test
    void theVerifyOverrideSetsOnlyRealPropertiesOfTheBaseFilesServices() {
        assertThat(services.keySet()).containsAll(verifyServices.keySet());
        for (Map.Entry<String, Map<String, Object>> service : verifyServices.entrySet()) {
            for (String name : map(service.getValue().getOrDefault("environment", Map.of())).keySet()) {
                if (service.getKey().equals("kafka")) {
                    assertThat(name).as("read by KafkaBrokerMain").startsWith("KAFKA_");
                } else if (!name.startsWith(PRODUCER_PROPERTIES)) {
                    assertThat(knownProperties).as(service.getKey() + ": " + name + " binds to no known property")
                            .contains(name);
                }
            }
        }
        assertThat(verifyServices.get("rep-1")).isEqualTo(verifyServices.get("rep-2"));
        for (String rep : PROCESS_REPS) {
            Matcher xmx = Pattern.compile("-Xmx(\\w+)").matcher((String) env(rep).get("JAVA_OPTS"));
            assertThat(xmx.find()).isTrue();
            long offered = Long.parseLong((String) map(verifyServices.get(rep).get("environment"))
                    .get("DROVER_REP_CAPACITY_MEMORYMB")) << 20;
            assertThat(bytes(xmx.group(1)) + offered + (160L << 20)).as(rep + ": heap and cell within its limit")
                    .isLessThanOrEqualTo(bytes((String) verifyServices.get(rep).get("mem_limit")));
        }
        assertThat(map(verifyServices.get("converger-1").get("environment")))
                .isEqualTo(map(verifyServices.get("converger-2").get("environment")));
        assertThat(map(verifyServices.get("auctioneer-1").get("environment")))
                .isEqualTo(map(verifyServices.get("auctioneer-2").get("environment")));
    }

    /**
     * The base file publishes neither PostgreSQL nor Kafka; the checker's override publishes Kafka on the host's
     * loopback interface only, at the port the checker chose, announced at that same address by a listener of its own.
     */
    @Test
    void onlyTheVerifyOverridePublishesKafkaOnLoopbackAtTheAddressItsExternalListenerAnnounces() {
        assertThat(services.get("kafka")).doesNotContainKey("ports");
        assertThat(services.get("postgres")).doesNotContainKey("ports");
        Map<String, Object> env = map(verifyServices.get("kafka").get("environment"));
        List<?> ports = (List<?>) verifyServices.get("kafka").get("ports");
        assertThat(ports).hasSize(1);
        Matcher published = Pattern.compile("127\\.0\\.0\\.1:\\$\\{(\\w+)[^}]*}:(\\d+)")
                .matcher(ports.get(0).toString());
        assertThat(published.matches()).as(ports.get(0).toString()).isTrue();
        assertThat(published.group(2)).isEqualTo(env.get("KAFKA_EXTERNAL_PORT"));
        assertThat(env.get("KAFKA_EXTERNAL_ADVERTISED").toString()).startsWith("127.0.0.1:${" + published.group(1));
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

    /** A value as compose sees it with none of its variables set: {@code ${NAME:-default}} becomes the default. */
    private static String resolve(String value) {
        return SUBSTITUTION.matcher(value).replaceAll(m -> Matcher.quoteReplacement(m.group(2)));
    }

    private static long bytes(String size) {
        Matcher m = Pattern.compile("(\\d+)([kmg]?)").matcher(size.toLowerCase(Locale.ROOT));
        assertThat(m.matches()).as("size " + size).isTrue();
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }

    private static Map<String, Object> env(String service) {
        return map(services.get(service).get("environment"));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
