"""The compose project under test: docker-compose and docker commands on its containers, found by their labels."""

import json
import os
import re
import subprocess
import time
from pathlib import Path

DROVER_SERVICES = ["receptor", "converger-1", "converger-2", "auctioneer-1", "auctioneer-2", "router", "rep-1",
                   "rep-2", "rep-sim"]
ALL_SERVICES = ["postgres", "kafka"] + DROVER_SERVICES


class Failure(AssertionError):
    pass


def sh(*args, timeout=120, check=True, env=None):
    """Runs a command; returns its stdout. A failure raises Failure with the command's stderr."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    if check and done.returncode != 0:
        raise Failure(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    return done.stdout


def eventually(what, check, timeout, interval=0.25):
    """Polls check() until it returns something truthy; returns (that value, seconds it took). Fails naming `what`,
    the deadline and the last value or error seen."""
    start = time.monotonic()
    last, error = None, None
    while True:
        try:
            last, error = check(), None
            if last:
                return last, time.monotonic() - start
        except (OSError, ValueError, Failure) as e:
            error = e
        if time.monotonic() - start > timeout:
            seen = f"error: {error}" if error else f"last: {str(last)[:500]}"
            raise Failure(f"{what}: not within {timeout:.0f} s ({seen})")
        time.sleep(interval)


class Cluster:
    def __init__(self, root, project, env, files=("docker-compose.yml",), profiles=("simulated",), services=None):
        self.root = Path(root)
        self.project = project
        self.files = list(files)
        self.services = services or ALL_SERVICES
        self._flags = ["-p", project] + [f for name in files for f in ("-f", str(self.root / name))] \
            + [f for p in profiles for f in ("--profile", p)]
        # docker-compose 1.29 gives up on a daemon request after 60 s; on a loaded machine (a benchmark beside the
        # build) dockerd took longer than that to create one container while it started nine
        timeout = os.environ.get("COMPOSE_HTTP_TIMEOUT", "600")
        self.env = dict(os.environ, **{"COMPOSE_HTTP_TIMEOUT": timeout}, **env)
        self.network = f"{project}_default"

    def compose(self, *args, timeout=600):
        return sh("docker-compose", *self._flags, *args, timeout=timeout, env=self.env)

    def container(self, service):
        ids = sh("docker", "ps", "-aq", "--filter", f"label=com.docker.compose.project={self.project}",
                 "--filter", f"label=com.docker.compose.service={service}").split()
        if len(ids) != 1:
            raise Failure(f"expected one container of {service}, found {len(ids)}")
        return ids[0]

    def inspect(self, service):
        return json.loads(sh("docker", "inspect", self.container(service)))[0]

    def health(self, service):
        state = self.inspect(service)["State"]
        return state.get("Health", {}).get("Status", state["Status"])

    def await_healthy(self, services, timeout):
        def all_healthy():
            pending = [s for s in services if self.health(s) != "healthy"]
            if pending:
                raise Failure(f"not healthy yet: {', '.join(pending)}")
            return True
        return eventually("services healthy", all_healthy, timeout, interval=1)[1]

    def lifetimes(self, services):
        """Per service: (running, restart count, started at): a service that exited and came back shows here."""
        out = {}
        for s in services:
            info = self.inspect(s)
            out[s] = (info["State"]["Running"], info["RestartCount"], info["State"]["StartedAt"])
        return out

    def docker(self, *args, timeout=120):
        return sh("docker", *args, timeout=timeout)

    def kill(self, service):
        self.docker("kill", self.container(service))

    def start(self, service):
        self.docker("start", self.container(service))

    def stop(self, service, grace=10):
        self.docker("stop", "-t", str(grace), self.container(service))

    def restart(self, service, grace=10):
        self.docker("restart", "-t", str(grace), self.container(service))

    def disconnect(self, service):
        self.docker("network", "disconnect", self.network, self.container(service))

    def connect(self, service):
        # Reconnected under its service name again, as compose had attached it.
        self.docker("network", "connect", "--alias", service, self.network, self.container(service))

    def exec(self, service, *command, timeout=60):
        return sh("docker", "exec", self.container(service), *command, timeout=timeout)

    def processes(self, service, pattern):
        """How many processes in the service's container match the pattern (pgrep -f)."""
        out = sh("docker", "exec", self.container(service), "pgrep", "-fc", pattern, check=False)
        return int(out.strip() or 0)

    def logs(self, service, since=None):
        args = ["logs"] + (["--since", since] if since else []) + [self.container(service)]
        done = subprocess.run(["docker"] + args, capture_output=True, text=True, timeout=120)
        return done.stdout + done.stderr

    def metrics(self, service):
        """The service's Prometheus scrape, read inside its container (the receptor's needs its credentials)."""
        auth = ["-u", "drover:" + self.env["DROVER_RECEPTOR_PASSWORD"]] if service == "receptor" else []
        port = 8082 if service == "router" else 8080  # the router's actuator has a port of its own
        return self.exec(service, "curl", "-fsS", *auth, f"http://localhost:{port}/actuator/prometheus")

    def java_pid(self, service):
        """The host pid of the container's JVM (its init's child, compose runs every service with init: true)."""
        init = self.inspect(service)["State"]["Pid"]
        pids = sh("pgrep", "-P", str(init), "java", check=False).split()
        if len(pids) != 1:
            raise Failure(f"{service}: no single JVM under pid {init}")
        return pids[0]

    def cpu_seconds(self, service):
        """CPU the container's processes used so far, from its cgroup (v1 cpuacct or v2 cpu.stat)."""
        full = self.inspect(service)["Id"]
        for path in (f"/sys/fs/cgroup/cpuacct/docker/{full}/cpuacct.usage",
                     f"/sys/fs/cgroup/cpu,cpuacct/docker/{full}/cpuacct.usage"):
            if os.path.exists(path):
                return int(Path(path).read_text()) / 1e9
        for path in (f"/sys/fs/cgroup/system.slice/docker-{full}.scope/cpu.stat", f"/sys/fs/cgroup/docker/{full}/cpu.stat"):
            if os.path.exists(path):
                return int(re.search(r"usage_usec (\d+)", Path(path).read_text()).group(1)) / 1e6
        raise Failure(f"{service}: no cgroup CPU counter found")

    def memory_bytes(self):
        """Memory of every container of the project, as `docker stats` reports it (cgroup usage minus page cache)."""
        out = sh("docker", "stats", "--no-stream", "--format", "{{.Name}}\t{{.MemUsage}}")
        usage = {}
        for line in out.splitlines():
            name, mem = line.split("\t")
            usage[name] = _bytes(mem.split("/")[0].strip())
        return {s: usage.get(self.inspect(s)["Name"].lstrip("/")) for s in ALL_SERVICES}

    def save_logs(self, directory):
        directory.mkdir(parents=True, exist_ok=True)
        for service in self.services:
            try:
                (directory / f"{service}.log").write_text(self.logs(service))
            except (Failure, OSError, subprocess.SubprocessError):
                pass

    def down(self):
        """Removes every container, network and volume of the project (kill first: a rep drains for 30 s on stop)."""
        subprocess.run(["docker-compose", *self._flags, "kill"], capture_output=True, env=self.env, timeout=120)
        subprocess.run(["docker-compose", *self._flags, "down", "--volumes", "--remove-orphans", "--timeout", "1"],
                       capture_output=True, env=self.env, timeout=300)


def _bytes(text):
    number, unit = re.match(r"([\d.]+)\s*([A-Za-z]*)", text).groups()
    scale = {"B": 1, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "kB": 1e3, "MB": 1e6, "GB": 1e9}.get(unit, 1)
    return float(number) * scale
