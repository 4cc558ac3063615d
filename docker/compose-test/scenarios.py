"""The scenarios of docs/compose.md. Each drives the cluster through the receptor from the host, as a user would, and
checks the API against what the containers really run."""

import calendar
import http.client
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from cluster import DROVER_SERVICES, Failure, eventually
from receptor import host_port, running, simulated, web_server

PRESENCE_TTL = 15  # the reps' presence TTL (docker-compose.yml keeps the default)
LEADER_TTL = 15  # converger and auctioneer leader locks (default)
CELL_OF = {"rep-1": "cell-1", "rep-2": "cell-2"}
REP_OF = {cell: rep for rep, cell in CELL_OF.items()}
WEB_SERVER = "http.server"


def log(message):
    print(f"[compose-test {time.strftime('%H:%M:%S')}] {message}", flush=True)


def expect(condition, message):
    if not condition:
        raise Failure(message)


class Run:
    """What the scenarios share: the API, the cluster, each rep's host port range and the figures measured."""

    def __init__(self, api, cluster, port_ranges, cgroups, router_port):
        self.api = api
        self.router_port = router_port
        self.cgroups = cgroups  # the reps run privileged, so their instances get cgroups
        self.cluster = cluster
        self.port_ranges = port_ranges
        self.timings = {}
        self.figures = {}

    def timed(self, name, seconds, target=None):
        self.timings[name] = round(seconds, 1)
        log(f"{name}: {seconds:.1f} s" + (f" (target <= {target:.0f} s)" if target else ""))
        if target is not None:
            expect(seconds <= target, f"{name} took {seconds:.1f} s, more than {target:.0f} s")


def walkthrough(run):
    """README: desire a web server, reach every instance, scale, restart one index (deleted after the partition)."""
    api = run.api
    expect(api.desire(web_server("web", 3)) == 201, "POST /v1/desired_lrps web was not 201")
    reach_all(run, await_web(run, 3, timeout=120))
    eventually("web answering through the router as web.drover.test",
               lambda: _through_router(run.router_port, "web.drover.test")[0] == 200, 30)
    expect(_through_router(run.router_port, "nobody.drover.test")[0] == 404, "an unknown host was not a 404")
    expect(api.scale("web", 5) == 204, "PUT /v1/desired_lrps/web instances=5 was not 204")
    reach_all(run, await_web(run, 5, timeout=90))
    old = by_index(running(api.actuals("web")))[1]["instance_guid"]
    expect(api.restart("web", 1) == 204, "DELETE /v1/actual_lrps/web/index/1 was not 204")
    restarted, _ = eventually("web index 1 RUNNING as a new instance", lambda: _restarted(api, old), 90)
    reach_all(run, restarted)
    cells = {c["cell_id"] for c in api.cells()}
    expect({"cell-1", "cell-2"} <= cells, f"cells {sorted(cells)} lack cell-1 or cell-2")
    expect(len([c for c in cells if c.startswith("sim-")]) == 50, "the simulated rep did not register 50 cells")
    isolation = {c["cell_id"]: c.get("isolation") for c in api.cells() if c["cell_id"] in REP_OF}
    if run.cgroups:
        expect(all(str(i).startswith("CGROUPS") for i in isolation.values()),
               f"the process cells (root, privileged) should give each instance a cgroup: {isolation}")
    else:
        expect(set(isolation.values()) == {"SAMPLING"}, f"unprivileged process cells should sample: {isolation}")
    log(f"walk-through: web at 5 instances on {sorted({a['cell_id'] for a in restarted})}, each reached; "
        f"isolation {isolation}")


