#!/usr/bin/env python3
"""The benchmark of issue 2: ubqd's index side by side with find, plocate and watchman.

Run through `make bench` (Benchmarks/run.sh builds the release binaries and calls this).
Measures on one generated corpus, in one run:
  1. time until ubqd answers queries (fresh index, then restart on an existing index)
     vs a `find -printf` stat walk and watchman's crawl;
  2. `ubq ls NAME-AND-SIZE` end to end (process start included) vs find, plocate, watchman;
  3. time from a file's close to its appearing in a `"sync": false` query (p50, p99),
     and the same for watchman;
  4. ubqd's memory (VmHWM, VmRSS).
Then prints one table with ratios and PASS/MISS against the targets of issue 2.

Settings (environment): BENCH_FILES (100000), BENCH_DIRS (10000), BENCH_TMP (/var/tmp),
BENCH_READY_RUNS (3), BENCH_QUERY_RUNS (20; ubq ls runs twice as many), BENCH_LATENCY_SAMPLES
(200), BENCH_QUERY_TIMEOUT (2: seconds before a query run counts as stalled), BENCH_KEEP=1
(keep the temp folder), BENCH_PERF=1 (record `perf record -e cpu-clock -g` of the first
fresh-index start into the temp folder; implies BENCH_KEEP).

The page cache cannot be dropped here: every walk runs once before it is timed, so all
numbers are warm-cache numbers.
"""

import argparse
import base64
import http.client
import json
import os
import random
import re
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

CONTAINER = "iCloud~org~ubiquity~Default"
KiB = 1024


def env_int(name, default):
    value = os.environ.get(name)
    return int(value) if value else default


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- processes

class Processes:
    """Every process the benchmark starts, each in its own session, stopped at the end."""

    def __init__(self, pidfile):
        self.running = []
        self.pidfile = pidfile

    def start(self, argv, **kwargs):
        process = subprocess.Popen(argv, start_new_session=True, **kwargs)
        self.running.append(process)
        with open(self.pidfile, "a") as f:
            f.write(f"{process.pid}\n")
        return process

    def stop(self, process, timeout=30):
        if process.poll() is None:
            try:
                os.kill(process.pid, signal.SIGTERM)
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            except ProcessLookupError:
                pass
        if process in self.running:
            self.running.remove(process)

    def stop_all(self):
        for process in list(self.running):
            self.stop(process, timeout=15)


# --------------------------------------------------------------------------- corpus

EXTENSIONS = ["txt", "md", "json", "swift", "csv", "html", "png", "jpg", "pdf", "bin"]
SUFFIXES = ["", "", "", "", "", "-draft", " copy", "-résumé", "_v2", "-final"]
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "pdf": b"%PDF-1.4\n", "bin": b"\x7fELF"}
WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore "
         "et dolore magna aliqua ubiquity diary container mirror version conflict query predicate").split()


