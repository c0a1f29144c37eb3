#!/usr/bin/env bash
# Tests of the C library (c/): the headers against the Rust definitions, the library's exports
# against the headers' declarations, the C test programs (shared, static, ASan+UBSan) against
# b3sum, the official BLAKE3 C code, hashlib and libb2, the official BLAKE3 C test driver (from the
# blake3 crate on crates.io), the speed test's arguments, and install/uninstall with pkg-config.
# Needs gcc, make, pkg-config, libb2-dev, librust-blake3-dev, b3sum, curl and python3
# (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== c: headers agree with the Rust constants and struct sizes"
cargo test -q -p arborhash-capi --test headers

echo "== c: build the library and the test programs"
make -s -C c check

echo "== c: every function the headers declare is exported, and nothing else"
declared=$(sed -n 's/^[a-z][a-z0-9_ *]*[ *]\(\(blake[23]\|arborhash_\)[a-z0-9_]*\)(.*/\1/p' \
  c/include/*.h | grep -vx blake2 | sort -u)
exported=$(nm -D --defined-only c/build/lib/libarborhash.so | awk '$2 == "T" { print $3 }' | sort -u)
if [ "$declared" != "$exported" ]; then
  diff <(echo "$declared") <(echo "$exported") || true
  echo "the headers' declarations (<) and the library's exports (>) differ" >&2
  exit 1
fi
echo "$(echo "$declared" | wc -l) functions"

if command -v c++ >/dev/null 2>&1; then
  echo "== c: the headers compile as C++ too"
  printf '#include "blake3.h"\n#include "blake2.h"\n#include "arborhash.h"\nint main() { return 0; }\n' |
    c++ -Wall -Wextra -Werror -Ic/include -x c++ -fsyntax-only -
fi

echo "== c: test programs"
c/test/run.sh

echo "== c: the official BLAKE3 C test driver and test.py (blake3 crate) against libarborhash"
c/test/official-driver/run.sh c/build/lib

echo "== c: the speed test builds and runs (a smoke test: 10 iterations), and its arguments"
make -s -C c speedtest
speedtest=c/speedtest/out/speedtest
# The btrfs hash-speedtest form, a positional iteration count, and the options.
"$speedtest" 10 --repetitions 1 --filter NULL | grep -q '^size 4096 B, 10 iterations, median of 1 '
"$speedtest" --iterations 10 --repetitions 1 --size 100 | grep -q '^size 100 B, 10 iterations, '
"$speedtest" --help | grep -q '^usage: speedtest .*\[ITERATIONS\]'
# Bad arguments (one case a line, in shell quoting): a message and exit status 1, never a crash.
while read -r line; do
  eval "set -- $line"
  status=0
  "$speedtest" "$@" >/dev/null 2>"$speedtest.err" || status=$?
  if [ "$status" -ne 1 ] || ! grep -q '^usage: speedtest' "$speedtest.err"; then
    echo "speedtest $line: exit status $status (expected 1 with the usage)" >&2
    exit 1
  fi
done <<'CASES'
0
-1
abc
10x
''
18446744073709551616
10 20
--iterations
--iterations 0
--size 67108865
--size 18446744073709551615
--repetitions 0
--repetitions 1001
--bogus
CASES
rm -f "$speedtest.err"

echo "== c: make install / uninstall, and a program built with pkg-config (shared, static)"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make -s -C c install PREFIX="$prefix/usr"
export PKG_CONFIG_PATH="$prefix/usr/lib/pkgconfig"
cflags=$(pkg-config --cflags arborhash)
[ "${cflags% }" = "-I$prefix/usr/include/arborhash" ]
cat > "$prefix/hello.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "blake3.h"
#include <blake2.h>
#include <arborhash.h>
int main(void) {
  blake3_hasher h;
  uint8_t a[BLAKE3_OUT_LEN], b[BLAKE2S_OUTBYTES];
  blake3_hasher_init(&h);
  blake3_hasher_update(&h, "abc", 3);
  blake3_hasher_finalize(&h, a, sizeof a);
  if (blake2s(b, "abc", NULL, sizeof b, 3, 0) != 0) return 1;
  printf("%02x%02x %02x%02x %s\n", a[0], a[1], b[0], b[1], arborhash_version());
  return 0;
}
C
# BLAKE3("abc") starts 6437, BLAKE2s-256("abc") 508c.
want="6437 508c $(sed -n 's/^version = "\(.*\)"/\1/p' c/Cargo.toml)"
# shellcheck disable=SC2046
cc -o "$prefix/hello-shared" "$prefix/hello.c" $(pkg-config --cflags --libs arborhash)
[ "$(LD_LIBRARY_PATH="$prefix/usr/lib" "$prefix/hello-shared")" = "$want" ]
# shellcheck disable=SC2046
cc -o "$prefix/hello-static" "$prefix/hello.c" $(pkg-config --cflags arborhash) \
  "$prefix/usr/lib/libarborhash.a" $(pkg-config --libs-only-l --static arborhash | sed 's/-larborhash//')
[ "$("$prefix/hello-static")" = "$want" ]
make -s -C c uninstall PREFIX="$prefix/usr"
left=$(find "$prefix/usr" -type f -o -type l)
if [ -n "$left" ]; then
  echo "uninstall left: $left" >&2
  exit 1
fi
echo "c: all tests passed"
