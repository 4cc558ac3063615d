package io.drover.rep.logs;

import io.drover.rep.agent.CellAgents;
import io.drover.rep.cell.RepProperties;
import io.drover.rep.executor.KeptLogs;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Starts the log server when {@code drover.rep.logs.enabled} (the default) and a shared secret is set. It is bound
 * before the cells are built, so their first heartbeat already advertises it; it finds the cells lazily, which keeps
 * the two beans free of a cycle.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LogServerProperties.class)
class LogServerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LogServerConfiguration.class);

    @Bean(destroyMethod = "close")
    @Conditional(Enabled.class)
    LogServer logServer(LogServerProperties properties, RepProperties rep, @Value("${drover.logs.secret}") String secret,
            ObjectProvider<CellAgents> agents, Clock clock) {
        // a cell's instances and its tasks run in executors of their own; a guid names a container of one of them
        return LogServer.start(properties, secret, rep.address(), (cellId, instanceGuid) -> agents.getObject()
                .agent(cellId).stream().flatMap(a -> a.executors().stream()).flatMap(e -> e.log(instanceGuid).stream())
                .findFirst(), clock);
    }

    /** The last lines of the cells' containers once they are gone; kept whether or not this rep serves logs. */
    @Bean
    KeptLogs keptLogs(LogServerProperties properties, Clock clock) {
        return new KeptLogs(properties.keptBytesPerCell().toBytes(), properties.keepFor(), clock);
    }

    @Bean
    @Conditional(Disabled.class)
    Object logServerDisabled() {
        log.warn("log-server-disabled reason=\"drover.rep.logs.enabled=false or no drover.logs.secret "
                + "(DROVER_LOGS_SECRET)\" (the API cannot show this cell's instance logs)");
        return new Object();
    }

    /** Enabled and given a secret. (A condition class, not an expression: the secret must never be parsed as one.) */
    static final class Enabled implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Environment env = context.getEnvironment();
            return env.getProperty("drover.rep.logs.enabled", Boolean.class, true)
                    && StringUtils.hasText(env.getProperty("drover.logs.secret"));
        }
    }

    static final class Disabled implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !new Enabled().matches(context, metadata);
        }
    }
}
