#!/usr/bin/env bash
# Instructions per byte of our AArch64 kernels and the peer crates' under qemu-aarch64, counted
# by the TCG plugin of tools/insn-count: for each algorithm and size, the example hash_loop runs
# once with the repetitions and once with none, and the difference of the two counts over the
# bytes hashed is what the hashing cost (start-up and the input's set-up cancel out).
#
# Usage: scripts/arm-insns.sh [algorithm:backend ...]   (default: the table of docs/arm.md)
# Needs what scripts/test-arm.sh needs, and gcc for the plugin. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
rustup target add "$target" >/dev/null
cargo build -q --release -p arborhash --example hash_loop --target "$target"
bin=target/$target/release/examples/hash_loop

plugin_dir=target/insn-count
mkdir -p "$plugin_dir"
gcc -shared -fPIC -O2 -fvisibility=hidden -Wall -Wextra -Werror \
  -o "$plugin_dir/libinsn_count.so" tools/insn-count/insn_count.c

# The instructions one run executes: $1 algorithm, $2 backend of ours, $3 bytes, $4 repetitions.
count() {
  ARBORHASH_BACKEND=$2 qemu-aarch64 -L /usr/aarch64-linux-gnu \
    -plugin "$plugin_dir/libinsn_count.so" -d plugin "$bin" "$1" "$3" "$4" 2>&1 |
    sed -n 's/^insns: //p'
}

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
  [ "$backend" = - ] && env_backend= || env_backend=$backend
  printf '| %s | %s |' "$algorithm" "$backend"
  for n in "${sizes[@]}"; do
    # About 4 MiB hashed per figure (at least one repetition): enough that the loop, not the
    # start-up, dominates, few enough to stay quick under emulation.
    reps=$(( (4 << 20) / n ))
    [ "$reps" -lt 1 ] && reps=1
    [ "$algorithm" = tz ] && reps=$(( (reps + 7) / 8 ))
    base=$(count "$algorithm" "$env_backend" "$n" 0)
    total=$(count "$algorithm" "$env_backend" "$n" "$reps")
    awk -v t="$total" -v b="$base" -v r="$reps" -v n="$n" 'BEGIN { printf " %.2f |", (t - b) / (r * n) }'
  done
  printf '\n'
done
