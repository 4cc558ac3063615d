"""./drover-compose-test --ha: docker-compose.ha.yml for real, one fault after the other under a steady load of desires,
scales and task submits (docs/ha.md). After each: no acknowledged write lost, no duplicate instance, every instance at
its desired count within the stated time, and (Kafka faults) the lifecycle topic tells each instance's story in the
order of lrp_events. Exits 0 when every scenario passed; removes every container, network and volume it made."""

import json
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

from cluster import Cluster, Failure, eventually, sh
from receptor import Receptor, running
from startup import free_port
from scenarios import _elected_at, _leader, expect, log

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "target" / "compose-test"
PROJECT = "drover-compose-ha"
KAFKA = ["kafka-1", "kafka-2", "kafka-3"]
POSTGRES = ["pg-1", "pg-2"]
DROVER = ["receptor-1", "receptor-2", "converger-1", "converger-2", "auctioneer-1", "auctioneer-2", "rep-a", "rep-b"]
SERVICES = ["etcd"] + POSTGRES + KAFKA + DROVER
BOOTSTRAP = ",".join(f"{k}:9092" for k in KAFKA)
CONVERGED_WITHIN = 120  # s after the load's last write, every instance of the load at its desired count
LEADER_TTL = 15
PATRONI_TTL = 20  # docker/patroni/drover-patroni: the primary's leader key in etcd


def main():
    started = time.monotonic()
    RESULTS.mkdir(parents=True, exist_ok=True)
    timings, figures = {}, {}
    t = time.monotonic()
    done = subprocess.run([str(ROOT / "docker" / "build-images"), "--ha"], capture_output=True, text=True,
                          timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"docker/build-images --ha failed:\n{done.stdout}{done.stderr}")
    timings["images built"] = round(time.monotonic() - t, 1)
    ports = [free_port(), free_port()]
    password = secrets.token_hex(12)
    env = {"DROVER_RECEPTOR_PORT": str(ports[0]), "DROVER_RECEPTOR_2_PORT": str(ports[1]),
           "DROVER_RECEPTOR_PASSWORD": password, "DROVER_IMAGE_TAG": os.environ.get("DROVER_IMAGE_TAG", "dev")}
    cluster = Cluster(ROOT, PROJECT, env, files=("docker-compose.ha.yml",), profiles=(), services=SERVICES)
    cluster.down()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    passed = False
    try:
        t = time.monotonic()
        cluster.compose("up", "-d", "--no-build", timeout=900)
        cluster.await_healthy(SERVICES, 900)
        timings["cluster up"] = round(time.monotonic() - t, 1)
        log(f"cluster up (every service healthy): {timings['cluster up']} s")
        api = Api([Receptor(f"http://127.0.0.1:{p}", "drover", password) for p in ports])
        expect(api.call("PUT", "/v1/domains/ha")[0] == 204, "PUT /v1/domains/ha was not 204")
        ha = Ha(api, cluster, timings, figures)
        failed = []
        for scenario in (broker_leader_killed, primary_killed, primary_partitioned, converger_and_broker_killed):
            log(f"--- {scenario.__name__}: {scenario.__doc__.splitlines()[0]}")
            try:
                scenario(ha)
                figures[f"{scenario.__name__}"] = "passed"
            except (Failure, AssertionError) as e:
                # the next scenario still runs, on the cluster made whole again: one run says how each fault went
                log(f"FAILED {scenario.__name__}: {e}")
                figures[f"{scenario.__name__}"] = f"FAILED: {e}"[:500]
                failed.append(scenario.__name__)
                Load.stop_all()
                for service in SERVICES:
                    if not ha.cluster.inspect(service)["NetworkSettings"]["Networks"]:
                        ha.cluster.connect(service)
                cluster.compose("up", "-d", "--no-build", timeout=900)
                cluster.await_healthy(SERVICES, 600)
        expect(not failed, f"scenarios failed: {', '.join(failed)}")
        passed = True
    except (Failure, AssertionError) as e:
        log(f"FAILED: {e}")
    except BaseException as e:
        log(f"FAILED: {type(e).__name__}: {e}")
        traceback.print_exc()
    finally:
        if not passed:
            cluster.save_logs(RESULTS / "ha-logs")
            log(f"container logs: {RESULTS / 'ha-logs'}")
        cluster.down()
    seconds = time.monotonic() - started
    print("\nHA compose test " + ("PASSED" if passed else "FAILED") + f" in {seconds:.0f} s; timings (s):")
    for name, value in timings.items():
        print(f"  {name:<70}{value:>7}")
    path = RESULTS / f"ha-results-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps({"passed": passed, "seconds": round(seconds), "timings": timings,
                                "figures": figures}, indent=2))
    print(f"results: {path.relative_to(ROOT)}", flush=True)
    return 0 if passed else 1


