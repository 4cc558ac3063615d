"""Starting a compose project of Drover's images on free host ports, and removing it: the compose test's start-up
(run.py), also the truth checker's (`./drover-verify --compose`, docs/verification.md), which runs it as

    python3 -B docker/compose-test/startup.py up --project P [--file F ...] [--service S ...] [--port VAR ...]
        [--port-base N]
    python3 -B docker/compose-test/startup.py down --project P

`up` builds the images (docker/build-images), asks the OS for free host ports (the receptor's, the router's, two runs
of 20 for the reps' instances from 62000 or `--port-base`, and after those one for each `--port VAR`), starts the
project with them and a random receptor password, waits until every started service is healthy, and prints what it started as one JSON line on stdout
({"project", "env", "privileged", "seconds"}); its progress goes to stderr. On a failure it saves the containers' logs
to target/compose-test/logs/, removes the project and exits 1 (3 where Docker cannot run a container at all)."""

import argparse
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

from cluster import ALL_SERVICES, Cluster, Failure

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "target" / "compose-test"
PORTS_PER_REP = 20  # docker-compose.yml: DROVER_REP_CAPACITY_CONTAINERS of the process reps


class CannotRun(Exception):
    """Docker cannot run a container here at all (a sandbox without the kernel features)."""


def log(message):
    print(f"[compose-test {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def build_images():
    """docker/build-images, offline (local bases cached by tag); its lines, or CannotRun where no container can run."""
    done = subprocess.run([str(ROOT / "docker" / "build-images")], capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        probe = subprocess.run(["docker", "run", "--rm", "drover/debian:bookworm", "true"], capture_output=True,
                               text=True, timeout=120)
        if probe.returncode != 0:
            raise CannotRun(f"Docker cannot run a container here ({(probe.stderr.strip().splitlines() or ['?'])[-1]})")
        raise SystemExit(f"docker/build-images failed:\n{done.stdout}{done.stderr}")
    return done.stdout.splitlines()


def can_run_privileged():
    """Whether this daemon can start a privileged container (the reps' cgroups need one). Where the daemon itself lacks
    a capability (a sandboxed machine), runc refuses every privileged container run as root: the reps then run
    unprivileged and sample /proc, and the walk-through expects SAMPLING instead of cgroups."""
    # As the reps run it: root, which a privileged container gives every capability (a non-root user starts anyway).
    probe = subprocess.run(["docker", "run", "--rm", "--privileged", "--user", "root", "--entrypoint", "true",
                            "drover/rep-service:" +
                            os.environ.get("DROVER_IMAGE_TAG", "dev")], capture_output=True, text=True, timeout=120)
    if probe.returncode == 0:
        return True
    output = (probe.stderr + probe.stdout).splitlines()
    said = [line for line in output if "rror" in line] or [f"exit {probe.returncode}"]
    log(f"privileged containers cannot run here ({said[0][-160:]}): the reps run unprivileged and sample /proc "
        "instead of cgroups")
    return False


def environment(privileged, extra_ports=(), port_base=62000):
    """The variables docker-compose.yml reads: free host ports (the reps' ranges from `port_base` on, then one for each
    of `extra_ports`), a random receptor password; and the reps' port ranges."""
    ranges = free_ranges(2, PORTS_PER_REP, port_base)
    env = {"DROVER_RECEPTOR_PORT": str(free_port()), "DROVER_RECEPTOR_PASSWORD": secrets.token_hex(12),
           "DROVER_ROUTER_PORT": str(free_port()),
           "DROVER_REP_1_PORTS": "%d-%d" % ranges[0], "DROVER_REP_2_PORTS": "%d-%d" % ranges[1],
           "DROVER_IMAGE_TAG": os.environ.get("DROVER_IMAGE_TAG", "dev"),
           "DROVER_REP_PRIVILEGED": str(privileged).lower()}
    # Above the ranges, outside the kernel's ephemeral range: a port a stopped container gave up (a broker stopped for a
    # while) is still free when it starts again, which no outgoing connection could promise.
    extra = free_ranges(len(extra_ports), 1, ranges[-1][1] + 1) if extra_ports else []
    for name, (port, _) in zip(extra_ports, extra):
        env[name] = str(port)
    return env, ranges


def start(cluster, services, timeout=600):
    """Removes what an interrupted earlier run of the project left, starts the services and waits until every one is
    healthy; the seconds it took."""
    cluster.down()
    started = time.monotonic()
    cluster.compose("up", "-d", "--no-build", *services, timeout=900)
    cluster.await_healthy(services, timeout)
    return time.monotonic() - started


def free_port():
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def free_ranges(count, size, base=62000):
    """Runs of free ports from `base` (above the kernel's ephemeral range and the reps' default 61000-61999, where
    nothing else picks ports): the published instance ports of the two reps."""
    ranges, port = [], base
    while len(ranges) < count and port + size <= 65536:
        if all(_free(p) for p in range(port, port + size)):
            ranges.append((port, port + size - 1))
        port += size
    if len(ranges) < count:
        raise Failure(f"no {count} runs of {size} free ports from {base} on")
    return ranges


def _free(port):
    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["up", "down"])
    parser.add_argument("--project", required=True)
    parser.add_argument("--file", action="append", default=[], help="compose files on top of docker-compose.yml")
    parser.add_argument("--service", action="append", default=[], help="start only these (default: every one)")
    parser.add_argument("--port", action="append", default=[], help="a variable to set to a free host port")
    parser.add_argument("--port-base", type=int, default=62000, help="where the reps' port ranges begin")
    args = parser.parse_args()
    files = ["docker-compose.yml"] + args.file
    if args.command == "down":
        # every container, network and volume of the project; the services of docker-compose.yml name them all
        Cluster(ROOT, args.project, {}).down()
        return 0
    try:
        for line in build_images():
            log(line)
    except CannotRun as e:
        log(str(e))
        return 3
    privileged = can_run_privileged()
    env, _ = environment(privileged, args.port, args.port_base)
    services = args.service or [s for s in ALL_SERVICES if s != "rep-sim"]
    cluster = Cluster(ROOT, args.project, env, files=files, profiles=(), services=services)
    try:
        seconds = start(cluster, services)
    except (Failure, OSError, subprocess.SubprocessError) as e:
        log(f"FAILED to start {args.project}: {e}")
        cluster.save_logs(RESULTS / "logs")
        log(f"container logs: {RESULTS / 'logs'}")
        cluster.down()
        return 1
    log(f"{args.project} up (every service healthy): {seconds:.0f} s")
    print(json.dumps({"project": args.project, "env": env, "privileged": privileged, "seconds": round(seconds, 1)}),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
