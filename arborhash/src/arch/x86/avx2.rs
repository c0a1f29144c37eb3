//! AVX2 vocabulary: 256-bit loads and stores, word rotations, transposes.
