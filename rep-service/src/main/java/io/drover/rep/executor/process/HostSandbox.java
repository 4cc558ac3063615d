package io.drover.rep.executor.process;

import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.model.lrp.RunAction;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Runs an instance's processes on the host itself (docs/process-executor.md): in its cgroup where there is one, with
 * the host's filesystem and network. A process listens on its host port, so checks connect to it on the loopback.
 */
final class HostSandbox implements Sandbox {

    private final ProcessLauncher launcher;

    HostSandbox(ProcessLauncher launcher) {
        this.launcher = launcher;
    }

    @Override
    public void prepare(SandboxedInstance instance) throws IOException {
        new InstanceDir(instance.root()).create();
        Isolation.create(instance.cgroup(), instance.definition());
    }

    @Override
    public Launched launch(SandboxedInstance instance, RunAction action, Map<String, String> env, Role role)
            throws IOException {
        Process process = launcher.launch(action, instance.definition().cpuWeight(), env,
                new InstanceDir(instance.root()), instance.cgroup());
        return new Launched(process, process.pid());
    }

    @Override
    public InetSocketAddress checkAddress(SandboxedInstance instance, PortMapping port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port.hostPort());
    }
}
