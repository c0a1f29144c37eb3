package tz

import "errors"

// sl2 is a 2x2 matrix over GF(2^127), row-major: m[0] = c00, m[1] = c01,
// m[2] = c10, m[3] = c11. Hashes are matrices of determinant 1.
type sl2 [4]gf127

var identity = sl2{{1, 0}, {0, 0}, {0, 0}, {1, 0}}

func (a *sl2) mul(b *sl2) sl2 {
	return sl2{
		a[0].mul(b[0]).add(a[1].mul(b[2])),
		a[0].mul(b[1]).add(a[1].mul(b[3])),
		a[2].mul(b[0]).add(a[3].mul(b[2])),
		a[2].mul(b[1]).add(a[3].mul(b[3])),
	}
}

// inv returns a^-1: the adjugate divided by the determinant (which is 1 for
// every real hash, so the division is skipped then).
func (a *sl2) inv() sl2 {
	adj := sl2{a[3], a[1], a[2], a[0]}
	det := a[0].mul(a[3]).add(a[1].mul(a[2]))
	if det == (gf127{1, 0}) {
		return adj
	}
	d := det.inv()
	for i := range adj {
		adj[i] = adj[i].mul(d)
	}
	return adj
}

func (a *sl2) bytes() (b [Size]byte) {
	for i, e := range a {
		e.put(b[16*i:])
	}
	return b
}

func parseSL2(b []byte) (sl2, error) {
	var m sl2
	if len(b) != Size {
		return m, errors.New("tz: a hash must be 64 bytes")
	}
	for i := range m {
		e, err := getGF127(b[16*i:])
		if err != nil {
			return m, err
		}
		m[i] = e
	}
	return m, nil
}
