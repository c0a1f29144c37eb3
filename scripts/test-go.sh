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

# --- go/bao: `arbor bao` for its byte-for-byte test (TestArborCLI), built as `cargo test` builds it (test profile) ---
echo "== go: arbor for go/bao's tests"
(cd .. && cargo build -q --profile test -p arbor)
export ARBOR=$PWD/../target/debug/arbor
# --- end go/bao ---

echo "== go: tests (assembly and purego)"
go test ./...
go test -tags purego ./...

echo "== go: programs written for zeebo/blake3 and tzhash, import swapped"
(cd internal/compat && go vet ./... && go test ./...)

# --- go/lukechampine/bao: the peer's own tests, fetched from the Go module proxy, run against ours ---
# Only the imports are changed (on a copy, in a temporary module): lukechampine.com/blake3/bao
# and lukechampine.com/blake3 (for the tests' input and Sum256) to ours.
echo "== go: lukechampine.com/blake3/bao's tests against go/lukechampine/bao"
luke_dir=$(go mod download -json lukechampine.com/blake3@v1.3.0 | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
if [ ! -f "$luke_dir/bao/bao_test.go" ]; then
  echo "lukechampine.com/blake3@v1.3.0: bao/bao_test.go not found (Go module proxy unreachable?)" >&2
  exit 1
fi
peer=$(mktemp -d)
trap 'rm -rf "$peer"' EXIT
mkdir "$peer/bao" "$peer/testdata"
cp "$luke_dir"/testdata/* "$peer/testdata/"
sed -e 's#"lukechampine.com/blake3/bao"#"github.com/arborhash/arborhash/go/lukechampine/bao"#' \
  -e 's#"lukechampine.com/blake3"#"github.com/arborhash/arborhash/go/lukechampine"#' \
  "$luke_dir/bao/bao_test.go" >"$peer/bao/bao_test.go"
if grep -q '"lukechampine.com/' "$peer/bao/bao_test.go"; then
  echo "lukechampine's bao tests: an import is left unchanged" >&2
  exit 1
fi
cp go.sum "$peer/go.sum"
cat >"$peer/go.mod" <<EOF
module baopeer

go 1.20

require github.com/arborhash/arborhash/go v0.0.0

replace github.com/arborhash/arborhash/go => $PWD
EOF
for tags in "" purego; do
  (cd "$peer" && GOFLAGS=-mod=mod go test -count=1 -tags "$tags" -v ./bao) | grep -E '^(--- |ok|FAIL|PASS)'
done
# --- end go/lukechampine/bao ---

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
