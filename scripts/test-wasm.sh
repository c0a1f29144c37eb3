#!/usr/bin/env bash
# The library on WebAssembly, built for wasm32-wasip1 with SIMD128 and without: clippy on each
# build (the root clippy never compiles the wasm32 code), and the unit tests (the kernel tests
# among them, which force every backend the build supports against the portable kernels) run
# under Node's WASI (scripts/wasi-run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip1
for build in simd128 portable; do
  flags=""
  if [ "$build" = simd128 ]; then flags="-C target-feature=+simd128"; fi
  echo "== wasm32-wasip1, $build build: clippy, cargo test --lib under node:wasi"
  RUSTFLAGS="$flags" cargo clippy -p arborhash --lib --quiet --target wasm32-wasip1 \
    --target-dir "target/wasm-test/$build" -- -D warnings
  test_bin=$(RUSTFLAGS="$flags" cargo test -p arborhash --lib --no-run --quiet \
    --target wasm32-wasip1 --target-dir "target/wasm-test/$build" --message-format=json |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
  node --no-warnings scripts/wasi-run.mjs "$test_bin" --test-threads=1
done