def rep_killed(run):
    """docker kill of a rep: its instances RUNNING on the other rep within the presence TTL + 5 s; clients calling web
    through the router meanwhile lose at most the requests in flight on the killed cell (one per client)."""
    api, cluster = run.api, run.cluster
    web = running(api.actuals("web"))
    lost = {a["index"]: a["instance_guid"] for a in web if a["cell_id"] == "cell-1"}
    expect(len(web) == 5 and lost, f"web should run 5 instances on both cells before the kill: {summary(web)}")
    load = RouterLoad(run.router_port, "web.drover.test", clients=4).start()
    time.sleep(2)
    started = time.monotonic()
    cluster.kill("rep-1")
    detected = None
    while True:
        actuals = api.actuals("web")
        now = time.monotonic() - started
        current = {a["index"]: a for a in actuals}
        if detected is None and any(i not in current or current[i]["instance_guid"] != g for i, g in lost.items()):
            detected = now
        if len(running(actuals)) == 5 and all(a["cell_id"] == "cell-2" for a in running(actuals)):
            break
        expect(now < 120, f"web not RUNNING on cell-2 120 s after rep-1 was killed: {summary(actuals)}")
        time.sleep(0.25)
    run.timed("rep killed: loss detected", detected)
    run.timed("rep killed: instances RUNNING elsewhere", now, target=PRESENCE_TTL + 5)
    time.sleep(2)
    calls, failures, slowest = load.stop()
    run.timings["router during the rep kill: requests"] = calls
    run.timings["router during the rep kill: failed"] = len(failures)
    run.timings["router during the rep kill: slowest request"] = round(slowest, 2)
    log(f"router during the rep kill: {calls} requests, {len(failures)} failed (bound: the {load.clients} requests "
        f"at most in flight on cell-1 when it died), slowest {slowest:.2f} s; failures: {failures[:5]}")
    expect(calls > 100, f"the router clients made only {calls} requests")
    expect(len(failures) <= load.clients, f"{len(failures)} requests through the router failed, more than the "
           f"{load.clients} that can have been in flight on cell-1: {failures[:10]}")
    reach_all(run, running(actuals))
    guids = guid_by_index(actuals)
    cluster.start("rep-1")
    cluster.await_healthy(["rep-1"], 180)
    eventually("cell-1 heartbeats again", lambda: fresh(api, "cell-1"), 60)
    expect(cluster.processes("rep-1", WEB_SERVER) == 0, "rep-1 came back running web servers")
    expect(guid_by_index(api.actuals("web")) == guids, "web's instances changed when rep-1 came back")


def partition(run):
    """docker network disconnect of a rep whose processes keep running: replaced elsewhere; after the reconnect the
    rep stops its duplicates and the API never shows two RUNNING instances of one index. Then web is deleted."""
    api, cluster = run.api, run.cluster
    web = running(api.actuals("web"))
    expect(len(web) == 5 and all(a["cell_id"] == "cell-2" for a in web), f"web should be on cell-2: {summary(web)}")
    expect(cluster.processes("rep-2", WEB_SERVER) == 5, "rep-2 does not run the 5 web servers the API shows")
    started = time.monotonic()
    cluster.disconnect("rep-2")
    replaced, seconds = eventually("web RUNNING on cell-1 while rep-2 is cut off", lambda: _all_on(api, "cell-1"), 120)
    run.timed("partition: instances RUNNING elsewhere", seconds, target=PRESENCE_TTL + 5)
    expect(cluster.processes("rep-2", WEB_SERVER) == 5, "the cut-off rep-2 should still run its 5 web servers")
    replacements = guid_by_index(replaced)
    reconnected = time.monotonic()
    cluster.connect("rep-2")
    samples, healed = 0, None
    while healed is None or time.monotonic() - healed < 5:
        samples += 1
        no_duplicate(api.actuals("web"), replacements)
        if healed is None and cluster.processes("rep-2", WEB_SERVER) == 0 and fresh(api, "cell-2"):
            healed = time.monotonic()
            run.timed("partition: healed (duplicates stopped)", healed - reconnected)
        expect(time.monotonic() - reconnected < 120, "rep-2 still runs duplicates 120 s after the reconnect")
        time.sleep(0.2)
    log(f"partition: {samples} API samples after the reconnect, never two RUNNING instances of one index "
        f"({time.monotonic() - started:.0f} s in all)")
    reach_all(run, running(api.actuals("web")))
    expect(api.delete("web") == 204, "DELETE /v1/desired_lrps/web was not 204")
    eventually("web gone from the API and from both reps", lambda: not api.actuals("web") and sum(
        cluster.processes(r, WEB_SERVER) for r in CELL_OF) == 0, 90)


def outages(run):
    """Kafka's container stopped for 60 s and PostgreSQL's restarted meanwhile, under a desire burst: no service exits
    and every desire the receptor accepted ends up RUNNING."""
    api, cluster = run.api, run.cluster
    before = cluster.lifetimes(DROVER_SERVICES)
    burst = Burst(api)
    burst.start()
    time.sleep(3)
    kafka_stopped = time.monotonic()
    cluster.stop("kafka")
    burst.mark("kafka down")
    time.sleep(5)
    restarting = time.monotonic()
    cluster.restart("postgres")
    cluster.await_healthy(["postgres"], 120)
    run.timed("outages: postgres restarted (healthy again)", time.monotonic() - restarting)
    time.sleep(max(0.0, 60 - (time.monotonic() - kafka_stopped)))
    cluster.start("kafka")
    cluster.await_healthy(["kafka"], 120)
    kafka_back = time.monotonic()
    burst.mark("kafka back")
    time.sleep(3)
    burst.stop()
    log(f"burst: {burst.describe()}")
    expect(not burst.unexpected, f"the receptor answered outside 201/503: {burst.unexpected[:5]}")
    expect(burst.accepted_between("kafka down", "kafka back") > 0, "no desire was accepted while Kafka was down")
    accepted = set(burst.accepted)
    desired = {d["process_guid"] for d in api.desired(domain="burst")}
    expect(accepted <= desired, f"accepted desires lost: {sorted(accepted - desired)[:10]}")
    _, seconds = eventually("every accepted desire RUNNING", lambda: _burst_running(api, accepted), 240, interval=2)
    run.timed("outages: all accepted desires RUNNING after Kafka returned", time.monotonic() - kafka_back)
    after = cluster.lifetimes(DROVER_SERVICES)
    exited = [s for s in DROVER_SERVICES if after[s] != before[s] or not after[s][0]]
    expect(not exited, f"services exited or restarted during the outages: {exited}")
    delete_all(api, desired)
    eventually("burst LRPs deleted", lambda: not api.actuals(domain="burst"), 120, interval=2)


