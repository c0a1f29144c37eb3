//! SSE4.1 vocabulary: 128-bit loads and stores, word rotations, transposes.
