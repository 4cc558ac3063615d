package io.drover.test;

import org.testcontainers.postgresql.PostgreSQLContainer;

/** PostgreSQL 15 in a Docker container, for {@code -Ptestcontainers}. */
final class ContainerPostgres extends TestPostgres {

    private final PostgreSQLContainer container;

    ContainerPostgres() {
        container = new PostgreSQLContainer("postgres:15-alpine").withCommand("postgres", "-c", "max_connections=300");
        container.start();
    }

    @Override
    protected String adminUrl() {
        return container.getJdbcUrl();
    }

    @Override
    protected String jdbcUrl(String database) {
        return "jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(5432) + "/" + database;
    }

    @Override
    public String username() {
        return container.getUsername();
    }

    @Override
    public String password() {
        return container.getPassword();
    }
}
