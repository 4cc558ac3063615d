"""Per-service figures with 10,000 simulated instances (SPEC 11 P5, one JVM per container): heap after a forced GC,
container memory, CPU spent placing and starting them, and CPU at rest afterwards."""

import shutil
import time
from concurrent.futures import ThreadPoolExecutor

from cluster import ALL_SERVICES, DROVER_SERVICES, eventually, sh
from receptor import running, simulated
from scenarios import expect, log

LRPS, INSTANCES = 100, 100
IDLE_SECONDS = 20


def measure(run):
    """Per service with 10,000 simulated instances: heap after GC, memory, CPU to start them and CPU at rest."""
    api, cluster = run.api, run.cluster
    cpu_before = {s: cluster.cpu_seconds(s) for s in ALL_SERVICES}
    started = time.monotonic()
    guids = [f"fig-{i:03d}" for i in range(LRPS)]
    with ThreadPoolExecutor(4) as pool:
        statuses = list(pool.map(lambda g: api.desire(simulated(g, INSTANCES, "figures")), guids))
    expect(all(s == 201 for s in statuses), f"figure desires answered {sorted(set(statuses))}")
    total = LRPS * INSTANCES
    # The rep's own gauge, read inside its container: polling 10,000 records through the receptor would be measured too.
    eventually(f"{total} simulated containers running", lambda: _running_containers(cluster) >= total, 300, 1)
    seconds = time.monotonic() - started
    cpu_burst = {s: cluster.cpu_seconds(s) - cpu_before[s] for s in ALL_SERVICES}
    running_now = len(running(api.actuals(domain="figures")))
    expect(running_now == total, f"the API shows {running_now} of {total} figure instances RUNNING")
    run.timed(f"figures: {total} simulated instances RUNNING", seconds)
    time.sleep(5)
    cpu_rest = {s: cluster.cpu_seconds(s) for s in ALL_SERVICES}
    time.sleep(IDLE_SECONDS)
    idle = {s: (cluster.cpu_seconds(s) - cpu_rest[s]) / IDLE_SECONDS * 100 for s in ALL_SERVICES}
    heap = {s: _heap_after_gc(cluster, s) for s in DROVER_SERVICES + ["kafka"]}
    memory = cluster.memory_bytes()
    limits = {s: cluster.inspect(s)["HostConfig"]["Memory"] for s in ALL_SERVICES}
    run.figures = {s: {"heap_after_gc_mb": _mb(heap.get(s)), "container_memory_mb": _mb(memory.get(s)),
                       "memory_limit_mb": _mb(limits[s]), "cpu_s_for_10k": round(cpu_burst[s], 1),
                       "idle_cpu_pct_core": round(idle[s], 1)} for s in ALL_SERVICES}
    run.figures["_run"] = {"instances": total, "seconds_to_running": round(seconds, 1),
                           "instances_per_s": round(total / seconds)}
    print(table(run.figures), flush=True)
    for s in ALL_SERVICES:
        heap_mb, limit_mb = run.figures[s]["heap_after_gc_mb"], run.figures[s]["memory_limit_mb"]
        expect(heap_mb is None or heap_mb <= 512, f"{s}: heap after GC {heap_mb} MB, above SPEC P5's 512 MB")
        expect(memory.get(s) is None or memory[s] < limits[s], f"{s}: at its memory limit")
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(api.delete, guids))


def table(figures):
    rows = [f"{'service':<14}{'heap after GC':>15}{'memory':>10}{'limit':>8}{'CPU for 10k':>13}{'idle CPU':>10}"]
    for s in ALL_SERVICES:
        f = figures[s]
        heap = "-" if f["heap_after_gc_mb"] is None else f"{f['heap_after_gc_mb']} MB"
        rows.append(f"{s:<14}{heap:>15}{f['container_memory_mb']:>7} MB{f['memory_limit_mb']:>5} MB"
                    f"{f['cpu_s_for_10k']:>11} s{f['idle_cpu_pct_core']:>8} %")
    return "\n".join(rows)


def _running_containers(cluster):
    for line in cluster.metrics("rep-sim").splitlines():
        if line.startswith('drover_rep_containers{state="running"}'):
            return float(line.split()[-1])
    return 0


def _heap_after_gc(cluster, service):
    """jcmd from the host (the images carry a JRE only) forces a full GC, then the heap in use is read: from the
    service's own metrics, or jcmd's heap summary for the broker, which has none."""
    if not shutil.which("jcmd"):
        log("no jcmd on this machine: heap after GC not measured")
        return None
    pid = cluster.java_pid(service)
    sh("jcmd", pid, "GC.run", timeout=60)
    if service == "kafka":
        return _heap_info_used(sh("jcmd", pid, "GC.heap_info", timeout=60))
    used = [float(line.split()[-1]) for line in cluster.metrics(service).splitlines()
            if line.startswith("jvm_memory_used_bytes") and 'area="heap"' in line]
    return sum(used)


def _heap_info_used(text):
    """Sums the 'used' of each generation (Serial, Parallel) or of the G1 heap in jcmd GC.heap_info."""
    total = 0
    for line in text.splitlines():
        words = line.replace(",", " ").split()
        if words and words[0] in ("def", "tenured", "garbage-first", "PSYoungGen", "ParOldGen") and "used" in words:
            total += int(words[words.index("used") + 1].rstrip("K")) * 1024
    return total


def _mb(value):
    return None if value is None else round(value / 2 ** 20)
