#!/usr/bin/env python3
"""Checks `ubq sync` after a large copy into a container (not part of `make bench-sync`).

A daemon is given FILES small synced files (the sync benchmark's layout), then each round
copies a 1 GiB file in with shutil.copy (sendfile: the kernel may hold the writer back for
seconds) and runs `ubq sync` at once. `ubq sync` must return only once the file is in the
mirror, whole. Prints each round's times and whether the mirror's view of the file was
complete when `ubq sync` returned.

    python3 Benchmarks/sync/big_copy.py "$(scripts/build-release.sh)" [FILES] [ROUNDS]

Environment: BENCH_TMP (default /var/tmp); the work folder is left for inspection
(its `log` is the daemon's, at info level).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    binaries = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    work = tempfile.mkdtemp(prefix="ubq-big-copy-", dir=os.environ.get("BENCH_TMP", "/var/tmp"))
    env = dict(os.environ, UBQ_ROOT=f"{work}/root", UBQ_STATE_DIR=f"{work}/state", UBQ_RUNTIME_DIR=f"{work}/run",
               UBQ_MIRROR=f"{work}/mirror", XDG_CONFIG_HOME=f"{work}/config", UBQ_LOG_LEVEL="info")
    env.pop("NOTIFY_SOCKET", None)
    documents = f"{work}/root/iCloud~org~ubiquity~Default/Documents"
    dirs = max(1, files // 10)
    for d in range(dirs):
        os.makedirs(f"{documents}/d{d:05}", exist_ok=True)
    for n in range(files):
        with open(f"{documents}/d{n % dirs:05}/f{n:06}.txt", "w") as f:
            f.write(f"file {n}\n" * (1 + n % 40))
    subprocess.run(["sync"], check=True)
    daemon = subprocess.Popen([f"{binaries}/ubqd"], env=env, stderr=open(f"{work}/log", "w"), start_new_session=True)
    try:
        while subprocess.run([f"{binaries}/ubq", "status"], env=env, capture_output=True).returncode:
            time.sleep(0.05)
        start = time.monotonic()
        subprocess.run([f"{binaries}/ubq", "sync"], env=env, check=True, stdout=subprocess.DEVNULL)
        print(f"initial sync of {files} files: {time.monotonic() - start:.1f} s", flush=True)
        incomplete = 0
        for r in range(rounds):
            source = f"{work}/big{r}.bin"  # new content each round: no reuse of a stored object
            subprocess.run(["dd", "if=/dev/urandom", f"of={source}", "bs=1M", "count=1024", "status=none"], check=True)
            start = time.monotonic()
            shutil.copy(source, f"{documents}/big{r}.bin")
            copied = time.monotonic() - start
            start = time.monotonic()
            subprocess.run([f"{binaries}/ubq", "sync"], env=env, check=True, stdout=subprocess.DEVNULL)
            synced = time.monotonic() - start
            views = glob.glob(f"{work}/mirror/containers/*/current/*/Documents/big{r}.bin")
            whole = len(views) == 1 and os.path.getsize(views[0]) == os.path.getsize(source)
            incomplete += 0 if whole else 1
            print(f"round {r}: copy {copied:.2f} s, ubq sync {synced:.2f} s, mirror view whole: {whole}", flush=True)
            os.unlink(source)
        print(f"{incomplete} of {rounds} rounds: ubq sync returned before the file was in the mirror; work folder {work}")
    finally:
        os.killpg(daemon.pid, 15)
        daemon.wait()


if __name__ == "__main__":
    main()
