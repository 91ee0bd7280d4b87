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

# Suites about permissions skip themselves as root, whose permission checks always pass:
# run as root (CI), run them again as `nobody`.
unprivileged_suites="ReadOnlyFolderTests|MirrorPermissionTests"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  tests="$("$SWIFT" build --show-bin-path "$@")/UbiquityPackageTests.xctest"
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  if "${as_nobody[@]}" test -x "$tests"; then
    home=$(mktemp -d "${TMPDIR:-/tmp}/ubiquity-nobody.XXXXXX")
    chown 65534:65534 "$home"
    echo "=== As nobody: $unprivileged_suites ==="
    HOME=$home "${as_nobody[@]}" "$tests" --testing-library swift-testing --filter "$unprivileged_suites" 2>&1 | tee -a "$log"
    nobody_status=${PIPESTATUS[0]}
    rm -rf "$home"
    [ "$nobody_status" -eq 0 ] || status=$nobody_status
  else
    echo "=== Not run: $unprivileged_suites (nobody cannot reach $tests; clone the repository where it can) ==="
  fi
fi

if [ "$status" -ne 0 ]; then
  echo
  echo "=== The tests failed (exit $status). What failed, repeated from above: ==="
  # Swift Testing marks a failed test and each recorded issue with ✘; XCTest and the
  # compiler write "error:"; a crash shows as a signal or a fatal error.
  grep -E '✘|error:|[Ff]atal error|signal|Exited with' "$log" | tail -n 60
fi
exit "$status"
