#!/usr/bin/env bash
# The Go module's checks: formatting, vet on amd64 and arm64, tests of the
# assembly and purego builds, natively and on arm64 under qemu-aarch64, the
# drop-in programs (internal/compat), and the go directive's toolchain.
set -euo pipefail
cd "$(dirname "$0")/../go"

echo "== go: gofmt, vet (amd64, arm64; assembly and purego)"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt needed: $unformatted" >&2
  exit 1
fi
for arch in amd64 arm64; do
  GOARCH=$arch go vet ./...
  GOARCH=$arch go vet -tags purego ./...
done

echo "== go: tests (assembly and purego)"
go test ./...
go test -tags purego ./...

echo "== go: programs written for zeebo/blake3 and tzhash, import swapped"
(cd internal/compat && go vet ./... && go test ./...)

# The peers' own test files against this module (go/README.md lists what
# cannot apply), and vet of the benchmarks against them (a module of its own).
echo "== go: test suites of zeebo/blake3, tzhash and lukechampine.com/blake3"
../scripts/test-go-peers.sh
(cd internal/bench && go vet ./...)

echo "== go: arm64 under qemu-aarch64 (assembly and purego)"
if command -v qemu-aarch64 >/dev/null 2>&1; then
  GOARCH=arm64 go test -exec qemu-aarch64 ./...
  GOARCH=arm64 go test -exec qemu-aarch64 -tags purego ./...
  (cd internal/compat && GOARCH=arm64 go test -exec qemu-aarch64 ./...)
else
  echo "qemu-aarch64 missing (.ci/run installs qemu-user)" >&2
  exit 1
fi

# The go directive (go.mod) is the oldest Go the module supports: test with
# that version's last release, whose toolchain the Go proxy serves.
toolchain=go1.20.14
min=$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod)
if [[ ${toolchain#go} != "$min".* ]]; then
  echo "go.mod says go $min: update the toolchain in $0" >&2
  exit 1
fi
echo "== go: vet and tests with $toolchain (go.mod's go $min)"
if GOTOOLCHAIN=$toolchain go version >/dev/null 2>&1; then
  GOTOOLCHAIN=$toolchain go vet ./...
  GOTOOLCHAIN=$toolchain GOARCH=arm64 go vet ./...
  GOTOOLCHAIN=$toolchain go test ./...
  (cd internal/compat && GOTOOLCHAIN=$toolchain go test ./...)
else
  echo "note: $toolchain unavailable; the go directive's language check above stands for it"
fi
