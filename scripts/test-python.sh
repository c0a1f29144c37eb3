#!/usr/bin/env bash
# The Python package (python/): its Rust lints, ruff, a wheel built from the tree into a fresh
# virtual environment, and its tests (pytest, with a Dask LocalCluster).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
"$python" -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q -r python/requirements-ci.txt

echo "== python: the extension's fmt and clippy (its own workspace), ruff"
(cd python && cargo fmt --check &&
  PYO3_PYTHON="$venv/bin/python" cargo clippy -q --release --all-targets -- -D warnings)
"$venv/bin/ruff" check python
"$venv/bin/ruff" format --check python

echo "== python: pip install ./python[dask] (builds the wheel), pytest"
"$venv/bin/pip" install -q "./python[dask]"
# hash_tree is compared with `arbor sum --manifest`.
cargo build -q -p arbor
ARBOR="$PWD/target/debug/arbor" "$venv/bin/pytest" -q python/tests
