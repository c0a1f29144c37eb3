package gf127

import "encoding/hex"

// GF127x2 is a pair of elements of GF(2^127).
type GF127x2 [2]GF127

// Mul10x2 sets (b1, b2) to (a1·x, a2·x).
func Mul10x2(a, b *GF127x2) {
	Mul10(&a[0], &b[0])
	Mul10(&a[1], &b[1])
}

// Mul11x2 sets (b1, b2) to (a1·(x+1), a2·(x+1)).
func Mul11x2(a, b *GF127x2) {
	Mul11(&a[0], &b[0])
	Mul11(&a[1], &b[1])
}

// Split returns pointers to the two elements of a.
func Split(a *GF127x2) (*GF127, *GF127) { return &a[0], &a[1] }

// CombineTo sets c to the pair (a, b).
func CombineTo(a, b *GF127, c *GF127x2) { c[0], c[1] = *a, *b }

// Equal reports whether both elements of a and b are equal.
func (a *GF127x2) Equal(b *GF127x2) bool { return a[0].Equals(&b[0]) && a[1].Equals(&b[1]) }

// Bytes returns the Bytes of both elements, one after the other.
func (a *GF127x2) Bytes() (b [2 * Size]byte) {
	b0, b1 := a[0].Bytes(), a[1].Bytes()
	copy(b[:Size], b0[:])
	copy(b[Size:], b1[:])
	return b
}

// String returns both elements in hex, separated by " , " as tzhash does.
func (a *GF127x2) String() string {
	b := a.Bytes()
	return hex.EncodeToString(b[:Size]) + " , " + hex.EncodeToString(b[Size:])
}
