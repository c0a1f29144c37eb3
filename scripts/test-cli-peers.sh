#!/usr/bin/env bash
# b3sum's own command-line tests (tests/cli_tests.rs of the b3sum crate, the version that
# scripts/setup.sh installs as the peer binary) run against `arbor` linked as `b3sum`. The crate is
# fetched from crates.io at test time and unpacked in a temporary directory (outside this
# workspace, whose member it is not), never kept in the repository;
# the only change made to it is the path of the binary under test. docs/cli.md lists the tests
# that cannot apply.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^B3SUM_VERSION=//p' scripts/setup.sh)
if [ -z "$version" ]; then
  echo "test-cli-peers: no B3SUM_VERSION in scripts/setup.sh" >&2
  exit 1
fi
work=$PWD/target/b3sum-peer
mkdir -p "$work/fetch/src" "$work/bin"

echo "== cli: b3sum $version's tests/cli_tests.rs against arbor as b3sum"
# cargo fetch of a project depending on the crate puts its .crate in cargo's registry cache.
cat >"$work/fetch/Cargo.toml" <<TOML
[package]
name = "fetch-b3sum"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
b3sum = "=$version"

[workspace]
TOML
echo 'fn main() {}' >"$work/fetch/src/main.rs"
cargo fetch -q --manifest-path "$work/fetch/Cargo.toml"
crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"b3sum-$version.crate" | head -n 1)

unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
tar -xzf "$crate" -C "$unpacked"
src=$unpacked/b3sum-$version
test_file=$src/tests/cli_tests.rs
# The one change: the binary under test is arbor linked as b3sum, not the crate's own.
grep -q 'env!("CARGO_BIN_EXE_b3sum")' "$test_file"
sed -i 's|env!("CARGO_BIN_EXE_b3sum")|env!("ARBOR_AS_B3SUM")|' "$test_file"
if grep -q CARGO_BIN_EXE "$test_file"; then
  echo "test-cli-peers: cli_tests.rs names another binary" >&2
  exit 1
fi

cargo build -q -p arbor
ln -sf "$PWD/target/debug/arbor" "$work/bin/b3sum"
# A separate target directory keeps the peer's dependencies built between runs.
ARBOR_AS_B3SUM="$work/bin/b3sum" CARGO_TARGET_DIR="$work/target" \
  cargo test -q --locked --manifest-path "$src/Cargo.toml" --test cli_tests
