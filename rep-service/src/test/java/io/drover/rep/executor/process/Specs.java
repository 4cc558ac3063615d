package io.drover.rep.executor.process;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CheckDefinition.Check;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.ContainerSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Container specs for executor tests: a shell command plus whatever a test needs on top. */
record Specs(RunAction run, RunAction monitor, List<Check> checks, List<Integer> ports, List<EnvVar> env,
        int memoryMb, int maxPids, int startTimeout, int index, int cpuWeight) {

    static Specs sh(String script) {
        return new Specs(new RunAction("sh", List.of("-c", script), null, List.of(), null), null, List.of(),
                List.of(), List.of(), 0, 0, 0, 0, 0);
    }

    static Specs command(String path, String... args) {
        return new Specs(new RunAction(path, List.of(args), null, List.of(), null), null, List.of(), List.of(),
                List.of(), 0, 0, 0, 0, 0);
    }

    Specs ports(Integer... containerPorts) {
        return new Specs(run, monitor, checks, List.of(containerPorts), env, memoryMb, maxPids, startTimeout, index,
                cpuWeight);
    }

    Specs env(String name, String value) {
        List<EnvVar> more = new ArrayList<>(env);
        more.add(new EnvVar(name, value));
        return new Specs(run, monitor, checks, ports, more, memoryMb, maxPids, startTimeout, index, cpuWeight);
    }

    Specs actionEnv(String name, String value) {
        RunAction withEnv = new RunAction(run.path(), run.args(), run.dir(), List.of(new EnvVar(name, value)),
                run.resourceLimits());
        return new Specs(withEnv, monitor, checks, ports, env, memoryMb, maxPids, startTimeout, index, cpuWeight);
    }

    Specs nofile(long limit) {
        RunAction limited = new RunAction(run.path(), run.args(), run.dir(), run.env(),
                new RunAction.ResourceLimits(limit));
        return new Specs(limited, monitor, checks, ports, env, memoryMb, maxPids, startTimeout, index, cpuWeight);
    }

    Specs tcpCheck(int port) {
        return check(new Check(new CheckDefinition.TcpCheck(port, 200), null));
    }

    Specs httpCheck(int port, String path) {
        return check(new Check(null, new CheckDefinition.HttpCheck(port, path, 500)));
    }

    Specs monitor(String script) {
        return new Specs(run, new RunAction("sh", List.of("-c", script), null, List.of(), null), checks, ports, env,
                memoryMb, maxPids, startTimeout, index, cpuWeight);
    }

    Specs memoryMb(int limit) {
        return new Specs(run, monitor, checks, ports, env, limit, maxPids, startTimeout, index, cpuWeight);
    }

    Specs maxPids(int limit) {
        return new Specs(run, monitor, checks, ports, env, memoryMb, limit, startTimeout, index, cpuWeight);
    }

    Specs startTimeout(int seconds) {
        return new Specs(run, monitor, checks, ports, env, memoryMb, maxPids, seconds, index, cpuWeight);
    }

    Specs index(int instanceIndex) {
        return new Specs(run, monitor, checks, ports, env, memoryMb, maxPids, startTimeout, instanceIndex,
                cpuWeight);
    }

    Specs cpuWeight(int weight) {
        return new Specs(run, monitor, checks, ports, env, memoryMb, maxPids, startTimeout, index, weight);
    }

    ContainerSpec build() {
        DesiredLrpDefinition definition = new DesiredLrpDefinition("app-" + UUID.randomUUID(), "test-domain",
                "preloaded:host", 1, new Action(run), monitor, new CheckDefinition(checks), startTimeout, env, ports,
                memoryMb, 0, maxPids, cpuWeight, List.of(), null, null, null, null);
        return new ContainerSpec(ActualLrpKey.of(definition.processGuid(), index), "guid-" + UUID.randomUUID(),
                definition);
    }

    private Specs check(Check check) {
        List<Check> more = new ArrayList<>(checks);
        more.add(check);
        return new Specs(run, monitor, more, ports, env, memoryMb, maxPids, startTimeout, index, cpuWeight);
    }
}
