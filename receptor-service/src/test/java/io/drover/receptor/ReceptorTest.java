package io.drover.receptor;

import io.drover.test.WithDroverInfrastructure;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;

/**
 * The one receptor test context (shared by every IT, so it starts once): the real application on a random port, on
 * its own database of the JVM's PostgreSQL and the JVM's Kafka broker, with known credentials.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "drover.receptor.username=" + TestApi.USERNAME, "drover.receptor.password=" + TestApi.PASSWORD,
        "drover.receptor.events.heartbeat-interval=1s", "drover.logs.secret=" + TestApi.LOGS_SECRET,
        "drover.receptor.tasks.cluster-endpoints-refresh=0s" })
@AutoConfigureMockMvc
@WithDroverInfrastructure
public @interface ReceptorTest {
}
