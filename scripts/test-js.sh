#!/usr/bin/env bash
# The npm package (js/): builds both WebAssembly modules from source, installs the peers from the
# committed lock file, checks the types, and runs the tests once per build (each forced).
set -euo pipefail
cd "$(dirname "$0")/../js"

echo "== js: wasm builds (portable, simd128), npm ci"
cargo fmt --manifest-path wasm/Cargo.toml --check
cargo clippy --manifest-path wasm/Cargo.toml --target wasm32-unknown-unknown --release -- -D warnings
npm ci --no-audit --no-fund --loglevel=error
npm run --silent build

echo "== js: tsc --noEmit: the .d.ts files on a typed usage file, and the JavaScript itself"
npx --no-install tsc --noEmit -p types/tsconfig.json
npx --no-install tsc -p tsconfig.check.json

for build in portable simd; do
  echo "== js: node --test, $build build"
  ARBORHASH_WASM=$build node --test test/
done

echo "== js: blake3-wasm's own published tests against arborhash/blake3-wasm"
node scripts/peer-suite-blake3-wasm.mjs
