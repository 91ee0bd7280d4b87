#!/usr/bin/env python3
"""Load check for live queries (issue 6): WATCHERS concurrent `ubq ls --watch --json`
clients while FILES files are created, then appended to, then deleted. Every client must
receive every update: all clients' streams are identical byte for byte, and each holds an
`added`, a `changed` and a `removed` line for every path. Prints per-phase times, the daemon's peak RSS (VmHWM) and
its CPU time (user + system, from /proc).

    Benchmarks/live/watch_load.py [--bin DIR] [--watchers 50] [--files 10000]

DIR holds ubqd and ubq (default: .build-release's release binaries when built, else
.build/debug). Everything runs in a temporary folder on this machine and is stopped at exit.
"""
import argparse, collections, json, os, shutil, signal, subprocess, sys, tempfile, time

PREDICATE = 'kMDItemFSName ENDSWITH ".txt"'
FOLDERS = 100  # files are spread over this many folders, as a real tree would be


def default_bin():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for scratch, config in ((".build-release", "release"), (".build", "debug")):
        folder = os.path.join(repo, scratch, config)
        if os.path.exists(os.path.join(folder, "ubqd")):
            return folder
    sys.exit("watch_load: build ubqd and ubq first (swift build -c release --scratch-path .build-release)")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"watch_load: timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


class Watchers:
    """The clients, each writing its NDJSON to a file that is read as it grows."""

    def __init__(self, count, ubq, env, folder):
        self.paths = [os.path.join(folder, f"watcher{n}.ndjson") for n in range(count)]
        self.processes = []
        self.offsets = [0] * count
        self.seen = [collections.defaultdict(set) for _ in range(count)]  # kind -> paths
        self.lines = [0] * count
        for path in self.paths:
            with open(path, "wb") as out:
                self.processes.append(subprocess.Popen(
                    [ubq, "ls", "--watch", "--json", "--attrs", "kMDItemPath,kMDItemFSSize", PREDICATE],
                    stdout=out, stderr=subprocess.DEVNULL, env=env, start_new_session=True))

    def read_new_lines(self):
        for n, path in enumerate(self.paths):
            with open(path, "rb") as f:
                f.seek(self.offsets[n])
                data = f.read()
            complete = data[:data.rfind(b"\n") + 1]
            self.offsets[n] += len(complete)
            for line in complete.splitlines():
                message = json.loads(line)
                self.lines[n] += 1
                self.seen[n][message["kind"]].add((message.get("item") or {}).get("kMDItemPath"))

    def all_saw(self, kind, paths):
        self.read_new_lines()
        return all(paths <= seen[kind] for seen in self.seen)

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=None)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    binaries = args.bin or default_bin()
    base = tempfile.mkdtemp(prefix="ubq-watch-load-")
    env = dict(os.environ, UBQ_ROOT=f"{base}/root", UBQ_STATE_DIR=f"{base}/state", UBQ_RUNTIME_DIR=f"{base}/run",
               XDG_CONFIG_HOME=f"{base}/config", UBQ_LOG_LEVEL="warning")
    env.pop("NOTIFY_SOCKET", None)
    env.pop("UBQ_CONFIG", None)
    documents = f"{base}/root/iCloud~org~ubiquity~Default/Documents"
    daemon, watchers = None, None
    try:
        with open(f"{base}/ubqd.log", "wb") as log:
            daemon = subprocess.Popen([f"{binaries}/ubqd"], stderr=log, stdout=log, env=env, start_new_session=True)
        wait_until(lambda: subprocess.run([f"{binaries}/ubq", "status"], env=env, capture_output=True).returncode == 0, 60, "ubqd to start")
        folders = [f"{documents}/load/d{n:03}" for n in range(FOLDERS)]
        for folder in folders:
            os.makedirs(folder)
        subprocess.run([f"{binaries}/ubq", "ls", "--limit", "1"], env=env, capture_output=True, check=True)  # sync
        watchers = Watchers(args.watchers, f"{binaries}/ubq", env, base)
        wait_until(lambda: watchers.all_saw("finished-gathering", {None}), 120, "every watcher to finish gathering")
        paths = [f"{folders[n % FOLDERS]}/file{n:05}.txt" for n in range(args.files)]
        cpu_before = cpu_seconds(daemon.pid)
        timings = []
        for phase, change in (("added", create), ("changed", append), ("removed", os.unlink)):
            start = time.monotonic()
            for path in paths:
                change(path)
            wait_until(lambda: watchers.all_saw(phase, set(paths)), args.timeout,
                       f"every watcher to receive {args.files} {phase} updates")
            timings.append((phase, time.monotonic() - start))
        cpu_load = cpu_seconds(daemon.pid) - cpu_before
        failures = check(watchers, set(paths), args.files)
        report(args, timings, cpu_load, cpu_seconds(daemon.pid), peak_rss_mib(daemon.pid), failures, extra_updates(watchers, args.files))
        return 1 if failures else 0
    finally:
        if watchers:
            watchers.stop()
        if daemon and daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=30)
        shutil.rmtree(base, ignore_errors=True)


def create(path):
    with open(path, "w") as f:
        f.write("x\n")


def append(path):
    with open(path, "a") as f:
        f.write("more\n")


def check(watchers, paths, files):
    """Every watcher received the same stream, byte for byte (so none missed an update
    another got), and it holds an added, a changed and a removed line for every path."""
    failures = []
    with open(watchers.paths[0], "rb") as f:
        reference = f.read()
    for n, path in enumerate(watchers.paths):
        with open(path, "rb") as f:
            if f.read() != reference:
                failures.append(f"watcher {n}: its stream differs from watcher 0's")
        for kind in ("added", "changed", "removed"):
            missing = paths - watchers.seen[n][kind]
            if missing:
                failures.append(f"watcher {n}: no {kind} line for {len(missing)} of {files} paths")
    return failures


def extra_updates(watchers, files):
    """Lines beyond one per path and phase: the index saw a file change twice (a writer
    slower than the settle period), which every watcher must then receive too."""
    return watchers.lines[0] - 1 - 3 * files


def report(args, timings, cpu_load, cpu_total, rss, failures, extra):
    print(f"watch_load: {args.watchers} watchers, {args.files} files ({args.bin or default_bin()})")
    for phase, seconds in timings:
        print(f"  {phase:8} {args.files} updates to every watcher in {seconds:6.2f} s")
    print(f"  ubqd CPU time during the load: {cpu_load:.2f} s (total since start {cpu_total:.2f} s)")
    print(f"  ubqd peak RSS (VmHWM): {rss:.1f} MiB")
    if failures:
        print("  FAILED:\n    " + "\n    ".join(failures[:20]))
    else:
        print(f"  every watcher received every update: the same {3 * args.files + extra} lines each"
              f" ({extra} beyond one per path and phase)")


if __name__ == "__main__":
    sys.exit(main())
