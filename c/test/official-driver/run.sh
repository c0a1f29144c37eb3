#!/usr/bin/env bash
# The official BLAKE3 C test driver and its script (c/main.c and c/test.py of the blake3 crate,
# fetched from crates.io at test time) against libarborhash, once per backend.
#
# Changed from the official `make -f Makefile.testing test`, and nothing else: main.c is
# compiled in a directory of its own, so that its #include "blake3.h" finds our header through
# -I rather than the crate's blake3.h beside it; blake3_impl.h, an internal header of the
# official library, is our stand-in (blake3_impl.h and cpu_features.c here); it links against
# libarborhash.so; and test.py reads test_vectors/test_vectors.json, which the crate does not
# ship, from the repository's copy of that file (testvectors/blake3.json).
#
#   run.sh LIBDIR   (LIBDIR holds libarborhash.so)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
lib=$(cd "${1:?usage: run.sh LIBDIR}" && pwd)
version=1.8.7
sha256=6d9e454fc11f76977dc803893aff6304ed33d6a26efae8696573bea74baa27ae

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The .crate from cargo's download cache if an earlier build fetched it, else from crates.io.
crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/blake3-$version.crate 2>/dev/null | head -n 1 || true)
if [ -z "$crate" ]; then
  crate=$work/blake3-$version.crate
  curl -sSfL --retry 3 -o "$crate" "https://static.crates.io/crates/blake3/blake3-$version.crate"
fi
echo "$sha256  $crate" | sha256sum -c --quiet -
tar -xzf "$crate" -C "$work" "blake3-$version/c/main.c" "blake3-$version/c/test.py"

driver=$work/driver
mkdir -p "$driver/c" "$driver/test_vectors"
cp "$work/blake3-$version/c/main.c" "$work/blake3-$version/c/test.py" "$driver/c/"
cp "$root/testvectors/blake3.json" "$driver/test_vectors/test_vectors.json"

# The official Makefile.testing's flags for `test`, with our include path and library.
${CC:-cc} -O3 -Wall -Wextra -std=c11 -pedantic -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
  -DBLAKE3_TESTING -fsanitize=address,undefined -fno-sanitize-recover=all \
  -I"$here" -I"$root/c/include" -o "$driver/c/blake3" "$driver/c/main.c" "$here/cpu_features.c" \
  -L"$lib" -Wl,-rpath,"$lib" -larborhash

cases=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["cases"]))' \
  "$driver/test_vectors/test_vectors.json")
# The backends this CPU runs (a request for another would fall back to the best one).
backends=(portable)
for flag in sse4_1 avx2 avx512vl; do
  if grep -qw "$flag" /proc/cpuinfo; then
    case $flag in sse4_1) backends+=(sse41) ;; avx2) backends+=(avx2) ;; avx512vl) backends+=(avx512) ;; esac
  fi
done
for backend in "${backends[@]}"; do
  if ! ARBORHASH_BACKEND=$backend python3 "$driver/c/test.py" 2>"$work/stderr"; then
    grep -v '^arborhash backend\|^Testing 0x' "$work/stderr" >&2
    echo "official test.py failed on the $backend backend" >&2
    exit 1
  fi
  # Every run of the driver named the backend asked for.
  if grep '^arborhash backend' "$work/stderr" | grep -qv "^arborhash backend $backend\$"; then
    echo "the driver ran on another backend than $backend:" >&2
    sort -u "$work/stderr" >&2
    exit 1
  fi
  echo "official test.py ($backend): $cases cases x 6 outputs passed"
done
