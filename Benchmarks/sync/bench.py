#!/usr/bin/env python3
"""Sync benchmark of issue 7: ubqd beside rsync -a and unison, in one run.

Measures, on a generated corpus (BENCH_FILES files in BENCH_DIRS folders):
  initial   first sync of the corpus to an empty mirror (ubqd: from READY until
            `ubq sync` returns; its own first pass starts at READY), median of
            BENCH_INITIAL_ROUNDS rounds, each with a new device, a new mirror and a new
            folder for rsync (one round's rsync took 5.4 s in one run and 8.0 s in another)
  touch 1%  re-sync after appending to 1% of the files (a different 1% in each of
            BENCH_ROUNDS rounds, each tool's median shown). Like for like with rsync, which
            starts once the files are written: ubqd is stopped (SIGSTOP) while they are
            written, its inotify queue keeping the events, and timed from SIGCONT until
            `ubq sync` returns, so all its work is counted and none of the writing. Also
            shown: a live round, timed from the first append (the appends themselves take
            0.15-0.5 s on this machine's disk, and ubqd syncs on its own meanwhile)
  no-op     re-sync when nothing changed (median of BENCH_ROUNDS)
  restart   a restart with nothing changed: from starting ubqd until `ubq sync` returns
            (it reads every log and makes a full pass), and its memory afterwards
  1 GiB     one new 1 GiB file (ubqd, rsync, cp; ubqd stopped while it is copied in, as above),
            median of BENCH_BIG_ROUNDS rounds after a warm-up round that is not counted, each
            with new content and new names; beside them `openssl dgst -sha256` of the file:
            the hash that names the object, which any implementation of the format computes
            on one thread (SHA-256 cannot be split)
  (the initial rounds also time the format floor, floor/floor.c: only the file-system work
  the mirror format asks for, in C, with no daemon, database or index; what any
  implementation of the format would need at least, set beside rsync and ubqd)
  (the initial rounds also count the CPU time the whole system was busy during each tool's
  step, kernel threads' writeback included, and print it with the share of the machine's
  cores it kept busy: near 100%, a step was limited by the CPU, not by the disk)
  (initial sync and re-sync are also timed against `rsync --fsync`, which fsyncs as ubqd does;
  and the initial sync against rsync followed by `sync`, the cheapest way to make its copy
  durable: one writeback of everything, where ubqd makes each batch durable before the next
  is named in its log)
  A->B      time for a new file on device A to appear on device B (two daemons, one
            mirror), p50 and p99 over BENCH_LATENCY_SAMPLES samples
and prints one table with ratios to rsync (cp for the large file) and the targets.
ubqd fsyncs every object and log line; rsync and unison do not fsync.

BENCH_LOOP_GIB=N (as root) runs everything on a new ext4 of N GiB (40 holds the default
run) on a loop file in BENCH_TMP, made for the run and removed after it. On ext4, creating
files is several times slower for minutes after many were deleted (README, Benchmarks): on
a new filesystem, no run depends on what ran before it. It is for comparing builds, not
for the targets: an fsync there also flushes the loop file on the disk below, so it costs
more than on the disk itself (a 1% re-sync: 0.26 s against 0.21 s, medians), while writes
that are not synced may stay in memory (cp of 1 GiB: 2.59, 0.27 and 0.34 s; on the disk
2.47, 2.34 and 0.62 s).
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
FILES = int(os.environ.get("BENCH_FILES", "100000"))
DIRS = int(os.environ.get("BENCH_DIRS", "10000"))
SAMPLES = int(os.environ.get("BENCH_LATENCY_SAMPLES", "40"))
BIG_MIB = int(os.environ.get("BENCH_BIG_MIB", "1024"))
# The short steps are repeated: one round of each varied by 2x from run to run on this
# machine's disk (rsync's 1% re-sync took 0.89 s in one run and 1.96 s in another).
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
INITIAL_ROUNDS = int(os.environ.get("BENCH_INITIAL_ROUNDS", "3"))
# The large file too: cp of 1 GiB took 0.25 s in one run and 2.4 s in the next.
BIG_ROUNDS = int(os.environ.get("BENCH_BIG_ROUNDS", "3"))
CONTAINER = "iCloud~org~ubiquity~Default"
LOOP_GIB = int(os.environ.get("BENCH_LOOP_GIB", "0"))


def flush():
    """Writes every dirty page to disk: each timed step starts with none left over from
    the one before (rsync, unison and cp leave what they wrote to the kernel)."""
    subprocess.run(["sync"], check=True)


def flush_time():
    """Seconds `flush()` takes now: what writing back the step just timed costs."""
    start = time.monotonic()
    flush()
    return time.monotonic() - start


def timed(command, **kwargs):
    return timed_with_cpu(command, **kwargs)[0]


def busy_cpu_seconds():
    """The CPU time the whole system has spent busy since boot (user, nice, system, irq,
    softirq; not idle, iowait or steal), in seconds: kernel threads' writeback included,
    which a process's own CPU time leaves out."""
    with open("/proc/stat") as f:
        ticks = [int(field) for field in f.readline().split()[1:]]
    return (ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]) / os.sysconf("SC_CLK_TCK")


