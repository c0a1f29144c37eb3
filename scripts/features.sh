# Sourced by scripts/test.sh and scripts/test-arm.sh: FEATURES, every arborhash feature but those
# limiting the backends (pure, no_sse41, no_avx2, no_avx512), with which the backend tests would
# run the portable code only; scripts/test-features.sh tests those.
# shellcheck shell=bash disable=SC2034
FEATURES="arborhash/std,arborhash/rayon,arborhash/mmap,arborhash/serde,arborhash/zeroize"
FEATURES+=",arborhash/traits-preview,arborhash/neon"