def leader_failover(run):
    """docker kill of the active converger and auctioneer: each standby takes over within the leader TTL (plus one
    renewal period: a standby tries every TTL/3), and the cluster still places and converges."""
    api, cluster = run.api, run.cluster
    active = {lock: _leader(cluster, lock) for lock in ("converger", "auctioneer")}
    standby = {lock: f"{lock}-2" if active[lock].endswith("-1") else f"{lock}-1" for lock in active}
    log(f"leaders: {active}; killing both")
    since = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() - 1))
    for service in active.values():
        cluster.kill(service)
    killed = time.time()
    pending = dict(standby)
    while pending:
        for lock, service in list(pending.items()):
            elected = _elected_at(cluster.logs(service, since=since), lock)
            if elected:
                # From the log's own time stamp: reading logs on a busy machine takes seconds of its own.
                run.timed(f"failover: {lock} standby took over", elected - killed,
                          target=LEADER_TTL + LEADER_TTL / 3 + 2)
                del pending[lock]
        expect(time.time() - killed < 90, f"no standby took over within 90 s: {pending}")
        time.sleep(0.5)
    passes = _passes(cluster, standby["converger"])
    expect(api.desire(simulated("after-failover", 3, "failover")) == 201, "desire after the failover was not 201")
    eventually("a desire placed by the new auctioneer RUNNING", lambda: len(running(api.actuals("after-failover")))
               == 3, 60)
    eventually("the new converger runs passes", lambda: _passes(cluster, standby["converger"]) > passes, 60, 1)
    expect(api.delete("after-failover") == 204, "DELETE after-failover was not 204")


class Burst:
    """Desires simulated LRPs one after another from a thread, recording what the receptor answered."""

    def __init__(self, api):
        self.api = api
        self.accepted, self.rejected, self.unexpected, self.marks, self.times = [], 0, [], {}, {}
        self._running = False
        self._pool = ThreadPoolExecutor(1)

    def start(self):
        self._running = True
        self._future = self._pool.submit(self._run)

    def _run(self):
        i = 0
        while self._running:
            guid = f"burst-{i:04d}"
            i += 1
            try:
                status = self.api.desire(simulated(guid, 2, "burst"))
            except OSError as e:
                self.unexpected.append((guid, str(e)))
                continue
            if status == 201:
                self.accepted.append(guid)
                self.times[guid] = time.monotonic()
            elif status == 503:
                self.rejected += 1
            else:
                self.unexpected.append((guid, status))
            time.sleep(0.2)

    def mark(self, name):
        self.marks[name] = time.monotonic()

    def accepted_between(self, start, end):
        return len([g for g in self.accepted if self.marks[start] <= self.times[g] <= self.marks[end]])

    def stop(self):
        self._running = False
        self._future.result(timeout=60)

    def describe(self):
        return (f"{len(self.accepted)} desires accepted ({self.accepted_between('kafka down', 'kafka back')} while "
                f"Kafka was down), {self.rejected} answered 503, {len(self.unexpected)} other")


class RouterLoad:
    """Clients calling a host through the router over and over, one request at a time each, never retrying."""

    def __init__(self, port, host, clients):
        self.port, self.host, self.clients = port, host, clients
        self.calls, self.failures, self.slowest = 0, [], 0.0
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.threads = [threading.Thread(target=self._run, daemon=True) for _ in range(clients)]

    def start(self):
        for t in self.threads:
            t.start()
        return self

    def _run(self):
        while not self.stopped.is_set():
            began = time.monotonic()
            status, body = _through_router(self.port, self.host)
            with self.lock:
                self.calls += 1
                self.slowest = max(self.slowest, time.monotonic() - began)
                if status != 200:
                    self.failures.append(f"{status} {body[:120]}")

    def stop(self):
        self.stopped.set()
        for t in self.threads:
            t.join(30)
        return self.calls, list(self.failures), self.slowest


