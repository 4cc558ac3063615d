package io.drover.rep.executor.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The working directory of one container: {@code <work-dir>/<cell>/<instance-guid>/} holding {@code app/} (the
 * process's cwd), {@code stdout.log}, {@code stderr.log} (and their {@code .1} rotations) and {@code instance.json}
 * (the pid file adoption reads).
 */
record InstanceDir(Path root) {

    static InstanceDir of(Path cellDir, String instanceGuid) {
        return new InstanceDir(cellDir.resolve(safeName(instanceGuid)));
    }

    /** Ids become directory names: anything but letters, digits, '.', '_' and '-' is replaced, and no '..'. */
    static String safeName(String id) {
        String safe = id.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() || safe.chars().allMatch(c -> c == '.') ? "_" + safe : safe;
    }

    Path app() {
        return root.resolve("app");
    }

    Path stdout() {
        return root.resolve("stdout.log");
    }

    Path stderr() {
        return root.resolve("stderr.log");
    }

    Path pidFile() {
        return root.resolve("instance.json");
    }

    void create() {
        try {
            Files.createDirectories(app());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void delete() {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
