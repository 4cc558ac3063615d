# The image of one Drover service, around the jar the Maven build made on the host (nothing is compiled in here):
#   ./mvnw -B -DskipTests package
#   docker build --build-arg SERVICE=receptor-service -t drover/receptor-service:dev .
# SERVICE is a module; local-cluster makes the Kafka image (DROVER_MAIN=io.drover.cluster.KafkaBrokerMain).
# BASE needs a Java 17 runtime on Debian or Ubuntu. Without an image registry, docker/build-images builds one
# (drover/jre:17) from Debian's mirror and passes it here; see docs/compose.md.
ARG BASE=eclipse-temurin:17-jre

FROM ${BASE} AS jar
ARG SERVICE
COPY ${SERVICE}/target/${SERVICE}-*-exec.jar /tmp/app.jar
# Unpacked (Spring Boot's "extract"): classes load from plain jars, which starts a service with about a quarter less CPU.
RUN java -Djarmode=tools -jar /tmp/app.jar extract --destination /app

FROM ${BASE}
# The rep's process executor runs workloads such as `python3 -m http.server`; the health checks use curl.
RUN if ! command -v python3 > /dev/null || ! command -v curl > /dev/null || ! command -v ps > /dev/null; then \
        apt-get update && apt-get install -y --no-install-recommends python3 procps curl \
        && rm -rf /var/lib/apt/lists/*; \
    fi \
    && useradd --system --create-home drover \
    && mkdir /home/drover/data && chown drover: /home/drover/data
COPY docker/service-entrypoint /usr/local/bin/drover-service
COPY --from=jar /app /home/drover/app
USER drover
WORKDIR /home/drover
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/drover-service"]
