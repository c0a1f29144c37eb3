#!/usr/bin/env bash
# Bao in JavaScript and the demo page in a real browser (js/test/bao*.test.js): builds `arbor`
# (the encodings' oracle) and the WebAssembly module, installs the package's dev dependencies
# (puppeteer-core), and runs the tests on each build and the page in Debian's chromium
# (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== js: Bao against arbor bao, and the demo page in chromium"
cargo build --release -p arbor --quiet
(cd js && npm ci --no-audit --no-fund --silent && node scripts/build.mjs >/dev/null)
export ARBOR="$PWD/target/release/arbor"
for build in portable simd; do
  echo "== js: Bao, $build build"
  ARBORHASH_WASM=$build node --test js/test/bao.test.js js/test/bao-vectors.test.js
done
echo "== js: the demo page in chromium"
node --test js/test/bao-browser.test.js
