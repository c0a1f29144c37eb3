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

// rounds returns the state after the seven rounds of the compression.
func rounds(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32) [16]uint32 {
	var m [16]uint32
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(block[4*i:])
	}
	v := [16]uint32{
		cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
		iv[0], iv[1], iv[2], iv[3],
		uint32(counter), uint32(counter >> 32), blockLen, flags,
	}
	for r := 0; r < 7; r++ {
		g(&v, 0, 4, 8, 12, m[0], m[1])
		g(&v, 1, 5, 9, 13, m[2], m[3])
		g(&v, 2, 6, 10, 14, m[4], m[5])
		g(&v, 3, 7, 11, 15, m[6], m[7])
		g(&v, 0, 5, 10, 15, m[8], m[9])
		g(&v, 1, 6, 11, 12, m[10], m[11])
		g(&v, 2, 7, 8, 13, m[12], m[13])
		g(&v, 3, 4, 9, 14, m[14], m[15])
		var p [16]uint32
		for i, j := range msgPermutation {
			p[i] = m[j]
		}
		m = p
	}
	return v
}

func g(v *[16]uint32, a, b, c, d int, mx, my uint32) {
	v[a] += v[b] + mx
	v[d] = bits.RotateLeft32(v[d]^v[a], -16)
	v[c] += v[d]
	v[b] = bits.RotateLeft32(v[b]^v[c], -12)
	v[a] += v[b] + my
	v[d] = bits.RotateLeft32(v[d]^v[a], -8)
	v[c] += v[d]
	v[b] = bits.RotateLeft32(v[b]^v[c], -7)
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
		compressCV(cv, (*[BlockSize]byte)(data), counter, BlockSize, flags|flagsStart)
		flagsStart = 0
	}
}
