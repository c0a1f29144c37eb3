#!/usr/bin/env bash
# Installs what the tests need on a fresh machine (Debian packages, Rust components and targets,
# cargo tools); scripts/test.sh runs it first, so the README's one test command works on a fresh
# clone. Each step is skipped when what it installs is already there. Debian packages need root.
set -euo pipefail
cd "$(dirname "$0")/.."

# Installs the Debian packages named unless all of them are installed already.
apt_install() {
  if dpkg -s "$@" >/dev/null 2>&1; then
    return
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: needs root to install the Debian packages: $*" >&2
    exit 1
  fi
  if [ -z "${apt_updated:-}" ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "$@"
}

rustup component add rustfmt clippy >/dev/null 2>&1 || true

# The CLI's compatibility tests compare against b3sum and coreutils b2sum;
# scripts/test-cli-peers.sh runs the tests of this same b3sum version.
B3SUM_VERSION=1.8.7
if [ "$("${CARGO_HOME:-$HOME/.cargo}/bin/b3sum" --version 2>/dev/null)" != "b3sum $B3SUM_VERSION" ]; then
  cargo install b3sum --version "$B3SUM_VERSION" --locked --quiet
fi
apt_install coreutils

# C library (c/): libb2 and the official BLAKE3 C sources as references for the C tests;
# xxhash, ISA-L (CRC32C) and OpenSSL as peers of the C speed test.
apt_install gcc make pkg-config libb2-dev libxxhash-dev libssl-dev libisal-dev librust-blake3-dev
# The C tests fetch the blake3 crate's C test driver from crates.io with curl when cargo's
# download cache lacks it.
apt_install curl

# AArch64: cross linker and libc for scripts/test-arm.sh, and qemu-user, which runs it and the
# Go module's arm64 tests (scripts/test-go.sh).
apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
rustup target add aarch64-unknown-linux-gnu >/dev/null

# The Python package's conformance run (scripts/test-python.sh) uses the interpreter's own
# test.test_hashlib, which Debian's interpreters ship apart, in libpython3.X-testsuite.
python=${PYTHON:-python3}
if ! "$python" -c 'import test.test_hashlib' >/dev/null 2>&1 &&
  [ "$("$python" -c 'import sys; print(sys.base_prefix)')" = /usr ]; then
  apt_install "libpython$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-testsuite"
fi

# The npm package (js/, scripts/test-js.sh): the WebAssembly target its module is built for.
rustup target add wasm32-unknown-unknown >/dev/null
# The browser the demo page's test drives headless with puppeteer-core, which cannot download one.
apt_install chromium
