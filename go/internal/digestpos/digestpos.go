// Package digestpos lets this module's lukechampine package move a
// blake3.Digest's read position anywhere in the 2^64-byte output, which the
// zeebo/blake3 API's Seek, with int64 offsets, cannot reach.
package digestpos

// Set places the read position of d, a *blake3.Digest; package blake3 sets it.
var Set func(d any, pos uint64)
