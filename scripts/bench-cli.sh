#!/usr/bin/env bash
# Compares `arbor sum` with b3sum, coreutils b2sum and `find | xargs b3sum` (hyperfine):
#   1. a 1 GiB file in the page cache: arbor vs b3sum (target: at least as fast), and
#      `arbor sum -a blake2b` vs coreutils b2sum (target: 2x faster or more);
#   2. 100,000 files of 4 KiB: `arbor sum -r` vs `find | xargs b3sum`.
# Files go under $BENCH_DIR (default /tmp/arbor-bench) and are kept for reruns. Run on a quiet
# machine; `RUNS=3 FILES=10000 ./scripts/bench-cli.sh` gives a quicker, rougher pass.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_DIR=${BENCH_DIR:-/tmp/arbor-bench}
RUNS=${RUNS:-10}
FILES=${FILES:-100000}

command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
command -v b3sum >/dev/null || cargo install b3sum --locked --quiet
command -v b2sum >/dev/null || { echo "coreutils b2sum is missing" >&2; exit 1; }

cargo build --release -q -p arbor
ARBOR=$PWD/target/release/arbor

mkdir -p "$BENCH_DIR"
BIG=$BENCH_DIR/1GiB.bin
if [ ! -f "$BIG" ]; then
  # Not zeros: lazily zeroed pages would flatter whoever touches them least.
  head -c 1G /dev/urandom >"$BIG"
fi
cat "$BIG" >/dev/null # into the page cache

TREE=$BENCH_DIR/tree-$FILES
if [ ! -f "$TREE/.done" ]; then
  rm -rf "$TREE"
  mkdir -p "$TREE"
  # 100 files per directory, random contents.
  python3 - "$TREE" "$FILES" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    d = os.path.join(root, "d%04d" % (i // 100))
    if i % 100 == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%03d" % (i % 100)), "wb") as f:
        f.write(os.urandom(4096))
PY
  touch "$TREE/.done"
fi
find "$TREE" -type f -exec cat {} + >/dev/null

echo "== 1 GiB file, BLAKE3"
hyperfine --runs "$RUNS" --warmup 1 -N \
  "b3sum $BIG" \
  "$ARBOR sum $BIG"

echo "== 1 GiB file, BLAKE2b"
hyperfine --runs "$RUNS" --warmup 1 -N \
  "b2sum $BIG" \
  "$ARBOR sum -a blake2b $BIG" \
  "$ARBOR sum -a blake2bp $BIG"

echo "== $FILES files of 4 KiB, BLAKE3"
hyperfine --runs "$RUNS" --warmup 1 \
  "find $TREE -type f -print0 | xargs -0 b3sum >/dev/null" \
  "$ARBOR sum -r $TREE >/dev/null"
