#!/usr/bin/env bash
# Runs the C test programs built by the Makefile (out/shared, out/static, out/asan: api, subtree
# and bounds check themselves; b3 and b2 print hashes) and compares
# what they print with b3sum, the official BLAKE3 C code (out/official/b3), Python's
# hashlib and libb2 (out/libb2/b2), on inputs whose lengths straddle block and chunk boundaries.
set -euo pipefail
cd "$(dirname "$0")"

variants=(shared static asan)
# The references must be there: a missing one fails the test rather than skipping it.
for reference in out/official/b3 out/libb2/b2; do
  if [ ! -x "$reference" ]; then
    echo "$reference was not built: scripts/setup.sh installs what it needs" >&2
    exit 1
  fi
done
command -v b3sum >/dev/null || { echo "b3sum is missing: scripts/setup.sh installs it" >&2; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
compared=0

# expect NAME WANT GOT: counts a comparison, reports a difference.
expect() {
  compared=$((compared + 1))
  if [ "$2" != "$3" ]; then
    echo "MISMATCH $1: expected $2, got $3" >&2
    failures=$((failures + 1))
  fi
}

for v in "${variants[@]}"; do
  for program in api subtree bounds; do
    echo "== $program ($v)"
    "out/$v/$program"
  done
done
# The subtree code on the other backends (the default one ran above).
for backend in portable sse41 avx2; do
  echo "== subtree (shared, ARBORHASH_BACKEND=$backend)"
  ARBORHASH_BACKEND=$backend out/shared/subtree
done

lengths=(0 1 63 64 65 127 128 129 1023 1024 1025 2047 2049 4096 4097 8193 16384 16385 31745 65537 1048577)
python3 - "$work" "${lengths[@]}" <<'PY'
import random, sys
rng = random.Random(28)
for n in sys.argv[2:]:
    with open(f"{sys.argv[1]}/in{n}", "wb") as f:
        f.write(bytes(rng.getrandbits(8) for _ in range(int(n))))
PY

key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' "$work/key" "$key"
context="arborhash 2026-11-26 C API test context"
bytes_context=$'arborhash \xff\xfe\x80 context'
b2key=$key$key
salt=5a5a5a5a5a5a5a5a0102030405060708
personal=7065727320313233a1a2a3a4a5a6a7a8

for n in "${lengths[@]}"; do
  f="$work/in$n"
  # BLAKE3: b3sum and the official C code, against every variant.
  want_hash=$(b3sum --no-names "$f")
  want_keyed=$(b3sum --no-names --keyed "$f" <"$work/key")
  want_derive=$(b3sum --no-names --derive-key "$context" "$f")
  want_xof=$(b3sum --no-names -l 200 --seek 1000 "$f")
  for v in "${variants[@]}"; do
    expect "b3 $v $n" "$want_hash" "$("out/$v/b3" "$f")"
    expect "b3 $v keyed $n" "$want_keyed" "$("out/$v/b3" --keyed "$key" "$f")"
    expect "b3 $v derive $n" "$want_derive" "$("out/$v/b3" --derive-key "$context" "$f")"
    expect "b3 $v xof $n" "$want_xof" "$("out/$v/b3" --length 200 --seek 1000 "$f")"
  done
  expect "official b3 $n" "$want_hash" "$(out/official/b3 "$f")"
  expect "official b3 keyed $n" "$want_keyed" "$(out/official/b3 --keyed "$key" "$f")"
  expect "official b3 derive $n" "$want_derive" "$(out/official/b3 --derive-key "$context" "$f")"
  expect "official b3 xof $n" "$want_xof" "$(out/official/b3 --length 200 --seek 1000 "$f")"
  # Extended output at the end of the 64-bit seek range and across it.
  for seek in 18446744073709551606 18446744073709551615; do
    want_end=$(out/official/b3 --length 100 --seek $seek "$f")
    for v in "${variants[@]}"; do
      expect "b3 $v seek $seek $n" "$want_end" "$("out/$v/b3" --length 100 --seek $seek "$f")"
    done
  done
  # A context that is not UTF-8 (b3sum takes strings only): its bytes, as the official code.
  want_bytes_context=$(out/official/b3 --derive-key "$bytes_context" "$f")
  for v in "${variants[@]}"; do
    expect "b3 $v non-UTF-8 derive $n" "$want_bytes_context" \
      "$("out/$v/b3" --derive-key "$bytes_context" "$f")"
  done

  # BLAKE2b/s: hashlib (lengths, keys, salt, personalization).
  hashlib=$(python3 - "$f" "$b2key" "$salt" "$personal" <<'PY'
import hashlib, sys
data = open(sys.argv[1], "rb").read()
key, salt, person = (bytes.fromhex(a) for a in sys.argv[2:5])
for name, h, width in (("b", hashlib.blake2b, 64), ("s", hashlib.blake2s, 32)):
    print(h(data).hexdigest())
    print(h(data, digest_size=width // 2 + 3, key=key[:width]).hexdigest())
    print(h(data, digest_size=width - 1, salt=salt[:width // 4], person=person[:width // 4]).hexdigest())
PY
)
  for v in "${variants[@]}"; do
    got=""
    for alg in b s; do
      width=$([ $alg = b ] && echo 64 || echo 32)
      got+="$("out/$v/b2" $alg "$f")"$'\n'
      got+="$("out/$v/b2" $alg --length $((width / 2 + 3)) --key "${b2key:0:$((width * 2))}" "$f")"$'\n'
      got+="$("out/$v/b2" $alg --length $((width - 1)) --salt "${salt:0:$((width / 2))}" \
        --personal "${personal:0:$((width / 2))}" "$f")"$'\n'
    done
    expect "b2 b/s $v $n" "$hashlib" "${got%$'\n'}"
    # BLAKE2bp/sp (and b/s again): libb2 running the same program.
    for alg in b s bp sp; do
      width=$([ "${alg:0:1}" = b ] && echo 64 || echo 32)
      expect "b2 $alg $v $n" "$(out/libb2/b2 $alg "$f")" "$("out/$v/b2" $alg "$f")"
      args=(--length 20 --key "${b2key:0:$((width * 2))}")
      expect "b2 $alg keyed $v $n" "$(out/libb2/b2 $alg "${args[@]}" "$f")" \
        "$("out/$v/b2" $alg "${args[@]}" "$f")"
    done
  done
done

echo "compared $compared outputs; $failures differ"
[ "$failures" -eq 0 ]