def _through_router(port, host):
    """GET / through the router with the given Host: (status, body), status -1 when the call itself failed."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", "/", headers={"Host": host})
            response = conn.getresponse()
            return response.status, response.read().decode(errors="replace")
        finally:
            conn.close()
    except (OSError, http.client.HTTPException) as e:
        return -1, repr(e)


def await_web(run, n, timeout):
    def ready():
        web = running(run.api.actuals("web"))
        return web if sorted(a["index"] for a in web) == list(range(n)) else None
    return eventually(f"web: {n} instances RUNNING", ready, timeout)[0]


def reach_all(run, actuals):
    """Every instance answers on its host port from the host, and at its advertised address inside the network."""
    for a in actuals:
        rep = REP_OF[a["cell_id"]]
        low, high = run.port_ranges[rep]
        port = host_port(a)
        expect(a["address"] == rep, f"instance {a['index']} on {a['cell_id']} advertises {a['address']}, not {rep}")
        expect(low <= port <= high, f"instance {a['index']}: host port {port} outside {rep}'s {low}-{high}")
        eventually(f"web/{a['index']} answering on 127.0.0.1:{port}", lambda: "Directory listing" in _get(port), 30)
        inside = run.cluster.exec("receptor", "curl", "-fsS", "-m", "5", f"http://{rep}:{port}/")
        expect("Directory listing" in inside, f"web/{a['index']} not reachable at {rep}:{port} in the network")


def no_duplicate(actuals, expected):
    """At most one RUNNING record per index, and it is the replacement started while the rep was cut off."""
    seen = {}
    for a in running(actuals):
        expect(a["index"] not in seen, f"two RUNNING instances of web/{a['index']}: {summary(actuals)}")
        seen[a["index"]] = a["instance_guid"]
        expect(a["instance_guid"] == expected.get(a["index"]),
               f"web/{a['index']} RUNNING as {a['instance_guid']} on {a['cell_id']}, not its replacement")


def delete_all(api, guids):
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(api.delete, sorted(guids)))
    expect(all(s == 204 for s in statuses), f"deletes answered {sorted(set(statuses))}")


def fresh(api, cell_id):
    """The cell's presence is live (its rep heartbeats)."""
    cells = {c["cell_id"]: c for c in api.cells()}
    cell = cells.get(cell_id)
    return cell is not None and cell["expires_at"] > time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())


def summary(actuals):
    return ", ".join(f"{a['index']}:{a['state']}@{a['cell_id']}" for a in sorted(actuals, key=lambda a: a["index"]))


def by_index(actuals):
    return {a["index"]: a for a in actuals}


def guid_by_index(actuals):
    return {a["index"]: a["instance_guid"] for a in running(actuals)}


def _restarted(api, old):
    web = running(api.actuals("web"))
    one = by_index(web).get(1)
    return web if len(web) == 5 and one and one["instance_guid"] != old else None


def _all_on(api, cell):
    web = running(api.actuals("web"))
    return web if len(web) == 5 and all(a["cell_id"] == cell for a in web) else None


def _burst_running(api, guids):
    counts = {}
    for a in running(api.actuals(domain="burst")):
        counts[a["process_guid"]] = counts.get(a["process_guid"], 0) + 1
    missing = [g for g in guids if counts.get(g) != 2]
    if missing:
        raise Failure(f"{len(missing)} accepted desires not RUNNING yet, e.g. {missing[:3]}")
    return True


def _leader(cluster, lock):
    """The service whose log last says it was elected for the lock and has not said it lost it since."""
    leaders = []
    for service in (f"{lock}-1", f"{lock}-2"):
        events = [line for line in cluster.logs(service).splitlines()
                  if f"lock={lock} " in line and ("leader-elected" in line or "leader-revoked" in line)]
        if events and "leader-elected" in events[-1]:
            leaders.append(service)
    expect(len(leaders) == 1, f"expected one active {lock}, found {leaders}")
    return leaders[0]


def _elected_at(log_text, lock):
    """When the log says this instance was elected for the lock (its ISO time stamp, UTC, as epoch seconds), or None."""
    for line in log_text.splitlines():
        if f"leader-elected lock={lock} " in line:
            whole, _, fraction = line.split()[0].rstrip("Z").partition(".")
            return calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) + float("0." + (fraction or "0"))
    return None


def _passes(cluster, service):
    for line in cluster.metrics(service).splitlines():
        if line.startswith("drover_convergence_passes_total") and 'result="ok"' in line:
            return float(line.split()[-1])
    return 0.0


def _get(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
        return response.read().decode(errors="replace")
