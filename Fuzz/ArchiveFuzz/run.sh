#!/usr/bin/env bash
# Fuzzes the KeyedArchive decoder with libFuzzer + AddressSanitizer for SECONDS (default 60),
# seeded with the shared fixture archives. Crashing inputs land in $FUZZ_WORK/crashes/ (a temp
# folder unless FUZZ_WORK is set); the grown corpus stays there for the next run.
# usage: Fuzz/ArchiveFuzz/run.sh [SECONDS]
set -euo pipefail
seconds="${1:-60}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${FUZZ_WORK:-$(mktemp -d /tmp/archive-fuzz.XXXXXX)}"
mkdir -p "$work/corpus" "$work/crashes"
cp "$root/../shared/fixtures/keyedarchive/archives/"* "$work/corpus/" 2>/dev/null || true

source "$here/../dependencies.sh"
build_dependencies "$root" "$work" CivilCalendar
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name ArchiveFuzz "${dependency_flags[@]}" \
    "$root"/Sources/KeyedArchive/*.swift "$here/main.swift" -o "$work/archive-fuzz"

"$work/archive-fuzz" "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/crashes/"
