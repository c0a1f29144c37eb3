package tz

import (
	"errors"

	"github.com/arborhash/arborhash/go/internal/field"
)

// sl2 is a 2x2 matrix over GF(2^127), row-major: m[0] = c00, m[1] = c01,
// m[2] = c10, m[3] = c11. Hashes are matrices of determinant 1.
type sl2 [4]gf127e

var identity = sl2{field.One, {}, {}, field.One}

func (a *sl2) mul(b *sl2) sl2 {
	return sl2{
		a[0].Mul(b[0]).Add(a[1].Mul(b[2])),
		a[0].Mul(b[1]).Add(a[1].Mul(b[3])),
		a[2].Mul(b[0]).Add(a[3].Mul(b[2])),
		a[2].Mul(b[1]).Add(a[3].Mul(b[3])),
	}
}

// errSingular is returned for a matrix without inverse, which no message
// hashes to (tzhash's SubtractR and SubtractL do not return then).
var errSingular = errors.New("tz: the hash to subtract is not invertible (its determinant is 0)")

// inv returns a^-1: the adjugate divided by the determinant (which is 1 for
// every real hash, so the division is skipped then), or errSingular.
func (a *sl2) inv() (sl2, error) {
	adj := sl2{a[3], a[1], a[2], a[0]}
	det := a[0].Mul(a[3]).Add(a[1].Mul(a[2]))
	if det == field.One {
		return adj, nil
	}
	d, ok := det.Inv()
	if !ok {
		return sl2{}, errSingular
	}
	for i := range adj {
		adj[i] = adj[i].Mul(d)
	}
	return adj, nil
}

func (a *sl2) bytes() (b [Size]byte) {
	for i, e := range a {
		put(e, b[16*i:])
	}
	return b
}

func parseSL2(b []byte) (sl2, error) {
	var m sl2
	if len(b) != Size {
		return m, errors.New("tz: a hash must be 64 bytes")
	}
	for i := range m {
		e, err := get(b[16*i:])
		if err != nil {
			return m, err
		}
		m[i] = e
	}
	return m, nil
}
