#!/usr/bin/env bash
# Compares `arbor sum` with b3sum, coreutils b2sum and `find | xargs b3sum` (hyperfine):
#   1. a 1 GiB file in the page cache: arbor vs b3sum (target: at least as fast), and
#      `arbor sum -a blake2b` vs coreutils b2sum (target: 2x faster or more);
#   2. 100,000 files of 4 KiB: `arbor sum -r` vs `find | xargs b3sum`.
# Files go under $BENCH_DIR (default /tmp/arbor-bench) and are kept for reruns. Run on a quiet
# machine; `RUNS=3 FILES=10000 ./scripts/bench-cli.sh` gives a quicker, rougher pass.
# CALLGRIND=1 instead counts instructions (repeatable under load) for a 64 MiB file and for -r on
# the tree of small files, and prints the shares spent in the compression kernels and outside.
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

if [ "${CALLGRIND:-0}" = 1 ]; then
  head -c 64M "$BIG" >"$BENCH_DIR/64MiB.bin"
  profile() { # NAME COMMAND...: instructions by where they are spent
    local out="$BENCH_DIR/callgrind.$1"
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
    callgrind_annotate --inclusive=no --tree=none --auto=no --threshold=100 "$out" | python3 -c '
import re, sys
total, parts = 0, {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)", line)
    if not m:
        continue
    n, where = int(m.group(1).replace(",", "")), m.group(2)
    if "PROGRAM TOTALS" in where:
        total = n
        continue
    fn = where.split(":", 1)[-1]
    kind = ("kernels" if re.search(r"hash_lanes|compress", fn)
            else "arborhash tree/batch" if fn.startswith("arborhash::") else "outside arborhash")
    parts[kind] = parts.get(kind, 0) + n
print("   %.1fM instructions:" % (total / 1e6),
      ", ".join("%s %.1f%%" % (k, 100 * v / total) for k, v in sorted(parts.items())))'
  }
  echo "== callgrind (valgrind hides AVX-512: the AVX2 kernels run)"
  echo "-- arbor sum, 64 MiB";                 profile b3 "$ARBOR" sum "$BENCH_DIR/64MiB.bin"
  echo "-- arbor sum -a blake2b, 64 MiB";      profile b2 "$ARBOR" sum -a blake2b "$BENCH_DIR/64MiB.bin"
  echo "-- arbor sum -r, $FILES files of 4 KiB"; profile small "$ARBOR" sum -r "$TREE"
  exit 0
fi

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
