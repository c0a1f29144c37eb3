#!/usr/bin/env bash
# Instructions per byte of our AArch64 kernels and the peer crates' under qemu-aarch64, counted
# by the TCG plugin of tools/insn-count: for each algorithm and size, the program of
# tools/dependent runs once with the repetitions and once with none, and the difference of the
# two counts over the bytes hashed is what the hashing cost (start-up and the input's set-up
# cancel out). That program is a crate of its own depending on arborhash, built with Cargo's
# default release profile (16 codegen units, no LTO): the build any dependent gets.
#
# Usage: scripts/arm-insns.sh [algorithm:backend ...]   (default: the table of docs/arm.md)
#        scripts/arm-insns.sh --check
# --check counts our BLAKE3, BLAKE2b and BLAKE2s (NEON) and the peer crates' at 64 KiB and 1 MiB
# and fails if any of ours exceeds 1.05 times its peer's (counts are exact: not a timed test).
# Needs what scripts/test-arm.sh needs, and gcc for the plugin. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
rustup target add "$target" >/dev/null
cargo build -q --release --locked --manifest-path tools/dependent/Cargo.toml --target "$target" \
  --target-dir target/dependent
bin=target/dependent/$target/release/hash_loop

plugin_dir=target/insn-count
mkdir -p "$plugin_dir"
# Built aside and renamed, so that a run already counting never loads a half-written plugin.
gcc -shared -fPIC -O2 -fvisibility=hidden -Wall -Wextra -Werror \
  -o "$plugin_dir/libinsn_count.so.$$" tools/insn-count/insn_count.c
mv -f "$plugin_dir/libinsn_count.so.$$" "$plugin_dir/libinsn_count.so"

# The instructions one run executes: $1 algorithm, $2 backend of ours, $3 bytes, $4 repetitions.
count() {
  local out
  out=$(ARBORHASH_BACKEND=$2 qemu-aarch64 -L /usr/aarch64-linux-gnu \
    -plugin "$plugin_dir/libinsn_count.so" -d plugin "$bin" "$1" "$3" "$4" 2>&1)
  sed -n 's/^insns: //p' <<<"$out" | grep . || { echo "arm-insns: no count: $out" >&2; exit 1; }
}

# Instructions per byte: $1 algorithm, $2 backend ("-" for a peer crate), $3 bytes.
per_byte() {
  local env_backend=$2 reps base total
  [ "$env_backend" = - ] && env_backend=
  # About 4 MiB hashed per figure (at least one repetition): enough that the loop, not the
  # start-up, dominates, few enough to stay quick under emulation.
  reps=$(( (4 << 20) / $3 ))
  [ "$reps" -lt 1 ] && reps=1
  [ "$1" = tz ] && reps=$(( (reps + 7) / 8 ))
  base=$(count "$1" "$env_backend" "$3" 0)
  total=$(count "$1" "$env_backend" "$3" "$reps")
  awk -v t="$total" -v b="$base" -v r="$reps" -v n="$3" 'BEGIN { printf "%.4f", (t - b) / (r * n) }'
}

if [ "${1:-}" = --check ]; then
  fail=0
  printf '| ours | peer | bytes | ours per byte | peer per byte | ratio |\n|---|---|---:|---:|---:|---:|\n'
  for pair in blake3:blake3-crate blake2b:blake2b_simd blake2s:blake2s_simd; do
    ours=${pair%%:*}
    peer=${pair#*:}
    for n in 65536 1048576; do
      a=$(per_byte "$ours" neon "$n")
      b=$(per_byte "$peer" - "$n")
      ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
      printf '| %s neon | %s | %s | %s | %s | %s |\n' "$ours" "$peer" "$n" "$a" "$b" "$ratio"
      if awk -v r="$ratio" 'BEGIN { exit !(r > 1.05) }'; then
        echo "arm-insns: $ours at $n B runs $ratio times the instructions of $peer (limit 1.05)" >&2
        fail=1
      fi
    done
  done
  exit "$fail"
fi

sizes=(64 1024 4096 65536 1048576)
rows=("${@:-blake3:neon blake3:portable blake3-crate:- blake2b:neon blake2b:portable blake2b_simd:- blake2s:neon blake2s:portable blake2s_simd:- blake2bp:neon blake2bp_simd:- blake2sp:neon blake2sp_simd:- tz:neon tz:portable}")
# shellcheck disable=SC2206
rows=(${rows[*]})

printf '| algorithm | backend |'
for n in "${sizes[@]}"; do printf ' %s B |' "$n"; done
printf '\n|---|---|'
for _ in "${sizes[@]}"; do printf '%s' '---:|'; done
printf '\n'
for row in "${rows[@]}"; do
  algorithm=${row%%:*}
  backend=${row#*:}
  printf '| %s | %s |' "$algorithm" "$backend"
  for n in "${sizes[@]}"; do
    x=$(per_byte "$algorithm" "$backend" "$n")
    printf ' %.2f |' "$x"
  done
  printf '\n'
done
