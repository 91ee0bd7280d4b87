#!/usr/bin/env bash
# Runs the built tests (`swift test --skip-build`, arguments passed on) and, when a test
# fails, prints the failures again as the run's last lines. A parallel run interleaves
# hundreds of suites, and CI logs often keep only their tail: the tail must name what failed.
set -uo pipefail

SWIFT=${SWIFT:-swift}
log=$(mktemp "${TMPDIR:-/tmp}/ubiquity-test.XXXXXX")
trap 'rm -f "$log"' EXIT

"$SWIFT" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

if [ "$status" -ne 0 ]; then
  echo
  echo "=== The tests failed (exit $status). What failed, repeated from above: ==="
  # Swift Testing marks a failed test and each recorded issue with ✘; XCTest and the
  # compiler write "error:"; a crash shows as a signal or a fatal error.
  grep -E '✘|error:|[Ff]atal error|signal|Exited with' "$log" | tail -n 60
fi
exit "$status"
