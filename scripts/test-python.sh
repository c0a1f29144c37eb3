#!/usr/bin/env bash
# The Python package (python/): its Rust lints, ruff, a wheel built from the tree into a fresh
# virtual environment, its tests (pytest, with a Dask LocalCluster), its type stubs, and the
# peers' own suites run against it (the blake3 package's, CPython's test_hashlib).
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
# hash_tree is compared with `arbor sum --manifest`; test_cross_language builds one tree with
# the subtree commands of Rust, Go and C.
cargo build -q -p arbor
cargo build -q -p arborhash --example subtree
(cd go && go build -o "$venv/subtree-go" ./internal/cmd/subtree)
make -s -C c check >/dev/null
ARBOR="$PWD/target/debug/arbor" ARBORHASH_SUBTREE_RUST="$PWD/target/debug/examples/subtree" \
  ARBORHASH_SUBTREE_GO="$venv/subtree-go" ARBORHASH_SUBTREE_C="$PWD/c/test/out/asan/subtree_cmd" \
  "$venv/bin/pytest" -q python/tests

echo "== python: the type stubs against the runtime (mypy.stubtest)"
"$venv/bin/python" -m mypy.stubtest --mypy-config-file python/pyproject.toml \
  arborhash._arborhash arborhash.hazmat

echo "== python: the blake3 package's own tests (from its sdist on PyPI) against arborhash"
# The pinned version's sdist; `--no-binary blake3` rather than `:all:`, which would also build
# its build backend (maturin) from source, and pip only reads the sdist's metadata with the
# maturin installed above.
blake3_version=$(sed -n 's/^blake3==//p' python/requirements-ci.txt)
PATH="$venv/bin:$PATH" "$venv/bin/pip" download -q --no-deps --no-binary blake3 \
  --no-build-isolation -d "$venv/peer" "blake3==$blake3_version"
tar -xzf "$venv/peer/blake3-$blake3_version.tar.gz" -C "$venv/peer"
suite="$venv/peer/blake3-$blake3_version/tests"
# Only the import changes, in the suite and in the example program it runs.
sed -i 's/^from blake3 import /from arborhash import /' "$suite/test_blake3.py" "$suite/example.py"
if grep -nE '^\s*(from blake3[ .]|import blake3)' "$suite/test_blake3.py" "$suite/example.py" ||
  ! grep -q '^from arborhash import blake3, __version__$' "$suite/test_blake3.py" ||
  ! grep -q '^from arborhash import blake3$' "$suite/example.py"; then
  echo "the blake3 suite's imports are not the expected ones: update the harness" >&2
  exit 1
fi
# Not applicable (docs/python.md): test_int_array_fails, since arborhash takes buffers of any
# item type, as hashlib does.
(cd "$suite/.." && "$venv/bin/pytest" -q -p no:cacheprovider tests/test_blake3.py \
  --deselect tests/test_blake3.py::test_int_array_fails) | tee "$venv/blake3-suite.log"
grep -q ' 1 deselected' "$venv/blake3-suite.log"

echo "== python: CPython's own test.test_hashlib with hashlib's BLAKE2 replaced by arborhash's"
"$venv/bin/python" python/peers/hashlib_suite.py