class Api:
    """The two receptors: a call goes to the first and, when it cannot be reached, to the second."""

    def __init__(self, receptors):
        self.receptors = receptors

    def call(self, method, path, body=None, timeout=10):
        error = None
        for receptor in self.receptors:
            try:
                return receptor.call(method, path, body, timeout=timeout)
            except OSError as e:
                error = e
        raise error

    def get(self, path, timeout=30):
        status, body = self.call("GET", path, timeout=timeout)
        if status != 200:
            raise Failure(f"GET {path} answered {status}: {body}")
        return body


class Ha:
    def __init__(self, api, cluster, timings, figures):
        self.api, self.cluster, self.timings, self.figures = api, cluster, timings, figures

    def timed(self, name, seconds, target=None):
        self.timings[name] = round(seconds, 1)
        log(f"{name}: {seconds:.1f} s" + (f" (target <= {target:.0f} s)" if target else ""))
        if target is not None:
            expect(seconds <= target, f"{name} took {seconds:.1f} s, more than {target:.0f} s")

    # --- what the engines say

    def kafka_leaders(self, via):
        out = self.cluster.exec(via, "java", "-cp", "/home/drover/app/app.jar", "io.drover.cluster.KafkaProbe",
                                "leaders", BOOTSTRAP, timeout=120)
        leaders, state = {}, {}
        for line in out.splitlines():
            words = line.split()
            if len(words) == 3 and words[0] == "leader":
                leaders[f"kafka-{words[1]}"] = int(words[2])
            elif len(words) == 2 and words[0] in ("under-replicated", "offline"):
                state[words[0]] = int(words[1])
        return leaders, state

    def kafka_trail(self, via, prefix):
        out = self.cluster.exec(via, "java", "-cp", "/home/drover/app/app.jar", "io.drover.cluster.KafkaProbe",
                                "trail", BOOTSTRAP, prefix, timeout=180)
        trail = {}
        for line in out.splitlines():
            if "\t" in line:
                key, steps = line.split("\t", 1)
                lrp_steps = [s for s in steps.split(",") if s.startswith(("desired_lrp_", "actual_lrp_"))]
                if lrp_steps:
                    trail[key] = ",".join(lrp_steps)
        return trail

    def database_trail(self, prefix):
        """The LRP events lrp_events holds for the prefix, as KafkaProbe's trail prints them: only the rows that are
        also lifecycle events (a payload), of desired and actual LRPs (tasks and deployments share the topic)."""
        out = self.psql(self.primary(), "SELECT process_guid || '/' || coalesce(instance_index::text, '-') || "
                        "chr(9) || event_type || coalesce('>' || to_state, '') FROM lrp_events "
                        f"WHERE process_guid LIKE '{prefix}%' AND entity IN ('desired', 'actual') "
                        "AND payload IS NOT NULL ORDER BY id")
        trail = {}
        for line in out.splitlines():
            key, step = line.split("\t", 1)
            trail.setdefault(key, []).append(step)
        return {key: ",".join(steps) for key, steps in trail.items()}

    def psql(self, node, sql):
        return self.cluster.exec(node, "psql", "-h", "/var/run/postgresql", "-U", "postgres", "-d", "drover", "-AtX",
                                 "-c", sql, timeout=60)

    def is_primary(self, node):
        """Patroni's own answer, from inside the node's container (so also while it is cut off the network)."""
        try:
            out = sh("docker", "exec", self.cluster.container(node), "curl", "-s", "-o", "/dev/null", "-w",
                     "%{http_code}", "-m", "3", "http://localhost:8008/primary", check=False, timeout=20)
            return out.strip() == "200"
        except (Failure, subprocess.SubprocessError):
            return False

    def is_replica(self, node):
        out = sh("docker", "exec", self.cluster.container(node), "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                 "-m", "3", "http://localhost:8008/replica", check=False, timeout=20)
        return out.strip() == "200"

    def primary(self):
        primaries = [n for n in POSTGRES if self.is_primary(n)]
        if len(primaries) != 1:
            raise Failure(f"expected one PostgreSQL primary, found {primaries}")
        return primaries[0]

    def lost_cell_judgements(self, since):
        """Convergence passes that unclaimed instances or failed tasks for lost cells since then (the freeze rule)."""
        found = []
        for service in ("converger-1", "converger-2"):
            for line in self.cluster.logs(service, since=since).splitlines():
                if ("convergence-pass trigger=" in line and " lost-cell=0 " not in line) or \
                        ("task-convergence tasks=" in line and " failed_lost_cell=0 " not in line):
                    found.append(f"{service}: {line[:300]}")
        return found

    def freezes(self, since):
        """The graces the convergers started because the database had been away (the freeze rule, docs/ha.md)."""
        return sum(1 for service in ("converger-1", "converger-2")
                   for line in self.cluster.logs(service, since=since).splitlines()
                   if "converger-database-back-cell-grace" in line or "after=database-unreachable" in line)

    # --- checks after a fault

    def check(self, load, fault, ordering=False):
        """After the load stopped (the fault, at monotonic time `fault`, over): no acknowledged write lost, every
        instance at its desired count (one RUNNING record per index, none beyond) within CONVERGED_WITHIN of the load's
        last write, and (ordering) the lifecycle topic in lrp_events' order."""
        name = load.prefix.rstrip("-")
        log(f"load: {load.describe()}")
        expect(not load.unexpected, f"answers other than 2xx/409/503: {load.unexpected[:5]}")
        desired = {d["process_guid"]: d["instances"] for d in self.api.get("/v1/desired_lrps?domain=ha")
                   if d["process_guid"].startswith(load.prefix)}
        lost = [g for g in load.acked_lrps() if g not in desired]
        expect(not lost, f"acknowledged desires lost: {lost[:10]}")
        wrong = {g: (desired[g], sorted(load.possible[g])) for g in load.possible
                 if g in desired and desired[g] not in load.possible[g]}
        expect(not wrong, f"instances not what an acknowledged (or a later unanswered) write said: {wrong}")
        missing_tasks, failed_tasks = [], []
        for guid in load.acked_tasks:
            status, task = self.api.call("GET", f"/v1/tasks/{guid}")
            if status != 200:
                missing_tasks.append((guid, status))
            elif task.get("failed"):
                failed_tasks.append((guid, task.get("failure_reason")))
        expect(not missing_tasks, f"acknowledged tasks lost: {missing_tasks[:10]}")
        expect(not failed_tasks, f"tasks failed: {failed_tasks[:10]}")
        self.figures[f"{name}: acknowledged writes"] = load.acked_writes()
        self.figures[f"{name}: acknowledged writes lost"] = 0

        def converged():
            actuals = [a for a in self.api.get("/v1/actual_lrps?domain=ha", timeout=60)
                       if a["process_guid"].startswith(load.prefix)]
            by_index, problems = {}, []
            for a in running(actuals):
                key = (a["process_guid"], a["index"])
                if key in by_index:
                    raise Failure(f"duplicate: two RUNNING records for {key}")
                by_index[key] = a
            for guid, instances in desired.items():
                have = sorted(i for (g, i) in by_index if g == guid)
                if have != list(range(instances)):
                    problems.append(f"{guid}: RUNNING {have}, desired {instances}")
            extra = [a for a in actuals if a["index"] >= desired.get(a["process_guid"], 0)]
            if problems or extra:
                raise Failure("; ".join(problems[:5]) + (f"; {len(extra)} instances beyond" if extra else ""))
            return True
        _, _ = eventually(f"{name}: every instance at its desired count", converged,
                          max(5, CONVERGED_WITHIN - (time.monotonic() - load.stopped)), interval=2)
        self.timed(f"{name}: every instance at its desired count after the last write", time.monotonic() - load.stopped,
                   target=CONVERGED_WITHIN)
        self.timed(f"{name}: every instance at its desired count after the fault", time.monotonic() - fault)
        self.figures[f"{name}: duplicate instances after recovery"] = 0
        if ordering:
            via = next(k for k in KAFKA if self.cluster.health(k) == "healthy")

            def same_story():
                database, topic = self.database_trail(load.prefix), self.kafka_trail(via, load.prefix)
                differ = {k: (database.get(k), topic.get(k)) for k in set(database) | set(topic)
                          if database.get(k) != topic.get(k)}
                if differ:
                    raise Failure(f"{len(differ)} instances differ, e.g. {list(differ.items())[:2]}")
                return len(database)
            keys, _ = eventually(f"{name}: the lifecycle topic in lrp_events' order", same_story, 120, interval=5)
            log(f"{name}: {keys} instances' lifecycle events in the same order on Kafka as in lrp_events")


class Load:
    """One client desiring LRPs of 1-4 simulated instances, scaling them and submitting tasks, one call after the
    other, through either receptor. Per LRP it keeps the instance counts it may have now: the last acknowledged one,
    plus any unanswered or refused after it (such a write may still have been stored)."""

    def __init__(self, api, prefix, lrps=8):
        self.api, self.prefix, self.lrps = api, prefix, lrps
        self.possible, self.acked, self.acked_tasks, self.answers, self.unexpected = {}, set(), [], {}, []
        self.writes = []  # (monotonic time sent, answered, acknowledged?)
        self.stopped = None
        self.marks = {}
        self._running = False
        self._random = random.Random(prefix)

    started = []

    @classmethod
    def stop_all(cls):
        for load in cls.started:
            if load._running:
                load.stop()

    def start(self):
        Load.started.append(self)
        self._running = True
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._running = False
        self._thread.join(timeout=60)
        self.stopped = time.monotonic()

    def mark(self, name):
        self.marks[name] = time.monotonic()

    def first_write_after(self, mark):
        """Seconds from the mark (taken once the fault took effect) to the first acknowledgement of a write sent after
        it: the writes are sent one after the other, so this is how long clients could not write."""
        times = [answered for sent, answered, ok in self.writes if ok and sent >= self.marks[mark]]
        return min(times) - self.marks[mark] if times else None

    def acked_lrps(self):
        return sorted(self.acked)

    def acked_writes(self):
        return sum(1 for _, _, ok in self.writes if ok)

    def _run(self):
        n, i = 0, 0
        while self._running:
            i += 1
            guid = None
            if len(self.possible) < self.lrps or i % 3 == 0:
                if len(self.possible) < self.lrps:
                    guid = f"{self.prefix}lrp-{n}"
                    n += 1
                    status = self._call("POST", "/v1/desired_lrps", lrp(guid, 2))
                    if status in (201, 409):
                        self.acked.add(guid)
                        self._remember(guid, 2, True)
                    elif guid not in self.possible and status != 400:
                        self._remember(guid, 2, False)
                else:
                    task = f"{self.prefix}task-{i}"
                    status = self._call("POST", "/v1/tasks", {
                        "task_guid": task, "domain": "ha", "rootfs": "preloaded:host", "memory_mb": 1, "disk_mb": 1,
                        "action": {"run": {"path": "true"}}})
                    if status == 201:
                        self.acked_tasks.append(task)
            else:
                guid = self._random.choice(sorted(self.acked)) if self.acked else None
                if guid:
                    instances = self._random.randint(1, 4)
                    status = self._call("PUT", f"/v1/desired_lrps/{guid}", {"instances": instances})
                    self._remember(guid, instances, status == 204)
            time.sleep(0.1)

    def _call(self, method, path, body):
        sent = time.monotonic()
        try:
            status = self.api.call(method, path, body, timeout=10)[0]
        except OSError:
            status = -1  # no answer: the write may or may not have been stored
        self.answers[status] = self.answers.get(status, 0) + 1
        if status not in (-1, 200, 201, 204, 409, 503):
            self.unexpected.append((method, path, status))
        self.writes.append((sent, time.monotonic(), 200 <= status < 300))
        return status

    def _remember(self, guid, instances, stored):
        counts = self.possible.setdefault(guid, set())
        if stored:
            counts.clear()
        counts.add(instances)

    def describe(self):
        return f"{self.acked_writes()} writes acknowledged, answers {dict(sorted(self.answers.items()))}"


def lrp(guid, instances):
    return {"process_guid": guid, "domain": "ha", "rootfs": "preloaded:host", "instances": instances,
            "memory_mb": 16, "disk_mb": 16, "action": {"run": {"path": "sleep", "args": ["infinity"]}}}


def _since():
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() - 1))


