#!/usr/bin/env bash
# Prints the path of a free-threaded CPython 3.14 ("3.14t"), building it first if needed, for
# the Python package's tests (scripts/test.sh). No package registry serves a free-threaded
# interpreter, so its sources come from the Go module proxy (CPython's release tag as a Go
# module, checked against the Go checksum database), are built once with --disable-gil and
# installed under target/, where later runs find it.
set -euo pipefail
cd "$(dirname "$0")/.."

version=3.14.7
prefix=$PWD/target/cpython-${version}t
python=$prefix/bin/python3.14t

if [ ! -x "$python" ]; then
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  # Outside any Go module, `go mod download` fetches into the module cache and reports where.
  info=$(cd "$build" && GOFLAGS=-modcacherw go mod download -json \
    "github.com/python/cpython@v$version+incompatible") || { echo "$info" >&2; exit 1; }
  src=$(echo "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp -r "$src/." "$build"
  chmod -R u+w "$build"
  # Module archives keep no file modes: the build's scripts need theirs back.
  find "$build" -name '*.sh' -exec chmod +x {} +
  chmod +x "$build/configure" "$build/install-sh" "$build/config.guess" "$build/config.sub"
  (
    cd "$build"
    ./configure --disable-gil --prefix="$prefix" >"$build/configure.log" 2>&1 ||
      { tail -20 "$build/configure.log" >&2; exit 1; }
    make -j"$(nproc)" >"$build/make.log" 2>&1 || { tail -40 "$build/make.log" >&2; exit 1; }
    make install >"$build/install.log" 2>&1 || { tail -20 "$build/install.log" >&2; exit 1; }
  ) >&2
fi
echo "$python"