def timed_with_cpu(command, **kwargs):
    """Seconds `command` takes, and the CPU seconds the whole system was busy meanwhile."""
    flush()
    busy = busy_cpu_seconds()
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)
    return time.monotonic() - start, busy_cpu_seconds() - busy


def flush_with_cpu():
    """`flush_time()`, and the CPU seconds the whole system was busy meanwhile."""
    busy = busy_cpu_seconds()
    return flush_time(), busy_cpu_seconds() - busy


def make_corpus(folder):
    for d in range(DIRS):
        os.makedirs(f"{folder}/d{d:05}", exist_ok=True)
    for n in range(FILES):
        with open(f"{folder}/d{n % DIRS:05}/f{n:06}.txt", "w") as f:
            f.write(f"file {n}\n" * (1 + n % 40))


class Device:
    def __init__(self, base, mirror):
        self.base = base
        self.env = dict(os.environ, UBQ_ROOT=f"{base}/root", UBQ_STATE_DIR=f"{base}/state",
                        UBQ_RUNTIME_DIR=f"{base}/run", UBQ_MIRROR=mirror, XDG_CONFIG_HOME=f"{base}/config",
                        UBQ_LOG_LEVEL=os.environ.get("BENCH_LOG_LEVEL", "warning"))
        self.env.pop("NOTIFY_SOCKET", None)
        self.documents = f"{base}/root/{CONTAINER}/Documents"
        os.makedirs(self.documents, exist_ok=True)
        self.process = None

    def start(self):
        self.process = subprocess.Popen([f"{BIN}/ubqd"], env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=open(f"{self.base}/ubqd.log", "w"), start_new_session=True)
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:  # ready when the API answers
            if subprocess.run([f"{BIN}/ubq", "status"], env=self.env, capture_output=True).returncode == 0:
                return
            time.sleep(0.05)
        raise RuntimeError("ubqd did not start; see " + self.base + "/ubqd.log")

    def sync(self):
        return timed([f"{BIN}/ubq", "sync"], env=self.env)

    def sync_with_cpu(self):
        return timed_with_cpu([f"{BIN}/ubq", "sync"], env=self.env)

    def sync_after(self, change):
        """Seconds from resuming the daemon, stopped while `change(documents)` ran, until
        `ubq sync` returns: its whole work on the change, none of the change's own time,
        and no writeback of it left pending (as `timed` leaves none for the peers)."""
        os.kill(self.process.pid, signal.SIGSTOP)
        try:
            change(self.documents)
            flush()
        finally:
            start = time.monotonic()
            os.kill(self.process.pid, signal.SIGCONT)
        self.sync()
        return time.monotonic() - start

    def memory(self):
        """VmRSS and VmHWM of the daemon, in MiB."""
        fields = dict(line.split(":", 1) for line in open(f"/proc/{self.process.pid}/status"))
        return tuple(int(fields[name].split()[0]) // 1024 for name in ("VmRSS", "VmHWM"))

    def stop(self):
        if self.process:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait()
            self.process = None


def first_sync(base, mirror, corpus, devices):
    """A new device with the corpus in its container, started, and the seconds of its
    first sync to `mirror` with the whole system's busy CPU seconds meanwhile."""
    device = Device(base, mirror)
    devices.append(device)
    shutil.copytree(corpus, device.documents, dirs_exist_ok=True)
    subprocess.run(["sync"])
    device.start()
    return device, device.sync_with_cpu()


def unison(a, b):
    return ["unison", a, b, "-batch", "-silent", "-times", "-perms", "0", "-ui", "text", "-auto"]


def touch_one_percent(folder, offset=0):
    """Appends to the files whose number is `offset` modulo 100."""
    for n in range(offset, FILES, 100):
        with open(f"{folder}/d{n % DIRS:05}/f{n:06}.txt", "a") as f:
            f.write("touched\n")


def median_of_rounds(step, rounds=None):
    """Runs `step(round)` `rounds` times (BENCH_ROUNDS); returns the median of each of the
    timings it returns, and every timing by round."""
    samples = [step(r) for r in range(rounds or ROUNDS)]
    return [statistics.median(column) for column in zip(*samples)], samples


class FreshFilesystem:
    """A new ext4 of `gib` GiB on a sparse loop file in `folder`, mounted in it. Its inode
    tables are written when it is made, not by a kernel thread during the run."""

    def __init__(self, folder, gib):
        self.image = f"{folder}/ext4.img"
        self.path = f"{folder}/mnt"
        os.makedirs(self.path)
        with open(self.image, "wb") as image:
            image.truncate(gib << 30)
        subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", self.image], check=True)
        subprocess.run(["mount", "-o", "loop", self.image, self.path], check=True)

    def remove(self):
        subprocess.run(["umount", self.path], check=True)
        os.unlink(self.image)


def main():
    outer = tempfile.mkdtemp(prefix="ubq-sync-bench-", dir=os.environ.get("BENCH_TMP"))
    try:
        fresh = FreshFilesystem(outer, LOOP_GIB) if LOOP_GIB else None
    except (OSError, subprocess.CalledProcessError):
        shutil.rmtree(outer, ignore_errors=True)  # the loop file too (it was not mounted)
        raise
    work = fresh.path if fresh else outer
    os.environ["UNISON"] = f"{work}/unison-state"
    rows = []
    devices = []
    try:
        corpus = f"{work}/corpus"
        make_corpus(corpus)
        mirror = f"{work}/mirror"
        # The last round's device, mirror and rsync copy are the ones the later steps use;
        # the devices of the rounds before stop once timed.
        initial_rounds = []
        initial_cpu = []  # the whole system's busy CPU seconds in each initial round's steps
        for r in range(INITIAL_ROUNDS):
            last = r == INITIAL_ROUNDS - 1
            a, (ubqd_seconds, ubqd_cpu) = first_sync(
                f"{work}/a" if last else f"{work}/a-{r}", mirror if last else f"{work}/mirror-{r}", corpus, devices)
            if not last:
                a.stop()
            rsync_seconds, rsync_cpu = timed_with_cpu(["rsync", "-a", corpus + "/", f"{work}/rsync/" if last else f"{work}/rsync-{r}/"])
            writeback_seconds, writeback_cpu = flush_with_cpu()
            floor_seconds, floor_cpu = timed_with_cpu([f"{BIN}/floor", "-o", corpus, f"{work}/floor-{r}"])
            initial_rounds.append((ubqd_seconds, rsync_seconds, rsync_seconds + writeback_seconds, floor_seconds))
            initial_cpu.append((ubqd_cpu, rsync_cpu, rsync_cpu + writeback_cpu, floor_cpu))
            # Kept: deleting 100,000 files slows the creates of the steps after it (above).
        initial, rsync_initial, rsync_then_sync, floor_initial = (statistics.median(column) for column in zip(*initial_rounds))
        unison_initial = timed(unison(corpus, f"{work}/unison"))
        # ubqd fsyncs what it writes; `rsync --fsync` (rsync 3.2.4 and later) is the like
        # for like peer, shown beside the target's plain rsync.
        rsync_fsync_initial = timed(["rsync", "-a", "--fsync", corpus + "/", f"{work}/rsync-fsync/"])
        rows.append(("initial sync", initial, rsync_initial, unison_initial, "<= 1.0x rsync"))
        rows.append(("initial sync (rsync --fsync)", initial, rsync_fsync_initial, None, ""))
        rows.append(("initial sync (rsync; sync)", initial, rsync_then_sync, None, ""))
        rows.append(("initial sync (format floor)", initial, floor_initial, None, ""))

        def one_percent_round(r):
            touch_one_percent(corpus, offset=r)
            return (a.sync_after(lambda documents: touch_one_percent(documents, offset=r)),
                    timed(["rsync", "-a", corpus + "/", f"{work}/rsync/"]),
                    timed(unison(corpus, f"{work}/unison")),
                    timed(["rsync", "-a", "--fsync", corpus + "/", f"{work}/rsync-fsync/"]))
        (incremental, rsync_incremental, unison_incremental, rsync_fsync_incremental), one_percent_rounds = \
            median_of_rounds(one_percent_round)
        flush()
        start = time.monotonic()
        touch_one_percent(a.documents, offset=ROUNDS)
        a.sync()
        live_incremental = time.monotonic() - start
        rows.append(("re-sync, 1% touched", incremental, rsync_incremental, unison_incremental, "<= 0.25x rsync"))
        rows.append(("re-sync, 1% (rsync --fsync)", incremental, rsync_fsync_incremental, None, ""))
        rows.append(("re-sync, 1%, live", live_incremental, rsync_incremental, None, ""))

        (noop, rsync_noop, unison_noop), _ = median_of_rounds(lambda r: (
            a.sync(), timed(["rsync", "-a", corpus + "/", f"{work}/rsync/"]), timed(unison(corpus, f"{work}/unison"))))
        rows.append(("no-op re-sync", noop, rsync_noop, unison_noop, "~ 0"))

        # A restart with nothing changed: the daemon reads every log again and makes a full
        # pass (a crash at any moment must converge), so this grows with the history.
        a.stop()
        start = time.monotonic()
        a.start()
        a.sync()
        restart = time.monotonic() - start
        restart_memory = a.memory()
        rows.append(("restart, then sync (no-op)", restart, rsync_noop, unison_noop, ""))

        big = f"{work}/big.bin"
        subprocess.run(["dd", "if=/dev/urandom", f"of={big}", "bs=1M", f"count={BIG_MIB}", "status=none"], check=True)

        def big_round(r):
            # New content each round (its first bytes), so that ubqd stores a new object;
            # every copy gets a name of its own (a copy over a file just deleted ran up to
            # 7x faster here than one into fresh space, so no tool deletes one first).
            with open(big, "r+b") as f:
                f.write(f"round {r:08}\n".encode())
            return (a.sync_after(lambda documents: shutil.copy(big, f"{documents}/big-{r}.bin")),
                    timed(["cp", big, f"{work}/big-copy-{r}.bin"]),
                    timed(["rsync", "-a", big, f"{work}/big-rsync-{r}.bin"]),
                    # What a durable copy costs (coreutils `sync FILE` fsyncs it): ubqd's includes it.
                    timed(["sh", "-c", 'cp "$1" "$2" && sync "$2"', "sh", big, f"{work}/big-durable-{r}.bin"]),
                    # What naming the content costs: the store names an object by its SHA-256,
                    # computed on one thread (OpenSSL's, with the CPU's SHA instructions).
                    timed(["openssl", "dgst", "-sha256", big]))
        # Not counted: in the first round every tool took about 2.5 s, a few times its time
        # in the rounds after (the first to touch that much fresh memory, most likely).
        big_warm_up = big_round(BIG_ROUNDS)
        (ubq_big, cp_big, rsync_big, cp_fsync_big, sha256_big), big_rounds = median_of_rounds(big_round, BIG_ROUNDS)
        rows.append((f"{BIG_MIB} MiB file (vs cp)", ubq_big, cp_big, None, ">= 0.9x cp speed"))
        rows.append((f"{BIG_MIB} MiB file (rsync)", ubq_big, rsync_big, None, ""))
        rows.append((f"{BIG_MIB} MiB file (cp + fsync)", ubq_big, cp_fsync_big, None, ""))
        rows.append((f"{BIG_MIB} MiB file (SHA-256 alone)", ubq_big, sha256_big, None, ""))

        b = Device(f"{work}/b", mirror)
        devices.append(b)
        b.start()
        b.sync()
        latencies = []
        # The first sample waits for B to digest its initial download (its watcher reports
        # every file it wrote); it is not counted: the samples measure the steady state.
        for n in range(-1, SAMPLES):
            name = f"latency-{n}.txt"
            start = time.monotonic()
            with open(f"{a.documents}/{name}", "w") as f:
                f.write(f"sample {n}\n")
            target = f"{b.documents}/{name}"
            while not os.path.exists(target):
                time.sleep(0.002)
                if time.monotonic() - start > 30:
                    raise RuntimeError(f"{name} did not reach device B in 30 s")
            if n >= 0:
                latencies.append(time.monotonic() - start)
        samples = latencies[:]  # in the order taken, to tell a slow start from a stray outlier
        latencies.sort()
        p50 = statistics.median(latencies)
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    finally:
        for device in devices:
            device.stop()
        if not os.environ.get("BENCH_KEEP"):
            if fresh:
                fresh.remove()  # one file: no inodes freed on the disk's own filesystem
            shutil.rmtree(outer, ignore_errors=True)

    where = f"a new {LOOP_GIB} GiB ext4 on a loop file" if LOOP_GIB else work
    print(f"\nsync benchmark in {where}: {FILES} files in {DIRS} folders (release build, warm cache; initial sync: "
          f"medians of {INITIAL_ROUNDS} rounds; 1% re-sync and no-op: of {ROUNDS}; {BIG_MIB} MiB file: of {BIG_ROUNDS}, after a warm-up round)\n")
    print(f"{'metric':28} {'ubqd':>9} {'rsync/cp':>9} {'unison':>9} {'ratio':>7}  target")
    for name, ours, peer, uni, target in rows:
        uni_text = f"{uni:8.2f}s" if uni is not None else f"{'-':>9}"
        print(f"{name:28} {ours:8.2f}s {peer:8.2f}s {uni_text} {ours / peer:6.2f}x  {target}")
    print(f"format floor (floor/floor.c): {floor_initial:.2f}s, {floor_initial / rsync_initial:.2f}x rsync, "
          f"{floor_initial / rsync_then_sync:.2f}x rsync; sync")
    print_initial_cpu(initial_rounds, initial_cpu)
    print(f"ubqd after the restart's first pass: RSS {restart_memory[0]} MiB, peak {restart_memory[1]} MiB")
    print(f"{'A->B latency p50 / p99':28} {p50 * 1000:7.0f}ms {p99 * 1000:7.0f}ms {'':>9} {'':>7}  p99 <= 1 s")
    print("A->B samples in order (ms): " + " ".join(f"{x * 1000:.0f}" for x in samples))
    print("initial rounds in order, ubqd / rsync / rsync; sync / format floor (s): "
          + "  ".join(" / ".join(f"{x:.2f}" for x in r) for r in initial_rounds))
    print("1% rounds in order, ubqd / rsync / unison / rsync --fsync (s): "
          + "  ".join(" / ".join(f"{x:.2f}" for x in r) for r in one_percent_rounds))
    print(f"{BIG_MIB} MiB rounds in order, ubqd / cp / rsync / cp + fsync / SHA-256 alone (s): "
          + "  ".join(" / ".join(f"{x:.2f}" for x in r) for r in big_rounds)
          + "; the warm-up round before them, not counted: " + " / ".join(f"{x:.2f}" for x in big_warm_up))


def print_initial_cpu(rounds, cpu):
    """The initial rounds' CPU: the whole system's busy CPU seconds in each tool's step, and
    what share of the machine's cores that kept busy for the step's time. A step near 100%
    was limited by the CPU, not by the disk: less work, not more overlap, makes it faster."""
    cores = os.cpu_count() or 1
    names = ("ubqd", "rsync", "rsync; sync", "format floor")
    shares = [[busy / (cores * seconds) for busy, seconds in zip(busy_row, time_row)] for busy_row, time_row in zip(cpu, rounds)]
    medians = [(statistics.median(c), statistics.median(s)) for c, s in zip(zip(*cpu), zip(*shares))]
    print(f"initial sync, CPU busy in the whole system (the share of its {cores} cores' time; medians): "
          + ", ".join(f"{name} {busy:.1f} s ({share:.0%})" for name, (busy, share) in zip(names, medians)))
    print("initial rounds' CPU busy in order, ubqd / rsync / rsync; sync / format floor (s): "
          + "  ".join(" / ".join(f"{x:.1f}" for x in r) for r in cpu))


if __name__ == "__main__":
    main()
