#!/usr/bin/env bash
# `make bench`: the index benchmark of issue 2. Builds release ubqd and ubq into
# .build-release, installs the peers it compares with when missing (hyperfine, watchman,
# plocate, find), then runs Benchmarks/index/bench.py, which generates the corpus, measures
# ubqd beside find, plocate and watchman and prints one table with ratios and targets.
#
# Scale down for a quick run: BENCH_FILES=10000 BENCH_DIRS=1000 make bench
# Other knobs (see bench.py): BENCH_TMP, BENCH_READY_RUNS, BENCH_QUERY_RUNS,
# BENCH_LATENCY_SAMPLES, BENCH_KEEP=1, BENCH_PERF=1.
set -euo pipefail
cd "$(dirname "$0")/.."

# The peers, installed only when missing (Debian package names).
declare -A PEERS=([hyperfine]=hyperfine [watchman]=watchman [plocate]=plocate [updatedb]=plocate
                  [find]=findutils [python3]=python3)
missing=()
for tool in "${!PEERS[@]}"; do
  command -v "$tool" >/dev/null || missing+=("${PEERS[$tool]}")
done
if [ ${#missing[@]} -gt 0 ]; then
  packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
  echo "bench: installing $packages"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $packages >/dev/null
fi

echo "bench: building release ubqd and ubq into .build-release"
BIN=$(scripts/build-release.sh)

# bench.py stops everything it starts (finally + SIGTERM/SIGHUP handlers). It runs in the
# background so that a signal to this script is handled at once: the trap passes it on as
# SIGTERM and waits for bench.py's clean-up. The EXIT trap is the backstop if bench.py
# dies harder: every process it started runs in its own session, whose id is the process
# id recorded in the pid file.
PIDFILE=$(mktemp "${TMPDIR:-/tmp}/ubq-bench-pids.XXXXXX")
export BENCH_PIDFILE=$PIDFILE
BENCH_PID=
cleanup() {
  local pid
  while read -r pid; do
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -TERM -- "-$pid" 2>/dev/null || true
  done <"$PIDFILE"
  rm -f "$PIDFILE"
}
interrupted() {
  if [ -n "$BENCH_PID" ]; then
    kill -TERM "$BENCH_PID" 2>/dev/null || true
    wait "$BENCH_PID" 2>/dev/null || true
  fi
  exit 130
}
trap cleanup EXIT
trap interrupted INT TERM HUP

python3 Benchmarks/index/bench.py --ubqd "$BIN/ubqd" --ubq "$BIN/ubq" &
BENCH_PID=$!
wait "$BENCH_PID"
