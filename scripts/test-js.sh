#!/usr/bin/env bash
# The npm package (js/): builds both WebAssembly modules from source, installs the peers from the
# committed lock file, checks the types, and runs the tests once per build (each forced); the demo
# page's test runs once, in Debian's chromium (scripts/setup.sh installs it), and the Bao test
# across languages (arbor, the Go command go/internal/cmd/bao and this package) once.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== js: arbor, the oracle of the Bao tests"
cargo build --release -p arbor --quiet
export ARBOR="$PWD/target/release/arbor"
cd js

echo "== js: wasm builds (portable, simd128), npm ci"
cargo fmt --manifest-path wasm/Cargo.toml --check
cargo clippy --manifest-path wasm/Cargo.toml --target wasm32-unknown-unknown --release -- -D warnings
npm ci --no-audit --no-fund --loglevel=error
npm run --silent build

echo "== js: tsc --noEmit: the .d.ts files on a typed usage file, and the JavaScript itself"
npx --no-install tsc --noEmit -p types/tsconfig.json
npx --no-install tsc -p tsconfig.check.json

# Every test file but the browser's, which loads the build the page chooses, and the Bao test
# across languages, which needs one build only.
mapfile -t node_tests < <(ls test/*.test.js |
  grep -v -e '^test/bao-browser\.test\.js$' -e '^test/bao-cross-language\.test\.js$')
for build in portable simd; do
  echo "== js: node --test, $build build"
  ARBORHASH_WASM=$build node --test "${node_tests[@]}"
done

echo "== js: Bao across languages: encoded by Rust, Go and JavaScript, decoded by the other two"
node --test test/bao-cross-language.test.js

echo "== js: the demo page in headless chromium"
node --test test/bao-browser.test.js

echo "== js: blake3-wasm's own published tests against arborhash/blake3-wasm"
node scripts/peer-suite-blake3-wasm.mjs
