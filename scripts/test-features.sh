#!/usr/bin/env bash
# The Cargo features that limit arborhash's backends (pure, no_sse41, no_avx2, no_avx512), one
# build each: enabled together with the rest (as --all-features does), they would leave the
# other tests only the portable backend, so scripts/test.sh tests with every other feature and
# this script checks each limit on its own.
set -euo pipefail
cd "$(dirname "$0")/.."

for feature in pure no_sse41 no_avx2 no_avx512; do
  echo "-- feature $feature"
  cargo test -q -p arborhash --features "$feature" --test feature_limits
done
