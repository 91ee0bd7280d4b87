#!/usr/bin/env bash
# Renames from another device (not a test): device A renames N files and publishes them
# while device B is stopped; the time from B's start until every file has its new name
# (B's start-up included). Each rename is applied under a coordinated move (two claims).
# With MODE `folder`, A renames the folder of the N files instead (`mv d e`), which B
# renames whole (`FolderMove`) or, failing that, file by file.
# Usage: Benchmarks/renames/run.sh [BIN_DIR] [N] [MODE] (defaults: the debug build, 2000
# files, `files`).
# Compare two builds by running it for each, interleaved, several times.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(cd "${1:-.build/debug}" && pwd); N=${2:-2000}; MODE=${3:-files}
W=$(mktemp -d /tmp/ubq-rnbench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT
start() { # name
  local d=$W/$1
  mkdir -p $d/root $d/config
  ( export UBQ_ROOT=$d/root UBQ_STATE_DIR=$d/state UBQ_RUNTIME_DIR=$d/run XDG_CONFIG_HOME=$d/config UBQ_LOG_LEVEL=warning UBQ_MIRROR=$W/mirror
    exec "$BIN/ubqd" >"$d/ubqd.log" 2>&1 ) &
  pids+=($!)
  for _ in $(seq 400); do [ -S "$d/run/ubqd.sock" ] && env UBQ_ROOT=$d/root UBQ_STATE_DIR=$d/state UBQ_RUNTIME_DIR=$d/run XDG_CONFIG_HOME=$d/config "$BIN/ubq" status >/dev/null 2>&1 && break; sleep 0.05; done
}
ubq() { local d=$W/$1; shift; env UBQ_ROOT=$d/root UBQ_STATE_DIR=$d/state UBQ_RUNTIME_DIR=$d/run XDG_CONFIG_HOME=$d/config "$BIN/ubq" "$@"; }
mkdir -p $W/mirror
start a; start b
DA=$W/a/root/iCloud~org~ubiquity~Default/Documents
DB=$W/b/root/iCloud~org~ubiquity~Default/Documents
mkdir -p $DA/d
for i in $(seq $N); do echo "file $i" > $DA/d/f$i.txt; done
ubq a sync >/dev/null; ubq b sync >/dev/null
kill ${pids[1]}; wait ${pids[1]} 2>/dev/null || true   # B away while A renames and publishes
if [ "$MODE" = folder ]; then
  mv $DA/d $DA/e; new=$DB/e; names=f
else
  for i in $(seq $N); do mv $DA/d/f$i.txt $DA/d/g$i.txt; done; new=$DB/d; names=g
fi
ubq a sync >/dev/null
t0=$(date +%s.%N)
start b
# B applies them on its own (it watches the local mirror): wait until every file is at its
# new path (with MODE folder, d is gone too).
n=0
for _ in $(seq 30000); do
  n=$(ls $new 2>/dev/null | grep -c "^$names" || true)
  if [ "$MODE" = folder ]; then left=$( [ -e $DB/d ] && echo 1 || echo 0 ); else left=$(ls $DB/d | grep -c '^f' || true); fi
  [ "$n" -ge "$N" ] && [ "$left" = 0 ] && break
  sleep 0.01
done
t1=$(date +%s.%N)
[ "$n" -ge "$N" ] || { echo "B renamed only $n of $N files within 300 s; its log: $W/b/ubqd.log" >&2; cat "$W/b/ubqd.log" >&2; exit 1; }
echo "$BIN: $N renames ($MODE) applied in $(awk "BEGIN { print $t1 - $t0 }") s (from B's start)"