def broker_leader_killed(ha):
    """docker kill of the Kafka broker that leads most partitions under load: leadership moves to the other two, no
    acknowledged write is lost, and each instance's events reach the lifecycle topic in order."""
    leaders, state = ha.kafka_leaders("kafka-1")
    victim = max(leaders, key=leaders.get)
    log(f"partition leaders {leaders}, {state}: killing {victim}")
    via = next(k for k in KAFKA if k != victim)
    load = Load(ha.api, "broker-").start()
    time.sleep(10)
    ha.cluster.kill(victim)
    load.mark("killed")
    killed = time.monotonic()

    def moved():
        now, st = ha.kafka_leaders(via)
        return now.get(victim, 0) == 0 and st.get("offline", 1) == 0 and now
    after, _ = eventually("partition leadership moved off the killed broker", moved, 90, interval=1)
    ha.timed("broker killed: every partition led by the other two", time.monotonic() - killed, target=60)
    log(f"leaders now {after}")
    time.sleep(15)
    load.stop()
    expect(load.first_write_after("killed") is not None, "no write acknowledged after the broker was killed")
    ha.timed("broker killed: first acknowledged write after the kill", load.first_write_after("killed"))
    ha.check(load, killed, ordering=True)
    ha.cluster.start(victim)
    t = time.monotonic()
    ha.cluster.await_healthy([victim], 300)
    eventually("every partition fully replicated again", lambda: ha.kafka_leaders(via)[1].get("under-replicated")
               == 0, 180, interval=3)
    ha.timed("broker killed: back in every ISR after its restart", time.monotonic() - t)


