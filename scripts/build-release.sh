#!/usr/bin/env bash
# Builds release ubqd and ubq into .build-release and prints the folder that holds them:
# what `make install` installs and the benchmarks measure, built the same way everywhere
# (changing the flags of one scratch folder rebuilds all of it).
#
# The Swift runtime and Foundation are linked in (--static-swift-stdlib): the installed
# programs need no toolchain at run time, and `ubq` starts in about half the time, since
# the dynamic loader no longer resolves the Swift libraries (`hyperfine -N 'ubq --help'`:
# 19.3 ms dynamic, 10.0 ms static on the development machine). The price is size: ubq is
# about 70 MB stripped instead of 10 MB plus the toolchain's libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
flags=(-c release --scratch-path .build-release --static-swift-stdlib)
for product in ubqd ubq; do "$SWIFT" build "${flags[@]}" --product "$product" >&2; done
"$SWIFT" build "${flags[@]}" --show-bin-path