def generate_corpus(documents, files, dirs, seed=2):
    """`dirs` folders `dNNNN`, `files` files spread over them: `file-DDDD-JJ[suffix].ext`,
    sizes mostly small (exponential, mean ~1.2 KiB, capped at 64 KiB), text or binary by
    extension. Returns {relative path: size}."""
    rng = random.Random(seed)
    text = " ".join(rng.choice(WORDS) for _ in range(16 * KiB)).encode()
    text = (text * (1 + 128 * KiB // len(text)))[:128 * KiB]
    noise = rng.randbytes(128 * KiB)
    width = max(4, len(str(dirs - 1)))
    per, extra = divmod(files, dirs)
    jwidth = max(2, len(str(per)))
    sizes = {}
    for d in range(dirs):
        folder = f"d{d:0{width}d}"
        os.mkdir(os.path.join(documents, folder))
        for j in range(per + (1 if d < extra else 0)):
            ext = EXTENSIONS[rng.randrange(len(EXTENSIONS))]
            name = f"file-{d:0{width}d}-{j:0{jwidth}d}{rng.choice(SUFFIXES)}.{ext}"
            size = min(64 * KiB, int(rng.expovariate(1 / 1200)))
            start = rng.randrange(64 * KiB)
            if ext in MAGIC:
                body = (MAGIC[ext] + noise[start:start + size])[:size]
            elif ext == "json":
                body = (b'{"note": "' + text[start:start + size])[:max(0, size - 2)] + b'"}'
                body = body[:size]
            else:
                body = text[start:start + size]
            with open(os.path.join(documents, folder, name), "wb") as f:
                f.write(body)
            sizes[f"{folder}/{name}"] = len(body)
    return sizes


# --------------------------------------------------------------------------- clients

class Stall(Exception):
    """A request that did not answer in time (see the lost sync cookie in the report)."""


class UnixHTTPConnection(http.client.HTTPConnection):
    """http.client over ubqd's Unix socket: one kept-alive connection, no process per call."""

    def __init__(self, socket_path, timeout=120):
        super().__init__("localhost", timeout=timeout)
        self.socket_path = socket_path

    def connect(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self.socket_path)
        self.sock = sock


class Ubqd:
    def __init__(self, socket_path):
        self.socket_path = socket_path
        self.connection = None

    def call(self, method, path, body=None, timeout=120):
        for attempt in range(2):
            if self.connection is None:
                self.connection = UnixHTTPConnection(self.socket_path)
            try:
                if self.connection.sock is not None:
                    self.connection.sock.settimeout(timeout)
                self.connection.timeout = timeout
                payload = None if body is None else json.dumps(body)
                headers = {"Content-Type": "application/json"} if payload is not None else {}
                self.connection.request(method, path, body=payload, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.status // 100 != 2:
                    raise RuntimeError(f"{method} {path}: HTTP {response.status}: {data[:300]!r}")
                return json.loads(data)
            except TimeoutError:
                self.close()
                raise Stall(f"{method} {path} {body and body.get('predicate')!r}: no answer in {timeout} s")
            except (http.client.HTTPException, ConnectionError, BrokenPipeError):
                self.close()
                if attempt:
                    raise

    def query(self, predicate, sync, attributes=("kMDItemPath",), timeout=120):
        body = {"predicate": predicate, "scope": "documents", "sort": [], "limit": None,
                "attributes": list(attributes), "sync": sync, "explain": False, "containers": None}
        return self.call("POST", "/v1/query", body, timeout=timeout)["items"]

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Watchman:
    """watchman's JSON protocol over its socket (newline-terminated PDUs)."""

    def __init__(self, socket_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(socket_path)
        self.reader = self.sock.makefile("rb")

    def call(self, *command):
        self.sock.sendall(json.dumps(list(command)).encode() + b"\n")
        while True:
            reply = json.loads(self.reader.readline())
            if reply.get("unilateral") or "log" in reply:
                continue
            if "error" in reply:
                raise RuntimeError(f"watchman {command[0]}: {reply['error']}")
            return reply

    def close(self):
        self.reader.close()
        self.sock.close()


# --------------------------------------------------------------------------- helpers

def proc_memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                values[key] = int(rest.split()[0]) / 1024  # MiB
    return values


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def hyperfine(name, command, workdir, runs, shell=False, warmup=3, env=None, timeout=None):
    """Runs hyperfine on one command; returns its result (seconds). With `timeout`, each run
    goes through `timeout -s KILL` (for every query command alike) and hyperfine ignores
    failures; the result then also holds `ok_times` (runs that exited 0) and `stalls`
    (runs killed or failed), and mean/median/min/max/stddev describe the successful runs
    (`all_mean` keeps hyperfine's mean over every run)."""
    out = os.path.join(workdir, f"hyperfine-{name}.json")
    argv = ["hyperfine", "--style", "basic", "--warmup", str(warmup), "--min-runs", str(runs),
            "--export-json", out, "--command-name", name]
    if not shell:
        argv.append("-N")
    if timeout is not None:
        argv.append("-i")
        command = f"timeout -s KILL {timeout} {command}"
    argv.append(command)
    completed = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(completed.stdout, file=sys.stderr, end="")
    if completed.returncode != 0:
        raise RuntimeError(f"hyperfine failed for {name}")
    with open(out) as f:
        result = json.load(f)["results"][0]
    result["all_mean"] = result["mean"]
    codes = result.get("exit_codes") or [0] * len(result["times"])
    ok = [t for t, c in zip(result["times"], codes) if c == 0]
    result["ok_times"] = ok
    result["stalls"] = len(result["times"]) - len(ok)
    if ok and result["stalls"]:
        result.update(mean=statistics.mean(ok), median=statistics.median(ok), min=min(ok), max=max(ok),
                      stddev=statistics.stdev(ok) if len(ok) > 1 else 0.0)
    return result


def fmt_time(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms"


# --------------------------------------------------------------------------- benchmark

class Bench:
    def __init__(self, args):
        self.args = args
        self.files = env_int("BENCH_FILES", 100_000)
        self.dirs = env_int("BENCH_DIRS", 10_000)
        self.ready_runs = env_int("BENCH_READY_RUNS", 3)
        self.query_runs = env_int("BENCH_QUERY_RUNS", 20)
        self.samples = env_int("BENCH_LATENCY_SAMPLES", 200)
        self.query_timeout = env_int("BENCH_QUERY_TIMEOUT", 2)
        self.perf = os.environ.get("BENCH_PERF") == "1"
        self.keep = os.environ.get("BENCH_KEEP") == "1" or self.perf
        base = os.environ.get("BENCH_TMP", "/var/tmp")
        self.tmp = tempfile.mkdtemp(prefix="ubq-bench-", dir=base)
        self.root = os.path.join(self.tmp, "root")
        self.documents = os.path.join(self.root, CONTAINER, "Documents")
        self.runtime = os.path.join(self.tmp, "run")
        self.socket_path = os.path.join(self.runtime, "ubqd.sock")
        self.processes = Processes(os.environ.get("BENCH_PIDFILE") or os.path.join(self.tmp, "pids"))
        self.results = {}
        self.notes = []
        self.ubqd = None
        self.watchman = None
        self.notify = None
        width = max(4, len(str(self.dirs - 1)))
        self.prefix = f"file-{min(123, self.dirs - 1):0{width}d}"
        self.predicate = f'kMDItemFSName BEGINSWITH "{self.prefix}" AND kMDItemFSSize > 100'

    # environment for ubqd and ubq: a private instance, nothing from the caller's settings
    def ubq_env(self, state):
        env = {k: v for k, v in os.environ.items() if not k.startswith("UBQ_") and k != "NOTIFY_SOCKET"}
        env.update(UBQ_ROOT=self.root, UBQ_STATE_DIR=state, UBQ_RUNTIME_DIR=self.runtime,
                   XDG_CONFIG_HOME=os.path.join(self.tmp, "config"), XDG_RUNTIME_DIR=self.runtime)
        return env

    def run(self):
        log(f"temp folder {self.tmp}; {self.files} files in {self.dirs} folders; query {self.predicate!r}")
        os.makedirs(self.documents)
        os.makedirs(self.runtime, mode=0o700)
        os.makedirs(os.path.join(self.tmp, "config"))
        started = time.perf_counter()
        self.sizes = generate_corpus(self.documents, self.files, self.dirs)
        self.expected = sorted(p for p, s in self.sizes.items()
                               if p.split("/")[-1].startswith(self.prefix) and s > 100)
        self.expected_names = sum(1 for p in self.sizes if p.split("/")[-1].startswith(self.prefix))
        log(f"corpus generated in {time.perf_counter() - started:.1f} s; query matches {len(self.expected)} "
            f"({self.expected_names} by name alone)")

        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify_path = os.path.join(self.tmp, "notify.sock")
        self.notify.bind(self.notify_path)

        self.bench_find_walk()
        self.bench_ready()
        self.bench_watchman_crawl()
        self.bench_queries()
        self.bench_latency_ubqd()
        self.bench_latency_watchman()
        self.report()

    # ------------------------------------------------------------------- 1. walk vs ready

    def bench_find_walk(self):
        log("find -printf stat walk (warm: 1 untimed walk first)")
        result = hyperfine("find-walk", f"find {self.root} -printf '%p %s\\n'", self.tmp, runs=5, warmup=1)
        self.results["find_walk"] = result["mean"]
        self.results["find_walk_detail"] = result
        count = subprocess.run(["find", self.root, "-printf", "%p %s\n"], stdout=subprocess.PIPE).stdout.count(b"\n")
        log(f"find walk sees {count} entries")

    def start_ubqd(self, state, label, perf=False):
        while True:  # drop stale notifications
            readable, _, _ = select.select([self.notify], [], [], 0)
            if not readable:
                break
            self.notify.recv(4096)
        env = self.ubq_env(state)
        env["NOTIFY_SOCKET"] = self.notify_path
        logfile = open(os.path.join(self.tmp, f"ubqd-{label}.log"), "wb")
        argv = [self.args.ubqd]
        if perf:
            argv = ["perf", "record", "-e", "cpu-clock", "-g", "-o", os.path.join(self.tmp, f"perf-{label}.data"), "--"] + argv
        started = time.perf_counter()
        process = self.processes.start(argv, env=env, stdout=logfile, stderr=logfile, stdin=subprocess.DEVNULL)
        deadline = started + 1800
        while True:
            readable, _, _ = select.select([self.notify], [], [], 0.2)
            if readable:
                message = self.notify.recv(4096).decode(errors="replace")
                if "READY=1" in message.split("\n"):
                    elapsed = time.perf_counter() - started
                    break
            if process.poll() is not None:
                raise RuntimeError(f"ubqd exited with {process.returncode} before READY=1; see {logfile.name}")
            if time.perf_counter() > deadline:
                raise RuntimeError("ubqd not ready after 30 minutes")
        logfile.close()
        pid = process.pid
        if perf:  # the daemon is perf's child
            children = open(f"/proc/{process.pid}/task/{process.pid}/children").read().split()
            pid = int(children[0])
        return process, pid, elapsed

    def ubqd_scan_line(self, label):
        with open(os.path.join(self.tmp, f"ubqd-{label}.log"), errors="replace") as f:
            for line in f:
                if "start-up reconciliation" in line:
                    return line.strip()
        return "(no start-up line in the log)"

    def wait_for_content(self, client, started_at):
        """Seconds from start until the content pass is done (sniffed types, text): READY
        comes after names and status; `contentPending` in /v1/status counts what is left."""
        while client.call("GET", "/v1/status").get("contentPending", 0) > 0:
            time.sleep(0.05)
        return time.perf_counter() - started_at

    def bench_ready(self):
        fresh, restart, content = [], [], []
        state = None
        for run in range(self.ready_runs):
            state = os.path.join(self.tmp, f"state-{run}")
            label = f"fresh-{run}"
            process, pid, elapsed = self.start_ubqd(state, label, perf=self.perf and run == 0)
            fresh.append(elapsed)
            memory = proc_memory(pid)
            client = Ubqd(self.socket_path)
            status = client.call("GET", "/v1/status")
            content.append(self.wait_for_content(client, started_at=time.perf_counter() - elapsed))
            client.close()
            log(f"ubqd ready on a fresh index in {fmt_time(elapsed)}; {status.get('items')} items; "
                f"VmHWM {memory['VmHWM']:.1f} MiB VmRSS {memory['VmRSS']:.1f} MiB")
            log("  " + self.ubqd_scan_line(label))
            if run == self.ready_runs - 1:
                self.results["rss_fresh"] = memory
                self.results["items"] = status.get("items")
            if pid != process.pid:  # under perf: stop the daemon, perf then writes its data
                os.kill(pid, signal.SIGTERM)
            self.processes.stop(process)
        for run in range(self.ready_runs):
            label = f"restart-{run}"
            process, pid, elapsed = self.start_ubqd(state, label)
            restart.append(elapsed)
            memory = proc_memory(pid)
            log(f"ubqd ready on an existing index in {fmt_time(elapsed)}; "
                f"VmHWM {memory['VmHWM']:.1f} MiB VmRSS {memory['VmRSS']:.1f} MiB")
            log("  " + self.ubqd_scan_line(label))
            if run == self.ready_runs - 1:
                self.ubqd = process  # keeps running for the queries
                self.ubqd_pid = pid
                self.state = state
                self.results["rss_restart"] = memory
            else:
                self.processes.stop(process)
        self.results["content_fresh"] = statistics.median(content)
        self.results["content_fresh_all"] = content
        self.results["ready_fresh"] = statistics.median(fresh)
        self.results["ready_fresh_all"] = fresh
        self.results["ready_restart"] = statistics.median(restart)
        self.results["ready_restart_all"] = restart

    def start_watchman(self):
        self.wm_sock = os.path.join(self.tmp, "watchman.sock")
        self.wm_argv = ["watchman", "--sockname", self.wm_sock, "--no-spawn", "--no-pretty"]
        logfile = open(os.path.join(self.tmp, "watchman-stdout.log"), "wb")
        self.wm_process = self.processes.start(
            ["watchman", "--foreground", "--sockname", self.wm_sock,
             "--statefile", os.path.join(self.tmp, "watchman.state"),
             "--logfile", os.path.join(self.tmp, "watchman.log"),
             "--pidfile", os.path.join(self.tmp, "watchman.pid"), "--no-save-state"],
            stdout=logfile, stderr=logfile, stdin=subprocess.DEVNULL)
        deadline = time.perf_counter() + 30
        while True:
            try:
                self.watchman = Watchman(self.wm_sock)
                self.watchman.call("version")
                return
            except (FileNotFoundError, ConnectionRefusedError):
                if self.wm_process.poll() is not None or time.perf_counter() > deadline:
                    raise RuntimeError("watchman did not start; see watchman.log")
                time.sleep(0.01)

    def watchman_crawl(self):
        try:
            self.watchman.call("watch-del", self.root)
        except RuntimeError:
            pass
        started = time.perf_counter()
        self.watchman.call("watch", self.root)
        self.watchman.call("query", self.root, {"expression": ["match", "file-00001*", "basename"],
                                                "fields": ["name"], "sync_timeout": 600_000})
        return time.perf_counter() - started

    def bench_watchman_crawl(self):
        log("watchman crawl (watch, then a query that waits for the crawl)")
        self.start_watchman()
        crawls = [self.watchman_crawl() for _ in range(self.ready_runs)]
        for c in crawls:
            log(f"watchman crawl {fmt_time(c)}")
        self.results["watchman_crawl"] = statistics.median(crawls)
        self.results["watchman_crawl_all"] = crawls
        self.results["rss_watchman"] = proc_memory(self.wm_process.pid)

    # ------------------------------------------------------------------- 2. queries

    def bench_queries(self):
        env = self.ubq_env(self.state)
        ubq = self.args.ubq
        # counts first: every tool must find the same files
        listed = None
        for attempt in range(5):  # a stalled sync (lost cookie) is retried
            try:
                listed = subprocess.run([ubq, "ls", "-0", self.predicate], env=env, stdout=subprocess.PIPE,
                                        check=True, timeout=self.query_timeout).stdout
                break
            except subprocess.TimeoutExpired:
                log(f"ubq ls -0 stalled (> {self.query_timeout} s), retrying")
                self.results["count_stalls"] = self.results.get("count_stalls", 0) + 1
        if listed is None:
            raise RuntimeError("ubq ls stalled 5 times in a row")
        ubq_count = len([p for p in listed.split(b"\0") if p])
        found = subprocess.run(["find", self.root, "-name", f"{self.prefix}*", "-size", "+100c"],
                               stdout=subprocess.PIPE, check=True).stdout.count(b"\n")
        db = os.path.join(self.tmp, "plocate.db")
        started = time.perf_counter()
        subprocess.run(["updatedb", "-o", db, "-U", self.root, "-l", "0", "--prunepaths", "", "--prunenames", "",
                        "--prunefs", ""], check=True)
        self.results["updatedb"] = time.perf_counter() - started
        located = subprocess.run(["plocate", "-d", db, "-b", f"{self.prefix}*"], stdout=subprocess.PIPE,
                                 check=True).stdout.count(b"\n")
        query = {"expression": ["allof", ["type", "f"], ["match", f"{self.prefix}*", "basename"],
                                ["size", "gt", 100]], "fields": ["name", "size"]}
        query_file = os.path.join(self.tmp, "watchman-query.json")
        with open(query_file, "w") as f:
            json.dump(["query", self.root, query], f)
        watched = len(self.watchman.call("query", self.root, query)["files"])
        self.results["counts"] = dict(expected=len(self.expected), ubq=ubq_count, find=found,
                                      plocate=located, plocate_expected=self.expected_names, watchman=watched)
        log(f"result counts: {self.results['counts']}")
        if ubq_count != len(self.expected):
            self.notes.append(f"ubq ls returned {ubq_count} items, expected {len(self.expected)}")

        pred = self.predicate.replace("'", "'\\''")
        runs = self.query_runs
        t = self.query_timeout
        # twice the runs for ubq: runs that stall on a lost sync cookie are killed and set apart
        self.results["q_ubq"] = hyperfine("ubq-ls", f"{ubq} ls '{pred}'", self.tmp, 2 * runs, env=env, timeout=t)
        self.results["q_find"] = hyperfine("find", f"find {self.root} -name '{self.prefix}*' -size +100c",
                                           self.tmp, runs, timeout=t)
        self.results["q_plocate"] = hyperfine("plocate", f"plocate -d {db} -b '{self.prefix}*'", self.tmp, runs,
                                              timeout=t)
        wm = " ".join(self.wm_argv)
        self.results["q_watchman"] = hyperfine("watchman-query", f"{wm} -j < {query_file}", self.tmp, runs,
                                               shell=True, timeout=t)
        # in-daemon cost, without process start: the same query over one kept-alive connection
        client = Ubqd(self.socket_path)
        for sync in (True, False):
            times, stalls = [], 0
            for _ in range(max(50, runs)):
                started = time.perf_counter()
                try:
                    client.query(self.predicate, sync=sync, timeout=self.query_timeout)
                    times.append(time.perf_counter() - started)
                except Stall:
                    stalls += 1
            key = f"q_api_{'sync' if sync else 'nosync'}"
            self.results[key] = statistics.median(times) if times else float("nan")
            self.results[key + "_stalls"] = (stalls, len(times) + stalls)
        client.close()
        self.results["rss_after_queries"] = proc_memory(self.ubqd_pid)

    # ------------------------------------------------------------------- 3. change latency

    def write_file(self, path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, b"change latency probe\n")
        os.close(fd)
        return time.perf_counter()

    def bench_latency_ubqd(self):
        # watchman stops watching meanwhile: one watcher at a time on this 2-core machine
        self.watchman.call("watch-del", self.root)
        folder = os.path.join(self.documents, "zz-latency-ubqd")
        os.mkdir(folder)
        client = Ubqd(self.socket_path)
        try:
            client.call("POST", "/v1/sync", {}, timeout=self.query_timeout)
        except Stall:
            pass
        rng = random.Random(7)
        latencies, polls, timeouts = [], [], 0
        log(f"ubqd change latency: {self.samples} samples, sync:false polling")
        for i in range(self.samples):
            name = f"lat-{i:05d}-{rng.getrandbits(32):08x}.txt"
            closed = self.write_file(os.path.join(folder, name))
            predicate = f'kMDItemFSName == "{name}"'
            count = 0
            while True:
                items = client.query(predicate, sync=False)
                count += 1
                now = time.perf_counter()
                if items:
                    latencies.append(now - closed)
                    break
                if now - closed > 10:
                    timeouts += 1
                    break
            polls.append(count)
            time.sleep(rng.uniform(0, 0.02))  # de-phase from the daemon's settle timer
        # read-your-writes: one sync:true query right after the close
        sync_latencies, sync_stalls, missing = [], 0, 0
        sync_samples = min(100, self.samples)
        for i in range(sync_samples):
            name = f"rw-{i:05d}-{rng.getrandbits(32):08x}.txt"
            closed = self.write_file(os.path.join(folder, name))
            try:
                items = client.query(f'kMDItemFSName == "{name}"', sync=True, timeout=self.query_timeout)
            except Stall:
                sync_stalls += 1
                continue
            sync_latencies.append(time.perf_counter() - closed)
            if not items:
                missing += 1
        if missing:
            self.notes.append(f"{missing} of {sync_samples} sync:true queries right after a write did not list the file")
        self.results["lat_ubqd_sync_stalls"] = (sync_stalls, sync_samples)
        # poll cost: one sync:false round trip on a present name
        rtts = []
        for _ in range(100):
            started = time.perf_counter()
            client.query(f'kMDItemFSName == "{name}"', sync=False)
            rtts.append(time.perf_counter() - started)
        client.close()
        self.results["lat_ubqd"] = latencies
        self.results["lat_ubqd_timeouts"] = timeouts
        self.results["lat_ubqd_polls"] = statistics.median(polls)
        self.results["lat_ubqd_rtt"] = statistics.median(rtts)
        self.results["lat_ubqd_sync"] = sync_latencies
        self.results["rss_final"] = proc_memory(self.ubqd_pid)
        log(f"ubqd latency p50 {percentile(latencies, 50) * 1000:.1f} ms p99 {percentile(latencies, 99) * 1000:.1f} ms "
            f"max {max(latencies) * 1000:.1f} ms; timeouts {timeouts}; poll round trip {statistics.median(rtts) * 1000:.2f} ms")

    def bench_latency_watchman(self):
        # ubqd stops meanwhile, so watchman has the machine to itself as ubqd had
        self.processes.stop(self.ubqd)
        self.ubqd = None
        folder_rel = f"{CONTAINER}/Documents/zz-latency-watchman"
        os.mkdir(os.path.join(self.root, folder_rel))
        self.watchman.call("watch", self.root)
        self.watchman.call("query", self.root, {"expression": ["name", "x"], "fields": ["name"], "sync_timeout": 600_000})
        rng = random.Random(8)
        latencies, timeouts, polls = [], 0, []
        log(f"watchman change latency: {self.samples} samples, query with sync_timeout 0 polling")
        for i in range(self.samples):
            name = f"lat-{i:05d}-{rng.getrandbits(32):08x}.txt"
            closed = self.write_file(os.path.join(self.root, folder_rel, name))
            query = {"path": [{"path": folder_rel, "depth": 0}], "expression": ["allof", ["exists"], ["name", name]],
                     "fields": ["name"], "sync_timeout": 0}
            count = 0
            while True:
                files = self.watchman.call("query", self.root, query)["files"]
                count += 1
                now = time.perf_counter()
                if files:
                    latencies.append(now - closed)
                    break
                if now - closed > 10:
                    timeouts += 1
                    break
            polls.append(count)
            time.sleep(rng.uniform(0, 0.02))
        self.results["lat_watchman"] = latencies
        self.results["lat_watchman_timeouts"] = timeouts
        self.results["lat_watchman_polls"] = statistics.median(polls)
        log(f"watchman latency p50 {percentile(latencies, 50) * 1000:.1f} ms p99 {percentile(latencies, 99) * 1000:.1f} ms")

    # ------------------------------------------------------------------- report

    def report(self):
        r = self.results
        rows = []

        def row(metric, ours, peers, ratio, target, ok):
            rows.append((metric, ours, peers, ratio, target, "-" if ok is None else ("PASS" if ok else "MISS")))

        walk, crawl = r["find_walk"], r["watchman_crawl"]
        peers = f"find {fmt_time(walk)}, watchman {fmt_time(crawl)}"
        for key, label in (("ready_fresh", "ready, fresh index"), ("ready_restart", "ready, restart (index kept)")):
            ratio = r[key] / walk
            row(label, fmt_time(r[key]), peers, f"{ratio:.1f}x find, {r[key] / crawl:.1f}x wm", "<= 2x find", ratio <= 2)
        row("  content read (fresh; types, text)", fmt_time(r["content_fresh"]), "", f"{r['content_fresh'] / walk:.1f}x find", "-", None)

        hq = r["q_ubq"]
        q = hq["mean"]
        find_q = r["q_find"]["mean"]
        row("ubq ls name+size (mean, e2e)", fmt_time(q),
            f"find {fmt_time(find_q)}, plocate {fmt_time(r['q_plocate']['mean'])}, watchman {fmt_time(r['q_watchman']['mean'])}",
            f"find/ubq {find_q / q:.1f}x", "<= 30 ms, >= 10x", q <= 0.030 and find_q / q >= 10)
        row("  vs plocate / watchman CLI", "", "",
            f"ubq/plocate {q / r['q_plocate']['mean']:.1f}x, ubq/wm {q / r['q_watchman']['mean']:.1f}x", "-", None)
        stalls = hq["stalls"]
        row(f"ubq ls runs stalled (> {self.query_timeout} s, killed)", f"{stalls} of {len(hq['times'])}",
            ", ".join(f"{k} {r['q_' + k]['stalls']}" for k in ("find", "plocate", "watchman")), "", "0", stalls == 0)
        s_sync, s_nosync = r["q_api_sync_stalls"], r["q_api_nosync_stalls"]
        row("  same query, API only (median)", f"sync {fmt_time(r['q_api_sync'])}, nosync {fmt_time(r['q_api_nosync'])}",
            "", f"stalled: sync {s_sync[0]}/{s_sync[1]}, nosync {s_nosync[0]}/{s_nosync[1]}", "-", None)

        lu, lw = r["lat_ubqd"], r["lat_watchman"]
        p50u, p99u = percentile(lu, 50), percentile(lu, 99)
        p50w, p99w = percentile(lw, 50), percentile(lw, 99)
        row(f"close -> visible p50 (n={len(lu)})", fmt_time(p50u), f"watchman {fmt_time(p50w)} (n={len(lw)})",
            f"{p50u / p50w:.1f}x wm", "-", None)
        row("close -> visible p99", fmt_time(p99u), f"watchman {fmt_time(p99w)}", f"{p99u / p99w:.1f}x wm",
            "<= 100 ms", p99u <= 0.100 and r["lat_ubqd_timeouts"] == 0)
        ls = r["lat_ubqd_sync"]
        ss = r["lat_ubqd_sync_stalls"]
        row("write -> sync:true query p50/p99", f"{fmt_time(percentile(ls, 50))} / {fmt_time(percentile(ls, 99))}",
            "", f"stalled {ss[0]}/{ss[1]}", "-", None)

        wm_rss = r["rss_watchman"]
        for key, label in (("rss_fresh", "RSS after initial scan"), ("rss_restart", "RSS after restart scan"),
                           ("rss_after_queries", "RSS after queries"), ("rss_final", "RSS after latency run")):
            m = r[key]
            peak = m["VmHWM"]
            row(label + " (HWM/RSS)", f"{peak:.0f} / {m['VmRSS']:.0f} MiB",
                f"watchman {wm_rss['VmHWM']:.0f} / {wm_rss['VmRSS']:.0f} MiB",
                f"{peak / wm_rss['VmHWM']:.1f}x wm", "<= 100 MB", peak * 1048576 <= 100e6)

        headers = ("metric", "ubqd", "peers", "ratio", "target", "result")
        widths = [max(len(str(x[i])) for x in rows + [headers]) for i in range(len(headers))]
        line = "  ".join("{:<%d}" % w for w in widths)
        print()
        print(f"Ubiquity index benchmark (issue 2): {self.files} files in {self.dirs} folders "
              f"({r.get('items')} items indexed), {os.cpu_count()} CPUs, warm page cache "
              f"(every walk ran once untimed first; caches cannot be dropped here)")
        print(f"query: ubq ls '{self.predicate}'  (matches {r['counts']['expected']})")
        print()
        print(line.format(*headers))
        print(line.format(*["-" * w for w in widths]))
        for x in rows:
            print(line.format(*x))
        print()
        print("details:")
        print(f"  ready fresh runs: {', '.join(fmt_time(x) for x in r['ready_fresh_all'])}; "
              f"content read (fresh) at: {', '.join(fmt_time(x) for x in r['content_fresh_all'])}; "
              f"restart runs: {', '.join(fmt_time(x) for x in r['ready_restart_all'])}; "
              f"watchman crawls: {', '.join(fmt_time(x) for x in r['watchman_crawl_all'])}")
        for key in ("q_ubq", "q_find", "q_plocate", "q_watchman"):
            h = r[key]
            print(f"  {h['command']}: mean {fmt_time(h['mean'])} ± {fmt_time(h['stddev'])}, median "
                  f"{fmt_time(h['median'])}, min {fmt_time(h['min'])}, max {fmt_time(h['max'])}, "
                  f"{len(h['ok_times'])} ok runs, {h['stalls']} stalled (mean over all runs {fmt_time(h['all_mean'])})")
        print(f"  find walk: mean {fmt_time(walk)} ± {fmt_time(r['find_walk_detail']['stddev'])}; "
              f"updatedb (plocate index build): {fmt_time(r['updatedb'])}")
        print(f"  result counts: {r['counts']} (plocate matches by name only; it has no size filter)")
        print(f"  ubqd latency: max {fmt_time(max(lu))}, timeouts {r['lat_ubqd_timeouts']}, "
              f"median polls/sample {r['lat_ubqd_polls']}, poll round trip {fmt_time(r['lat_ubqd_rtt'])}; "
              f"watchman latency: max {fmt_time(max(lw))}, timeouts {r['lat_watchman_timeouts']}, "
              f"median polls/sample {r['lat_watchman_polls']}")
        if r.get("count_stalls"):
            print(f"  the first `ubq ls -0` (count check) stalled {r['count_stalls']} time(s) before answering")
        for note in self.notes:
            print(f"  note: {note}")
        if self.keep:
            print(f"  kept: {self.tmp}")
        self.results_json = os.path.join(self.tmp, "results.json")

    def cleanup(self):
        if self.watchman is not None:
            try:
                self.watchman.call("shutdown-server")
            except (RuntimeError, OSError, ValueError):
                pass
            self.watchman.close()
        self.processes.stop_all()
        if self.notify is not None:
            self.notify.close()
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ubqd", required=True)
    parser.add_argument("--ubq", required=True)
    args = parser.parse_args()

    def terminate(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)
    bench = Bench(args)
    try:
        bench.run()
    finally:
        bench.cleanup()


if __name__ == "__main__":
    main()
