// Package vectors holds the test that checks go/testdata/vectors.json, the
// known-answer vectors that the Rust library generates for the Go module
// (arborhash/tests/go_vectors.rs keeps the file current).
//
// Format: {"input": description of the input, "blake3": {"key", "context",
// "output_len", "cases": [{"input_len", "hash", "keyed_hash",
// "derive_key"}]}, "tz": {"cases": [{"input_len", "hash"}]}}. Input byte i
// is i % 251. The BLAKE3 key is the 32 ASCII bytes of "key"; every BLAKE3
// output is output_len (131) bytes of extended output in hex; tz hashes are
// the 64-byte Tillich-Zémor hash in hex.
package vectors
