package tz

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// gf127 is an element of GF(2^127) = GF(2)[x] / (x^127 + x^63 + 1): bit i of
// the 128-bit value (lo, hi) is the coefficient of x^i. Reduced elements
// have bit 127 clear.
type gf127 struct{ lo, hi uint64 }

// reduce clears bit 127 of a value that may have it set (x^127 = x^63 + 1).
func (a gf127) reduce() gf127 {
	m := -(a.hi >> 63)
	return gf127{a.lo ^ (m & (1<<63 | 1)), a.hi &^ (1 << 63)}
}

func (a gf127) add(b gf127) gf127 { return gf127{a.lo ^ b.lo, a.hi ^ b.hi} }

// mulX returns a·x for a reduced a.
func (a gf127) mulX() gf127 {
	m := -(a.hi >> 62 & 1) // bit 126 becomes bit 127
	return gf127{a.lo<<1 ^ m&(1<<63|1), (a.hi<<1 | a.lo>>63) &^ (1 << 63)}
}

// clmul64 is the carry-less product of two 64-bit polynomials.
func clmul64(a, b uint64) (hi, lo uint64) {
	for b != 0 {
		i := bits.TrailingZeros64(b)
		b &= b - 1
		lo ^= a << i
		if i > 0 {
			hi ^= a >> (64 - i)
		}
	}
	return hi, lo
}

// mul returns a·b for reduced a and b.
func (a gf127) mul(b gf127) gf127 {
	// 254-bit product r3:r2:r1:r0 by schoolbook on 64-bit halves.
	h00, l00 := clmul64(a.lo, b.lo)
	h01, l01 := clmul64(a.lo, b.hi)
	h10, l10 := clmul64(a.hi, b.lo)
	h11, l11 := clmul64(a.hi, b.hi)
	r := [4]uint64{l00, h00 ^ l01 ^ l10, h01 ^ h10 ^ l11, h11}
	// Fold the bits from 127 up: x^(127+k) = x^(63+k) + x^k. Each pass lowers
	// the top degree by at least 64, so two passes suffice.
	for pass := 0; pass < 2; pass++ {
		t0 := r[1]>>63 | r[2]<<1 // t = r >> 127
		t1 := r[2]>>63 | r[3]<<1
		r[1] &^= 1 << 63
		r[2], r[3] = 0, 0
		// r ^= t ^ t<<63
		r[0] ^= t0 ^ t0<<63
		r[1] ^= t1 ^ (t0>>1 | t1<<63)
		r[2] ^= t1 >> 1
	}
	return gf127{r[0], r[1]}.reduce()
}

// inv returns a^-1 (0 for 0) as a^(2^127 - 2).
func (a gf127) inv() gf127 {
	// 2^127 - 2 = 0b111...110 (126 ones then a zero).
	r := gf127{1, 0}
	for i := 0; i < 126; i++ {
		r = r.mul(r).mul(a)
	}
	return r.mul(r)
}

func (a gf127) put(b []byte) {
	binary.BigEndian.PutUint64(b, a.hi)
	binary.BigEndian.PutUint64(b[8:], a.lo)
}

var errMSB = errors.New("tz: invalid hash: an element has its most significant bit set")

func getGF127(b []byte) (gf127, error) {
	a := gf127{binary.BigEndian.Uint64(b[8:]), binary.BigEndian.Uint64(b)}
	if a.hi>>63 != 0 {
		return a, errMSB
	}
	return a, nil
}
