package io.drover.cluster;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * PostgreSQL 15 from zonky's embedded binaries, with its data kept in {@code dataDir} across restarts. It can be stopped
 * and started again under running services (failure tests): same port, same data directory, so their JDBC URLs stay
 * valid and their pools reconnect.
 */
final class LocalDatabase implements AutoCloseable {

    static final String DATABASE = "drover";

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres server;

    private LocalDatabase(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
        this.server = launch();
        prepareDatabase(server);
    }

    static LocalDatabase start(Path dataDir) {
        return new LocalDatabase(dataDir, FreePorts.any());
    }

    /** Stops the server (a clean shutdown: open connections are cut); {@link #restart()} brings it back. */
    synchronized void stop() {
        if (server != null) {
            close(server);
            server = null;
        }
    }

    /** Starts the server stopped by {@link #stop()} again, on the same port and data directory. */
    synchronized void restart() {
        if (server == null) {
            server = launch();
        }
    }

    private EmbeddedPostgres launch() {
        try {
            Files.createDirectories(dataDir);
            return EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    // The cluster stops PostgreSQL itself, last: zonky's own hook would stop it under running services.
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    .setServerConfig("max_connections", "400")
                    .setServerConfig("shared_buffers", "256MB")
                    // Checkpoints by time, not by the WAL of a burst: at 1GB (the default) the million's P1 forced a
                    // checkpoint a minute, and each made the next minute's first write of every page a full-page image
                    // (half of the WAL's bytes). Only a burst fills it; segments beyond min_wal_size are recycled.
                    .setServerConfig("max_wal_size", "8GB")
                    .setServerConfig("synchronous_commit", "off")
                    // What each statement costs (pg_stat_statements): the benchmark's profile of PostgreSQL's share.
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + dataDir + " on port " + port, e);
        }
    }

    /** The cluster's database, made once, with the statement statistics the benchmark reads. */
    private static void prepareDatabase(EmbeddedPostgres server) {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (!rs.next()) {
                    s.execute("CREATE DATABASE " + DATABASE);
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create database " + DATABASE, e);
        }
        try (Connection c = server.getDatabase("postgres", DATABASE).getConnection();
             Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create extension pg_stat_statements in " + DATABASE, e);
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/" + DATABASE + "?user=postgres";
    }

    String username() {
        return "postgres";
    }

    String password() {
        return "postgres";
    }

    @Override
    public void close() {
        stop();
    }

    private static void close(EmbeddedPostgres server) {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
