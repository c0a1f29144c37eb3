// Package gf127 implements arithmetic in GF(2^127) = GF(2)[x] / (x^127 +
// x^63 + 1), the field of the Tillich-Zémor hash, with the API of
// github.com/nspcc-dev/tzhash/gf127 (switching is a change of import path).
//
// An element is a polynomial of degree at most 126 whose coefficient of x^i
// is bit i of the 128-bit value hi·2^64 + lo. Functions that compute in the
// field also accept values with bit 127 set and read that bit as x^127 =
// x^63 + 1, so their results are always reduced; Add and And work bitwise.
package gf127

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/rand"

	"github.com/arborhash/arborhash/go/internal/field"
)

// Size is the size of an encoded element in bytes.
const Size = 16

// GF127 is an element of GF(2^127): {lo, hi}.
type GF127 [2]uint64

// ErrNotInvertible is returned by InvChecked for zero, which has no inverse.
var ErrNotInvertible = errors.New("gf127: zero has no inverse")

// New returns hi·x^64 + lo.
func New(lo, hi uint64) *GF127 { return &GF127{lo, hi} }

// Random returns a random reduced element from math/rand (for tests, not for
// secrets).
func Random() *GF127 { return &GF127{rand.Uint64(), rand.Uint64() >> 1} }

// Add sets c to a+b.
func Add(a, b, c *GF127) { c[0], c[1] = a[0]^b[0], a[1]^b[1] }

// And sets c to the bitwise and of a and b.
func And(a, b, c *GF127) { c[0], c[1] = a[0]&b[0], a[1]&b[1] }

// Mul sets c to a·b.
func Mul(a, b, c *GF127) { *c = fromElem(a.elem().Mul(b.elem())) }

// Mul1 copies b into a.
func Mul1(a, b *GF127) { *a = *b }

// Mul10 sets b to a·x.
func Mul10(a, b *GF127) { *b = fromElem(a.elem().MulX()) }

// Mul11 sets b to a·(x+1).
func Mul11(a, b *GF127) {
	e := a.elem()
	*b = fromElem(e.MulX().Add(e))
}

// Inv sets b to a^-1. It panics if a is zero, as integer division by zero
// does (tzhash's Inv never returns then); InvChecked returns an error
// instead.
func Inv(a, b *GF127) {
	if err := InvChecked(a, b); err != nil {
		panic(err)
	}
}

// InvChecked sets b to a^-1, or returns ErrNotInvertible for zero and leaves
// b unchanged.
func InvChecked(a, b *GF127) error {
	r, ok := a.elem().Inv()
	if !ok {
		return ErrNotInvertible
	}
	*b = fromElem(r)
	return nil
}

// Bytes returns c big-endian: hi, then lo.
func (c *GF127) Bytes() [Size]byte {
	var b [Size]byte
	binary.BigEndian.PutUint64(b[:8], c[1])
	binary.BigEndian.PutUint64(b[8:], c[0])
	return b
}

// String returns Bytes in hex.
func (c *GF127) String() string {
	b := c.Bytes()
	return hex.EncodeToString(b[:])
}

// Equals reports whether c and b are the same element.
func (c *GF127) Equals(b *GF127) bool { return c.elem() == b.elem() }

// MarshalBinary implements encoding.BinaryMarshaler: Bytes.
func (c *GF127) MarshalBinary() ([]byte, error) {
	b := c.Bytes()
	return b[:], nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler. It rejects data
// that is not 16 bytes or has bit 127 set, as tzhash does.
func (c *GF127) UnmarshalBinary(data []byte) error {
	if len(data) != Size {
		return errors.New("gf127: data must be 16 bytes long")
	}
	hi := binary.BigEndian.Uint64(data[:8])
	if hi>>63 != 0 {
		return errors.New("gf127: the most significant bit must be zero")
	}
	c[0], c[1] = binary.BigEndian.Uint64(data[8:]), hi
	return nil
}

// elem returns c reduced, as a field value.
func (c *GF127) elem() field.Elem { return field.Elem{Lo: c[0], Hi: c[1]}.Reduce() }

func fromElem(e field.Elem) GF127 { return GF127{e.Lo, e.Hi} }