def primary_killed(ha):
    """docker kill of the PostgreSQL primary under load: Patroni promotes the synchronous standby, the services find it
    by themselves (no restart), no acknowledged write is lost, and no cell is judged lost meanwhile."""
    old = ha.primary()
    new = next(n for n in POSTGRES if n != old)
    before = ha.cluster.lifetimes(DROVER)
    load = Load(ha.api, "primary-").start()
    time.sleep(10)
    since = _since()
    ha.cluster.kill(old)
    load.mark("killed")
    killed = time.monotonic()
    log(f"killed the primary {old}")
    eventually(f"{new} promoted", lambda: ha.is_primary(new), PATRONI_TTL + 60, interval=0.5)
    ha.timed("primary killed: standby promoted", time.monotonic() - killed, target=PATRONI_TTL + 30)
    eventually("a write acknowledged after the kill", lambda: load.first_write_after("killed"), 120, interval=0.5)
    ha.timed("primary killed: first acknowledged write after the kill", load.first_write_after("killed"))
    time.sleep(15)
    load.stop()
    ha.check(load, killed)
    judged = ha.lost_cell_judgements(since)
    expect(not judged, f"cells judged lost while the database failed over: {judged[:3]}")
    ha.figures[f"{load.prefix.rstrip('-')}: cells judged lost"] = 0
    ha.figures[f"{load.prefix.rstrip('-')}: converger graces after the database was away"] = ha.freezes(since)
    after = ha.cluster.lifetimes(DROVER)
    restarted = [s for s in DROVER if after[s] != before[s] or not after[s][0]]
    expect(not restarted, f"services exited or restarted during the failover: {restarted}")
    ha.cluster.start(old)
    t = time.monotonic()
    eventually(f"{old} back as a replica", lambda: ha.is_replica(old), 180, interval=2)
    ha.timed("primary killed: old primary back as a replica after its restart", time.monotonic() - t)


