#!/usr/bin/env bash
# Presenter round trip (not a test): the time from a coordinated write call to its accessor
# in one process, p50/p99, in three cases:
#   locks only       no presenter registered anywhere (the relay costs one access(2))
#   other presenter  a presenter of another file is registered (ubqd is asked, nobody else)
#   one presenter    a presenter of the same file in another process is asked to relinquish
#                    and told after (two HTTP calls, one NDJSON line each way, one reply)
# Usage: Benchmarks/presenters/run.sh [BIN_DIR] (default: the debug build). BENCH_COUNT=N.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-.build/debug}
COUNT=${BENCH_COUNT:-500}
WORK=$(mktemp -d /tmp/ubq-presenter-bench.XXXXXX)
export UBQ_ROOT=$WORK/root UBQ_STATE_DIR=$WORK/state UBQ_RUNTIME_DIR=$WORK/run XDG_CONFIG_HOME=$WORK/config UBQ_LOG_LEVEL=warning
mkdir -p "$UBQ_ROOT" "$XDG_CONFIG_HOME"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN/ubqd" >"$WORK/ubqd.log" 2>&1 &
pids+=($!)
for _ in $(seq 200); do [ -S "$UBQ_RUNTIME_DIR/ubqd.sock" ] && "$BIN/ubq" status >/dev/null 2>&1 && break; sleep 0.05; done
DOCS="$UBQ_ROOT/iCloud~org~ubiquity~Default/Documents"
echo x >"$DOCS/bench.txt"
echo y >"$DOCS/other.txt"

present() {  # starts a presenter of $1 and waits for its "registered" line
  mkfifo "$WORK/in.$2" "$WORK/out.$2"
  "$BIN/presenter-probe" present "$1" <"$WORK/in.$2" >"$WORK/out.$2" &
  pids+=($!)
  exec {hold}>"$WORK/in.$2"   # keeps its stdin open
  read -r line <"$WORK/out.$2"
  [ "$line" = registered ] || { echo "presenter did not register: $line"; exit 1; }
  cat "$WORK/out.$2" >/dev/null &   # drains its lines
  pids+=($!)
}

printf '%-16s %s\n' "locks only" "$("$BIN/presenter-probe" bench "$DOCS/bench.txt" --count "$COUNT")"
present "$DOCS/other.txt" a
printf '%-16s %s\n' "other presenter" "$("$BIN/presenter-probe" bench "$DOCS/bench.txt" --count "$COUNT")"
present "$DOCS/bench.txt" b
printf '%-16s %s\n' "one presenter" "$("$BIN/presenter-probe" bench "$DOCS/bench.txt" --count "$COUNT")"
