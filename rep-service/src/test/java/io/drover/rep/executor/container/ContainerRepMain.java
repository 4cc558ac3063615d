package io.drover.rep.executor.container;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CheckDefinition.Check;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import java.nio.file.Path;
import java.util.List;

/**
 * A rep in a JVM of its own, for the test that kills it with SIGKILL: a container executor over the given dirs runs
 * one http server, prints {@code RUNNING <instance guid> <host port>} once it runs, and waits to be killed.
 */
public final class ContainerRepMain {

    private ContainerRepMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ContainerHarness harness = new ContainerHarness(Path.of(args[0]), Path.of(args[1]), args[2]);
        Executor executor = harness.executor(args[3]);
        ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("sh", List.of("-c",
                "hostname > index.html && exec python3 -m http.server $PORT"), null, List.of(), null)),
                "preloaded:host", List.of(8080), 0, 16,
                new CheckDefinition(List.of(new Check(null, new CheckDefinition.HttpCheck(8080, "/", 1000)))));
        executor.run(spec);
        Container running = ContainerHarness.awaitState(executor, spec, ContainerState.RUNNING);
        System.out.println("RUNNING " + spec.instanceGuid() + " " + running.netInfo().ports().get(0).hostPort());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
