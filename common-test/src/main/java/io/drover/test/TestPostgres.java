package io.drover.test;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/** One PostgreSQL server per test JVM; every Spring context gets a database of its own on it. */
public abstract class TestPostgres {

    private final AtomicInteger databases = new AtomicInteger();

    /** The JDBC URL of a new, empty database. */
    public String createDatabase() {
        String name = "drover_" + databases.incrementAndGet();
        try (Connection c = DriverManager.getConnection(adminUrl(), username(), password());
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        return jdbcUrl(name);
    }

    protected abstract String adminUrl();

    protected abstract String jdbcUrl(String database);

    public abstract String username();

    public abstract String password();

    /** Zonky's embedded PostgreSQL 15, started once per JVM, with the postgres superuser. */
    static final class Embedded extends TestPostgres {

        private final EmbeddedPostgres server;

        Embedded() {
            try {
                server = EmbeddedPostgres.builder().setServerConfig("max_connections", "300")
                        .setServerConfig("fsync", "off").setServerConfig("synchronous_commit", "off").start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }));
        }

        @Override
        protected String adminUrl() {
            return server.getJdbcUrl("postgres", "postgres");
        }

        @Override
        protected String jdbcUrl(String database) {
            return server.getJdbcUrl("postgres", database);
        }

        @Override
        public String username() {
            return "postgres";
        }

        @Override
        public String password() {
            return "postgres";
        }

        EmbeddedPostgres server() {
            return server;
        }
    }
}
