# One multi-stage build for every Drover service: `docker build --build-arg SERVICE=receptor-service .`
# (docker-compose.yml builds each service this way).
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
COPY common-model/pom.xml common-model/
COPY common-test/pom.xml common-test/
COPY receptor-service/pom.xml receptor-service/
COPY converger-service/pom.xml converger-service/
COPY auctioneer-service/pom.xml auctioneer-service/
COPY rep-service/pom.xml rep-service/
COPY local-cluster/pom.xml local-cluster/
COPY common-model/src common-model/src
COPY common-test/src common-test/src
COPY receptor-service/src receptor-service/src
COPY converger-service/src converger-service/src
COPY auctioneer-service/src auctioneer-service/src
COPY rep-service/src rep-service/src
ARG SERVICE
RUN ./mvnw -B -q -DskipTests -pl ${SERVICE} -am package \
    && cp ${SERVICE}/target/${SERVICE}-*-exec.jar /app.jar

FROM eclipse-temurin:17-jre
# The rep's process executor runs workloads such as `python3 -m http.server`.
RUN apt-get update && apt-get install -y --no-install-recommends python3 procps util-linux curl \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --create-home drover
USER drover
WORKDIR /home/drover
COPY --from=build /app.jar /home/drover/app.jar
EXPOSE 8080
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/home/drover/app.jar"]
