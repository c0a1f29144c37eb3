package tz

import "math/bits"

// A window matrix is the product of the bit matrices of one or two bytes.
// Its entries are polynomials of degree at most 8 (one byte) or 16 (two
// bytes), kept unreduced as uint32 bit vectors.
type smallMatrix [4]uint32

// clmul32 is the carry-less product of two small polynomials (the result
// must fit in 32 bits).
func clmul32(a, b uint32) uint32 {
	var r uint32
	for ; b != 0; b &= b - 1 {
		r ^= a << bits.TrailingZeros32(b)
	}
	return r
}

func (a smallMatrix) mul(b smallMatrix) smallMatrix {
	return smallMatrix{
		clmul32(a[0], b[0]) ^ clmul32(a[1], b[2]),
		clmul32(a[0], b[1]) ^ clmul32(a[1], b[3]),
		clmul32(a[2], b[0]) ^ clmul32(a[3], b[2]),
		clmul32(a[2], b[1]) ^ clmul32(a[3], b[3]),
	}
}

// byteMatrix returns the window matrix of one byte, bits most significant
// first: A = [[x,1],[1,0]] for 0, B = [[x,x+1],[1,1]] for 1.
func byteMatrix(c byte) smallMatrix {
	m := smallMatrix{1, 0, 0, 1}
	for i := 7; i >= 0; i-- {
		if c>>uint(i)&1 == 0 {
			m = m.mul(smallMatrix{0b10, 1, 1, 0})
		} else {
			m = m.mul(smallMatrix{0b10, 0b11, 1, 1})
		}
	}
	return m
}

// newPairTable returns the window matrices of all byte pairs, indexed by
// first byte << 8 | second byte (1 MiB).
func newPairTable() *[65536][4]uint32 {
	var single [256]smallMatrix
	for c := range single {
		single[c] = byteMatrix(byte(c))
	}
	t := new([65536][4]uint32)
	for hi := range single {
		for lo := range single {
			t[hi<<8|lo] = single[hi].mul(single[lo])
		}
	}
	return t
}

// newByteColumnTable returns the one-byte window matrices by columns: entry
// j of byte c is q_1j + q_0j·x^32 (the layout mulTriplesCLMUL multiplies by
// a row p_i0 + p_i1·x^32 of a two-byte matrix).
func newByteColumnTable() *[256][2]uint64 {
	t := new([256][2]uint64)
	for c := range t {
		q := byteMatrix(byte(c))
		t[c] = [2]uint64{uint64(q[2]) | uint64(q[0])<<32, uint64(q[3]) | uint64(q[1])<<32}
	}
	return t
}
