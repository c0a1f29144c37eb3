#!/usr/bin/env bash
# The Rust library's whole test suite built for AArch64 and run under qemu-aarch64 (user-mode
# emulation): the NEON backend (BLAKE3, BLAKE2b, BLAKE2s, Tillich-Zémor with PMULL) and the
# portable one, each forced inside the tests, against the same oracles as on x86-64 (the blake3,
# blake2b_simd, blake2s_simd and blake2 crates, the test vectors); then the instruction counts of
# scripts/arm-insns.sh --check (not a timing). Needs the aarch64 Rust target,
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user (.ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
rustup target add "$target" >/dev/null
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
source scripts/features.sh

echo "== rust (aarch64): clippy"
cargo clippy -p arborhash --all-targets --all-features --target "$target" -- -D warnings

start=$SECONDS
echo "== rust (aarch64, qemu): arborhash's tests, every test in full"
cargo test -p arborhash --features "$FEATURES" --target "$target"

echo "== rust (aarch64, qemu): the ARBORHASH_BACKEND override (avx2: the fallback to neon)"
for backend in portable neon avx2; do
  ARBORHASH_BACKEND=$backend cargo test -p arborhash --features "$FEATURES" --target "$target" \
    --test all -q backend_env
done
# arbor's own tests start the arbor binary as a process, which for another architecture needs
# binfmt_misc registered with the kernel (not the case in CI); the command is run here through
# qemu-aarch64 instead: its sums against b3sum and coreutils b2sum, and a short bench pairs run.
echo "== arbor (aarch64, qemu): sums against b3sum and b2sum; bench pairs runs"
cargo build -q -p arbor --features bench-peers --target "$target"
arbor() { qemu-aarch64 -L /usr/aarch64-linux-gnu "target/$target/debug/arbor" "$@"; }
diff <(arbor sum README.md Cargo.lock) <(b3sum README.md Cargo.lock)
diff <(arbor sum -a blake2b README.md Cargo.lock) <(b2sum README.md Cargo.lock)
arbor bench pairs --sizes 64,4096 --seconds 0.01 --filter "BLAKE3 arborhash neon vs" >/dev/null
echo "== AArch64 instruction counts (qemu) in a dependent's build: ours at most 1.05 times the peers'"
./scripts/arm-insns.sh --check
echo "aarch64 build and tests: $((SECONDS - start)) s"
