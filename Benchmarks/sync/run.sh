#!/usr/bin/env bash
# `make bench-sync`: the sync benchmark of issue 7 (see bench.py). Builds release ubqd and
# ubq into .build-release and installs rsync and unison when missing.
# Scale down for a quick run: BENCH_FILES=10000 BENCH_DIRS=1000 BENCH_BIG_MIB=256 make bench-sync
set -euo pipefail
cd "$(dirname "$0")/../.."
missing=()
for tool in rsync unison python3 openssl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
# The format floor (floor/floor.c) is C on OpenSSL's SHA-256.
command -v cc >/dev/null || missing+=(gcc)
[ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Built first, on its own line: set -e stops here if the build fails (inside the exec's
# arguments a failed build went unnoticed, and the benchmark ran with no binaries).
bin=$(scripts/build-release.sh)
cc -O2 -Wall -Wextra -o "$bin/floor" Benchmarks/sync/floor/floor.c -lcrypto -lpthread
exec python3 Benchmarks/sync/bench.py "$bin"
