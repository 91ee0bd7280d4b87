#!/usr/bin/env bash
# Builds the libFuzzer harness (PredicateKit sources + main.swift, ASan) and fuzzes for
# SECONDS (default 300). Seeds: every format of the shared fixture. Work files go to
# ${FUZZ_WORK:-/tmp/predicate-fuzz}; findings are crash-*/timeout-* files there.
#   Fuzz/PredicateFuzz/run.sh 300
set -euo pipefail
seconds="${1:-300}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${FUZZ_WORK:-/tmp/predicate-fuzz}"
mkdir -p "$work/corpus"

fixture="$root/../shared/fixtures/predicates/cases.jsonl"
if [[ -f "$fixture" ]] && command -v python3 >/dev/null; then
    python3 - "$fixture" "$work/seeds" <<'PY'
import json, os, sys
os.makedirs(sys.argv[2], exist_ok=True)
for line in open(sys.argv[1], encoding="utf-8"):
    case = json.loads(line)
    with open(os.path.join(sys.argv[2], "case-%d" % case["id"]), "w", encoding="utf-8") as seed:
        seed.write(case["format"])
PY
fi

source "$here/../dependencies.sh"
build_dependencies "$root" "$work" CivilCalendar
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name PredicateFuzz "${dependency_flags[@]}" \
    "$root"/Sources/PredicateKit/*.swift "$here/main.swift" -o "$work/predicate-fuzz"

cd "$work"
exec ./predicate-fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=512 \
    -dict="$here/predicate.dict" -print_final_stats=1 corpus seeds
