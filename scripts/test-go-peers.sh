#!/usr/bin/env bash
# The peers' own Go test files run against this module's packages: each
# module is fetched from the Go module proxy (go mod download), its test
# files are copied to a temporary module with only the package clause and
# import paths changed by go/internal/peertest, which also drops the tests
# of the peer's private internals listed below (go/README.md says why for
# each), and go test runs them there against ../go (a replace).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
ours=github.com/arborhash/arborhash/go
luke=lukechampine.com/blake3@v1.4.1
zeebo=github.com/zeebo/blake3@v0.2.4
tzhash=github.com/nspcc-dev/tzhash@v1.8.0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
moddir() { (cd "$tmp" && go mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'); }
(cd "$repo/go" && go build -o "$tmp/peertest" ./internal/peertest)

# prep SRC OUTDIR PKG DOT DROP [IMPORT REWRITES...]: one file, its import of
# the peer's package under test rewritten to ours.
prep() {
  local src=$1 out=$2 pkg=$3 dot=$4 drop=$5
  shift 5
  mkdir -p "$tmp/m/$out"
  local args=(-pkg "$pkg" -drop "$drop")
  [ -n "$dot" ] && args+=(-dot "$dot")
  for r in "$@"; do args+=(-import "$r"); done
  "$tmp/peertest" "${args[@]}" "$src" "$tmp/m/$out/$(basename "$src")"
}

L=$(moddir $luke)
Z=$(moddir $zeebo)
T=$(moddir $tzhash)
for d in "$L" "$Z" "$T"; do
  [ -d "$d" ] || { echo "peer module missing: $d" >&2; exit 1; }
done

mkdir -p "$tmp/m"
cat >"$tmp/m/go.mod" <<MOD
module peertests

go 1.22

require $ours v0.0.0

replace $ours => $repo/go
MOD

# lukechampine.com/blake3, root package: an external test package already;
# its guts package stays the peer's (TestXOF builds its expected output with
# it). TestEigentrees tests only guts.
prep "$L/blake3_test.go" luke blake3_test "" TestEigentrees lukechampine.com/blake3=$ours/lukechampine
cp -r "$L/testdata" "$tmp/m/luke/"

# zeebo/blake3: in-package tests, run as package blake3_test with ours
# dot-imported. blake3_test.go and bench_test.go test the unexported hasher
# and internal/alg only.
for f in api_test.go api_example_test.go fuzz_test.go vec_test.go; do
  prep "$Z/$f" zeebo blake3_test $ours/blake3 ""
done

# tzhash: tz's in-package tests likewise; digest_test.go and sl2_test.go
# test the unexported digest and sl2 types, as TestHomomorphism does.
prep "$T/tz/hash_test.go" tz tz_test $ours/tz TestHomomorphism
for f in gf127_test.go gf127x2_test.go; do
  prep "$T/gf127/$f" gf127 gf127_test $ours/gf127 ""
done
# The tables of gf127's tests use two unexported constants of tzhash's
# gf127: the harness gives their values.
printf 'package gf127_test\n\nconst (\n\tmaxUint64 = ^uint64(0)\n\tmsb64     = uint64(1) << 63\n)\n' >"$tmp/m/gf127/consts_test.go"

cd "$tmp/m"
# The peers' test dependencies at the versions their go.mod files require.
go get lukechampine.com/blake3@v1.4.1 github.com/zeebo/assert@v1.1.0 github.com/stretchr/testify@v1.8.4
go mod tidy
go vet ./...
echo "-- purego build"
go test -count=1 -tags purego ./...
echo "-- assembly build"
go test -count=1 -v ./... >"$tmp/log" || { cat "$tmp/log"; exit 1; }
# Top-level tests and examples per package; a skip counts as a failure.
awk '/^--- PASS/ {p++} /^--- SKIP/ {s++} /^(ok|FAIL)/ {printf "%s: %d passed, %d skipped\n", $2, p, s; t += s; p = s = 0}
  END {exit t > 0}' "$tmp/log"
