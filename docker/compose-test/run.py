"""Runs docker-compose.yml for real and drives it through the REST API (docs/compose.md). Started by
./drover-compose-test once Docker works; exits 0 when every scenario passed, 1 otherwise, and removes every container,
network and volume it made either way."""

import json
import signal
import sys
import time
import traceback
from pathlib import Path

import figures
import scenarios
import startup
from cluster import ALL_SERVICES, Cluster, Failure
from receptor import Receptor
from scenarios import Run, log

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "target" / "compose-test"
PROJECT = "drover-compose-test"


def main():
    started = time.monotonic()
    RESULTS.mkdir(parents=True, exist_ok=True)
    timings = {}
    images = time.monotonic()
    try:
        for line in startup.build_images():
            log(line)
    except startup.CannotRun as e:
        print(f"\n*** drover-compose-test SKIPPED: {e} ***\n", flush=True)
        sys.exit(0)
    timings["images built"] = round(time.monotonic() - images, 1)
    log(f"images built: {timings['images built']} s")

    privileged = startup.can_run_privileged()
    env, ranges = startup.environment(privileged)
    cluster = Cluster(ROOT, PROJECT, env)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run, passed = None, False
    try:
        timings["cluster up"] = round(startup.start(cluster, ALL_SERVICES), 1)
        log(f"cluster up (every service healthy): {timings['cluster up']} s")
        run = Run(Receptor(f"http://127.0.0.1:{env['DROVER_RECEPTOR_PORT']}", "drover",
                           env["DROVER_RECEPTOR_PASSWORD"]), cluster,
                  {"rep-1": ranges[0], "rep-2": ranges[1]}, cgroups=privileged,
                  router_port=int(env["DROVER_ROUTER_PORT"]))
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
