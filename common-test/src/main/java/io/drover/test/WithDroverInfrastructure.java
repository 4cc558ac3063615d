package io.drover.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.test.context.ContextConfiguration;

/**
 * Put on a {@code @SpringBootTest}: the context gets its own database on the JVM's real PostgreSQL and the JVM's real
 * Kafka broker. See {@link DroverInfrastructure}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ContextConfiguration(initializers = DroverInfrastructure.class)
public @interface WithDroverInfrastructure {
}
