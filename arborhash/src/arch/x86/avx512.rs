//! AVX-512 vocabulary: 512-bit loads and stores, and the AVX-512VL rotations on every width.
