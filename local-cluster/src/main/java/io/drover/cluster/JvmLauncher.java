package io.drover.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

/**
 * Starts a main class of this classpath in a new JVM: with the same classpath when this JVM runs from classes and jars
 * (tests, an IDE), or through Spring Boot's {@code PropertiesLauncher} when it runs from an executable jar
 * ({@code ./drover-local}, {@code ./drover-bench}), whose nested jars a plain {@code -cp} cannot read.
 */
final class JvmLauncher {

    private static final String BOOT_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

    private JvmLauncher() {
    }

    static Process start(String mainClass, List<String> jvmOptions, String[] args, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        String classpath = System.getProperty("java.class.path");
        command.add("-cp");
        command.add(classpath);
        if (isExecutableJar(classpath)) {
            command.add("-Dloader.main=" + mainClass);
            command.add(BOOT_LAUNCHER);
        } else {
            command.add(mainClass);
        }
        command.addAll(List.of(args));
        log.getParent().toFile().mkdirs();
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    static boolean isExecutableJar(String classpath) {
        if (classpath.contains(File.pathSeparator) || !classpath.endsWith(".jar")) {
            return false;
        }
        try (ZipFile jar = new ZipFile(classpath)) {
            return jar.getEntry("BOOT-INF/lib/") != null || jar.getEntry("BOOT-INF/classes/") != null;
        } catch (IOException e) {
            return false;
        }
    }
}