def primary_partitioned(ha):
    """docker network disconnect of the PostgreSQL primary (from etcd, its standby and every client) under load: the
    standby is promoted, the cut-off primary demotes itself, never are both primary while it is cut off, and no
    acknowledged write is lost."""
    old = ha.primary()
    new = next(n for n in POSTGRES if n != old)
    load = Load(ha.api, "partition-").start()
    time.sleep(10)
    since = _since()
    ha.cluster.disconnect(old)
    load.mark("cut")
    cut = time.monotonic()
    log(f"cut {old} off the network")
    both, demoted, promoted = 0.0, None, None
    while time.monotonic() - cut < PATRONI_TTL + 60 and (demoted is None or promoted is None):
        old_primary, new_primary = ha.is_primary(old), ha.is_primary(new)
        now = time.monotonic() - cut
        if old_primary and new_primary:
            both = now
        if demoted is None and not old_primary:
            demoted = now
        if promoted is None and new_primary:
            promoted = now
        time.sleep(0.5)
    expect(demoted is not None, f"the cut-off primary {old} still says it is primary")
    expect(promoted is not None, f"{new} was not promoted")
    ha.timed("partition: cut-off primary demoted itself", demoted)
    ha.timed("partition: standby promoted", promoted, target=PATRONI_TTL + 30)
    expect(both == 0.0, f"both nodes said they were primary {both:.1f} s after the cut")
    ha.figures["partition: seconds both nodes were primary"] = 0
    eventually("a write acknowledged after the cut", lambda: load.first_write_after("cut"), 120, interval=0.5)
    ha.timed("partition: first acknowledged write after the cut", load.first_write_after("cut"))
    time.sleep(15)
    load.stop()
    ha.cluster.connect(old)
    reconnected = time.monotonic()
    ha.check(load, cut)
    judged = ha.lost_cell_judgements(since)
    expect(not judged, f"cells judged lost while the database failed over: {judged[:3]}")
    ha.figures[f"{load.prefix.rstrip('-')}: cells judged lost"] = 0
    ha.figures[f"{load.prefix.rstrip('-')}: converger graces after the database was away"] = ha.freezes(since)
    eventually(f"{old} back as a replica", lambda: ha.is_replica(old), 180, interval=2)
    ha.timed("partition: old primary back as a replica after the reconnect", time.monotonic() - reconnected)
    expect(ha.primary() == new, "the promoted standby is no longer the only primary")


