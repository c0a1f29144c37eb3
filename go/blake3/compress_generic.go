package blake3

import (
	"encoding/binary"
	"math/bits"
)

// compressGeneric is the BLAKE3 compression function written from the
// specification. It writes the full 64-byte output; the first 32 bytes are
// the next chaining value.
func compressGeneric(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32, out *[BlockSize]byte) {
	v := rounds(cv, block, counter, blockLen, flags)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(out[4*i:], v[i]^v[i+8])
		binary.LittleEndian.PutUint32(out[32+4*i:], v[i+8]^cv[i])
	}
}

// compressCVGeneric replaces cv by the chaining value of block.
func compressCVGeneric(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32) {
	v := rounds(cv, block, counter, blockLen, flags)
	for i := 0; i < 8; i++ {
		cv[i] = v[i] ^ v[i+8]
	}
}

// rounds returns the state after the seven rounds of the compression,
// written out round by round with each round's message words (the
// permutation applied ahead, as in the specification's MSG_SCHEDULE). The
// state and the message are local variables, not arrays: the compiler keeps
// them in registers, spilling what does not fit, where an array behind a
// pointer was read and written at every step.
func rounds(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32) [16]uint32 {
	le := binary.LittleEndian
	m0, m1, m2, m3 := le.Uint32(block[0:]), le.Uint32(block[4:]), le.Uint32(block[8:]), le.Uint32(block[12:])
	m4, m5, m6, m7 := le.Uint32(block[16:]), le.Uint32(block[20:]), le.Uint32(block[24:]), le.Uint32(block[28:])
	m8, m9, m10, m11 := le.Uint32(block[32:]), le.Uint32(block[36:]), le.Uint32(block[40:]), le.Uint32(block[44:])
	m12, m13, m14, m15 := le.Uint32(block[48:]), le.Uint32(block[52:]), le.Uint32(block[56:]), le.Uint32(block[60:])
	v0, v1, v2, v3, v4, v5, v6, v7 := cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7]
	v8, v9, v10, v11 := iv[0], iv[1], iv[2], iv[3]
	v12, v13, v14, v15 := uint32(counter), uint32(counter>>32), blockLen, flags
	// Round 1.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m0, m1)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m2, m3)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m4, m5)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m6, m7)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m8, m9)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m10, m11)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m12, m13)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m14, m15)
	// Round 2.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m2, m6)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m3, m10)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m7, m0)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m4, m13)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m1, m11)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m12, m5)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m9, m14)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m15, m8)
	// Round 3.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m3, m4)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m10, m12)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m13, m2)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m7, m14)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m6, m5)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m9, m0)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m11, m15)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m8, m1)
	// Round 4.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m10, m7)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m12, m9)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m14, m3)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m13, m15)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m4, m0)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m11, m2)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m5, m8)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m1, m6)
	// Round 5.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m12, m13)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m9, m11)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m15, m10)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m14, m8)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m7, m2)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m5, m3)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m0, m1)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m6, m4)
	// Round 6.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m9, m14)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m11, m5)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m8, m12)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m15, m1)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m13, m3)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m0, m10)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m2, m6)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m4, m7)
	// Round 7.
	v0, v4, v8, v12 = g(v0, v4, v8, v12, m11, m15)
	v1, v5, v9, v13 = g(v1, v5, v9, v13, m5, m0)
	v2, v6, v10, v14 = g(v2, v6, v10, v14, m1, m9)
	v3, v7, v11, v15 = g(v3, v7, v11, v15, m8, m6)
	v0, v5, v10, v15 = g(v0, v5, v10, v15, m14, m10)
	v1, v6, v11, v12 = g(v1, v6, v11, v12, m2, m12)
	v2, v7, v8, v13 = g(v2, v7, v8, v13, m3, m4)
	v3, v4, v9, v14 = g(v3, v4, v9, v14, m7, m13)
	return [16]uint32{v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15}
}

// g mixes message words mx and my into the state words a, b, c, d.
func g(a, b, c, d, mx, my uint32) (uint32, uint32, uint32, uint32) {
	a += b + mx
	d = bits.RotateLeft32(d^a, -16)
	c += d
	b = bits.RotateLeft32(b^c, -12)
	a += b + my
	d = bits.RotateLeft32(d^a, -8)
	c += d
	b = bits.RotateLeft32(b^c, -7)
	return a, b, c, d
}

// hashManyGeneric hashes lanes one after the other; it is the portable
// counterpart of the transposed SIMD kernels (see lanes.go).
func hashManyGeneric(j *laneJob, blocks int, key *[8]uint32, flags, flagsStart, flagsEnd uint32, out *[maxLanes][8]uint32) {
	for l := 0; l < j.n; l++ {
		out[l] = hashLane(j.inputs[l], j.counters[l], blocks, key, flags, flagsStart, flagsEnd)
	}
}

// compressBlocksGeneric compresses the full blocks of data into cv in
// sequence; the first block gets flags|flagsStart.
func compressBlocksGeneric(cv *[8]uint32, data []byte, counter uint64, flags, flagsStart uint32) {
	for ; len(data) >= BlockSize; data = data[BlockSize:] {
		compressCVGeneric(cv, (*[BlockSize]byte)(data), counter, BlockSize, flags|flagsStart)
		flagsStart = 0
	}
}
