package io.drover.cluster.console;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.boot.logging.LoggingSystem;

/**
 * The local cluster's logs go to a file ({@code <data-dir>/logs/drover.log}, rolled at 20 MB, five kept), not to the
 * terminal: Kafka and five Spring contexts write thousands of lines at start-up. {@code --verbose} also
 * prints them. Spring Boot is told to leave logging alone, or each context it starts would reset this set-up.
 */
public final class LocalLogging {

    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} : %msg%n";

    private LocalLogging() {
    }

    /** Call first thing in {@code main}, before any Spring or Kafka class logs. Returns the log file. */
    public static Path toFile(Path logDir, boolean verbose) {
        System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
        Path file = logDir.resolve("drover.log").toAbsolutePath();
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(file(context, file));
        if (verbose) {
            ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
            start(context, console, "console");
            root.addAppender(console);
        }
        // Tomcat logs through java.util.logging, which would print to the terminal.
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        return file;
    }

    private static Appender<ILoggingEvent> file(LoggerContext context, Path file) {
        RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
        appender.setFile(file.toString());
        FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
        rolling.setContext(context);
        rolling.setParent(appender);
        rolling.setFileNamePattern(file + ".%i");
        rolling.setMinIndex(1);
        rolling.setMaxIndex(5);
        rolling.start();
        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(context);
        trigger.setMaxFileSize(FileSize.valueOf("20MB"));
        trigger.start();
        appender.setRollingPolicy(rolling);
        appender.setTriggeringPolicy(trigger);
        start(context, appender, "file");
        return appender;
    }

    private static void start(LoggerContext context, ch.qos.logback.core.OutputStreamAppender<ILoggingEvent> appender,
            String name) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        appender.setContext(context);
        appender.setName(name);
        appender.setEncoder(encoder);
        appender.start();
    }
}
