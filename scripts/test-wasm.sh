#!/usr/bin/env bash
# The library's unit tests on WebAssembly (the kernel tests among them, which force every
# backend the build supports against the portable kernels): built for wasm32-wasip1 with
# SIMD128 and without, each run under Node's WASI (scripts/wasi-run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip1
for build in simd128 portable; do
  flags=""
  if [ "$build" = simd128 ]; then flags="-C target-feature=+simd128"; fi
  echo "== wasm32-wasip1, $build build: cargo test --lib under node:wasi"
  test_bin=$(RUSTFLAGS="$flags" cargo test -p arborhash --lib --no-run --quiet \
    --target wasm32-wasip1 --target-dir "target/wasm-test/$build" --message-format=json |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
  node --no-warnings scripts/wasi-run.mjs "$test_bin" --test-threads=1
done
