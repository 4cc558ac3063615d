package io.drover.rep;

import io.drover.model.config.ServiceDefaults;
import io.drover.rep.agent.ProcessExit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.PropertySource;

/** The rep: one per cell; claims placed work, runs and watches the containers, reports truthfully. */
@SpringBootApplication
@PropertySource(value = "classpath:rep-service.yml", factory = ServiceDefaults.class)
public class RepApplication {

    public static void main(String[] args) {
        SpringApplication rep = new SpringApplication(RepApplication.class);
        // this rep owns its JVM: a rep that must stop (its cell id is taken) ends the process with its status
        rep.addInitializers(context -> context.getBeanFactory().registerSingleton("processExit",
                (ProcessExit) System::exit));
        rep.run(args);
    }
}
