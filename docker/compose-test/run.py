"""Runs docker-compose.yml for real and drives it through the REST API (docs/compose.md). Started by
./drover-compose-test once Docker works; exits 0 when every scenario passed, 1 otherwise, and removes every container,
network and volume it made either way."""

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import traceback
from pathlib import Path

import figures
import scenarios
from cluster import ALL_SERVICES, Cluster, Failure
from receptor import Receptor
from scenarios import Run, log

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "target" / "compose-test"
PROJECT = "drover-compose-test"
PORTS_PER_REP = 20  # docker-compose.yml: DROVER_REP_CAPACITY_CONTAINERS of the process reps


def main():
    started = time.monotonic()
    RESULTS.mkdir(parents=True, exist_ok=True)
    timings = {}
    images = time.monotonic()
    build_images()
    timings["images built"] = round(time.monotonic() - images, 1)
    log(f"images built: {timings['images built']} s")

    receptor_port = free_port()
    router_port = free_port()
    ranges = free_ranges(2, PORTS_PER_REP)
    password = secrets.token_hex(12)
    privileged = can_run_privileged()
    env = {"DROVER_RECEPTOR_PORT": str(receptor_port), "DROVER_RECEPTOR_PASSWORD": password,
           "DROVER_ROUTER_PORT": str(router_port),
           "DROVER_REP_1_PORTS": "%d-%d" % ranges[0], "DROVER_REP_2_PORTS": "%d-%d" % ranges[1],
           "DROVER_IMAGE_TAG": os.environ.get("DROVER_IMAGE_TAG", "dev"),
           "DROVER_REP_PRIVILEGED": str(privileged).lower()}
    cluster = Cluster(ROOT, PROJECT, env)
    cluster.down()  # what an interrupted earlier run may have left
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run, passed = None, False
    try:
        up = time.monotonic()
        cluster.compose("up", "-d", "--no-build", timeout=900)
        cluster.await_healthy(ALL_SERVICES, 600)
        timings["cluster up"] = round(time.monotonic() - up, 1)
        log(f"cluster up (every service healthy): {timings['cluster up']} s")
        run = Run(Receptor(f"http://127.0.0.1:{receptor_port}", "drover", password), cluster,
                  {"rep-1": ranges[0], "rep-2": ranges[1]}, cgroups=privileged, router_port=router_port)
        for scenario in (scenarios.walkthrough, scenarios.rep_killed, scenarios.partition, scenarios.outages,
                         figures.measure, scenarios.leader_failover):
            log(f"--- {scenario.__name__}: {scenario.__doc__.splitlines()[0]}")
            scenario(run)
        passed = True
    except (Failure, AssertionError) as e:
        log(f"FAILED: {e}")
    except BaseException as e:
        log(f"FAILED: {type(e).__name__}: {e}")
        traceback.print_exc()
    finally:
        if not passed:
            cluster.save_logs(RESULTS / "logs")
            log(f"container logs: {RESULTS / 'logs'}")
        cluster.down()
    if run:
        timings.update(run.timings)
    report(timings, run.figures if run else {}, passed, time.monotonic() - started)
    return 0 if passed else 1


def build_images():
    """docker/build-images, offline (local bases cached by tag). Where containers cannot run at all, skip."""
    done = subprocess.run([str(ROOT / "docker" / "build-images")], capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        probe = subprocess.run(["docker", "run", "--rm", "drover/debian:bookworm", "true"], capture_output=True,
                               text=True, timeout=120)
        if probe.returncode != 0:
            print(f"\n*** drover-compose-test SKIPPED: Docker cannot run a container here "
                  f"({(probe.stderr.strip().splitlines() or ['?'])[-1]}) ***\n", flush=True)
            sys.exit(0)
        raise SystemExit(f"docker/build-images failed:\n{done.stdout}{done.stderr}")
    for line in done.stdout.splitlines():
        log(line)


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


def free_port():
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def free_ranges(count, size):
    """Runs of free ports above the kernel's ephemeral range and the reps' default 61000-61999, where nothing else
    picks ports: the published instance ports of the two reps."""
    ranges, port = [], 62000
    while len(ranges) < count and port + size < 65000:
        if all(_free(p) for p in range(port, port + size)):
            ranges.append((port, port + size - 1))
        port += size
    if len(ranges) < count:
        raise Failure(f"no {count} runs of {size} free ports between 62000 and 65000")
    return ranges


def _free(port):
    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False


def report(timings, figs, passed, seconds):
    print("\ncompose test " + ("PASSED" if passed else "FAILED") + f" in {seconds:.0f} s; timings (s):")
    for name, value in timings.items():
        print(f"  {name:<62}{value:>7}")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = RESULTS / f"results-{stamp}.json"
    path.write_text(json.dumps({"passed": passed, "seconds": round(seconds), "timings": timings, "figures": figs},
                               indent=2))
    print(f"results: {path.relative_to(ROOT)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
