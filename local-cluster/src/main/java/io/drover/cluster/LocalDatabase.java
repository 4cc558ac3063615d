package io.drover.cluster;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/** PostgreSQL 15 from zonky's embedded binaries, with its data kept in {@code dataDir} across restarts. */
final class LocalDatabase implements AutoCloseable {

    static final String DATABASE = "drover";

    private final EmbeddedPostgres server;

    private LocalDatabase(EmbeddedPostgres server) {
        this.server = server;
    }

    static LocalDatabase start(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    // The cluster stops PostgreSQL itself, last: zonky's own hook would stop it under running services.
                    .setRegisterShutdownHook(false)
                    .setPort(FreePorts.any())
                    .setServerConfig("max_connections", "400")
                    .setServerConfig("shared_buffers", "256MB")
                    .setServerConfig("synchronous_commit", "off")
                    .start();
            createDatabaseIfMissing(server);
            return new LocalDatabase(server);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + dataDir, e);
        }
    }

    private static void createDatabaseIfMissing(EmbeddedPostgres server) {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (!rs.next()) {
                    s.execute("CREATE DATABASE " + DATABASE);
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create database " + DATABASE, e);
        }
    }

    String jdbcUrl() {
        return server.getJdbcUrl("postgres", DATABASE);
    }

    String username() {
        return "postgres";
    }

    String password() {
        return "postgres";
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