def converger_and_broker_killed(ha):
    """docker kill of the active converger and a Kafka broker at once (one machine lost): the standby converger takes
    over within the leader TTL, writes go on, and the cluster converges with events in order."""
    leader = _leader(ha.cluster, "converger")
    standby = "converger-2" if leader == "converger-1" else "converger-1"
    leaders, _ = ha.kafka_leaders("kafka-1")
    broker = max(leaders, key=leaders.get)
    via = next(k for k in KAFKA if k != broker)
    load = Load(ha.api, "machine-").start()
    time.sleep(10)
    since = _since()
    log(f"killing {leader} (converger leader) and {broker} together")
    ha.cluster.docker("kill", ha.cluster.container(leader), ha.cluster.container(broker))
    load.mark("killed")
    killed, fault = time.time(), time.monotonic()
    elected = eventually(f"{standby} elected", lambda: _elected_at(ha.cluster.logs(standby, since=since),
                                                                    "converger"), 90, interval=1)[0]
    ha.timed("machine lost: standby converger took over", elected - killed, target=LEADER_TTL + LEADER_TTL / 3 + 2)
    eventually("partition leadership moved", lambda: ha.kafka_leaders(via)[1].get("offline", 1) == 0, 90, interval=2)
    time.sleep(15)
    load.stop()
    expect(load.first_write_after("killed") is not None, "no write acknowledged after the kill")
    ha.timed("machine lost: first acknowledged write after the kill", load.first_write_after("killed"))
    ha.check(load, fault, ordering=True)
    for service in (leader, broker):
        ha.cluster.start(service)
    ha.cluster.await_healthy([leader, broker], 300)


if __name__ == "__main__":
    sys.exit(main())
