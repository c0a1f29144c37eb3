// Package field is the arithmetic of GF(2^127) = GF(2)[x] / (x^127 + x^63 +
// 1) on values, shared by the packages gf127 (tzhash's pointer API) and tz.
// A struct of two words, unlike an array, stays in registers in Go's
// compiler, which the bit-serial hash loop depends on.
package field

import "math/bits"

// Elem is the polynomial whose coefficient of x^i is bit i of Hi·2^64 + Lo.
// Reduced elements have bit 127 clear.
type Elem struct{ Lo, Hi uint64 }

const msb = uint64(1) << 63

// One is the multiplicative identity.
var One = Elem{1, 0}

// Reduce folds bit 127 in (x^127 = x^63 + 1).
func (a Elem) Reduce() Elem {
	m := -(a.Hi >> 63)
	return Elem{a.Lo ^ m&(msb|1), a.Hi &^ msb}
}

// Add returns a + b.
func (a Elem) Add(b Elem) Elem { return Elem{a.Lo ^ b.Lo, a.Hi ^ b.Hi} }

// MulX returns a·x for a reduced a.
func (a Elem) MulX() Elem {
	m := -(a.Hi >> 62 & 1) // bit 126 becomes bit 127
	return Elem{a.Lo<<1 ^ m&(msb|1), (a.Hi<<1 | a.Lo>>63) &^ msb}
}

// clmul64 is the carry-less product of two 64-bit polynomials.
func clmul64(a, b uint64) (hi, lo uint64) {
	for ; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		lo ^= a << i
		if i > 0 {
			hi ^= a >> (64 - i)
		}
	}
	return hi, lo
}

// productGeneric returns the carry-less product of a and b, low word
// first, schoolbook on 64-bit halves.
func productGeneric(a, b Elem) [4]uint64 {
	h00, l00 := clmul64(a.Lo, b.Lo)
	h01, l01 := clmul64(a.Lo, b.Hi)
	h10, l10 := clmul64(a.Hi, b.Lo)
	h11, l11 := clmul64(a.Hi, b.Hi)
	return [4]uint64{l00, h00 ^ l01 ^ l10, h01 ^ h10 ^ l11, h11}
}

// Mul returns a·b for reduced a and b.
func (a Elem) Mul(b Elem) Elem {
	// The 253-bit product, through the CPU's carry-less multiply where it
	// has one, which makes Mul about seven times faster (BenchmarkMul in
	// package gf127).
	r := product(a, b)
	r0, r1, r2, r3 := r[0], r[1], r[2], r[3]
	// Fold t = r >> 127 back as t + t·x^63 (x^127 = x^63 + 1), twice: the
	// first t·x^63 reaches bit 189 again.
	t0, t1 := r1>>63|r2<<1, r2>>63|r3<<1
	r1 &^= msb
	r0 ^= t0 ^ t0<<63
	r1 ^= t1 ^ (t0>>1 | t1<<63)
	r2 = t1 >> 1
	t0 = r1>>63 | r2<<1
	r1 &^= msb
	r0 ^= t0 ^ t0<<63
	r1 ^= t0 >> 1
	return Elem{r0, r1}
}

// degree returns the degree of a as a 128-bit polynomial, -1 for zero.
func (a Elem) degree() int {
	if a.Hi != 0 {
		return 127 - bits.LeadingZeros64(a.Hi)
	}
	return 63 - bits.LeadingZeros64(a.Lo)
}

// shl returns a·x^j for 0 <= j < 128, dropping the bits past 127.
func (a Elem) shl(j int) Elem {
	switch {
	case j == 0:
		return a
	case j < 64:
		return Elem{a.Lo << j, a.Hi<<j | a.Lo>>(64-j)}
	default:
		return Elem{0, a.Lo << (j - 64)}
	}
}

// Inv returns a^-1 for a reduced a, and false for zero, which has none. It
// runs the extended Euclidean algorithm for binary polynomials (Hankerson,
// Menezes, Vanstone, Guide to Elliptic Curve Cryptography, algorithm 2.48),
// which keeps g1·a = u and g2·a = v modulo f while the degrees of u and v
// fall until u = 1.
func (a Elem) Inv() (Elem, bool) {
	if a == (Elem{}) {
		return Elem{}, false
	}
	u, v := a, Elem{msb | 1, msb} // v = f = x^127 + x^63 + 1
	g1, g2 := One, Elem{}
	for u != One {
		j := u.degree() - v.degree()
		if j < 0 {
			u, v, g1, g2, j = v, u, g2, g1, -j
		}
		u = u.Add(v.shl(j))
		g1 = g1.Add(g2.shl(j))
	}
	return g1, true
}
