package gf127

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/arborhash/arborhash/go/internal/field"
	peer "github.com/nspcc-dev/tzhash/gf127"
)

func randomElement(r *rand.Rand) GF127 {
	switch r.Intn(8) {
	case 0:
		return GF127{uint64(r.Intn(4)), 0} // 0, 1, x, x+1
	case 1:
		return GF127{r.Uint64(), 1<<63 - 1} // top coefficients set
	default:
		return GF127{r.Uint64(), r.Uint64() >> (1 + r.Intn(64))}
	}
}

// TestAgainstTzhash compares every operation with tzhash's on reduced
// elements, where tzhash's results are defined.
func TestAgainstTzhash(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	for i := 0; i < 2000; i++ {
		a, b := randomElement(r), randomElement(r)
		pa, pb := peer.GF127(a), peer.GF127(b)
		var c GF127
		var pc peer.GF127
		check := func(op string) {
			t.Helper()
			if c != GF127(pc) {
				t.Fatalf("%s(%v, %v) = %v, tzhash %v", op, &a, &b, &c, &pc)
			}
		}
		Add(&a, &b, &c)
		peer.Add(&pa, &pb, &pc)
		check("Add")
		And(&a, &b, &c)
		peer.And(&pa, &pb, &pc)
		check("And")
		Mul(&a, &b, &c)
		peer.Mul(&pa, &pb, &pc)
		check("Mul")
		Mul10(&a, &c)
		peer.Mul10(&pa, &pc)
		check("Mul10")
		Mul11(&a, &c)
		peer.Mul11(&pa, &pc)
		check("Mul11")
		Mul1(&c, &a)
		peer.Mul1(&pc, &pa)
		check("Mul1")
		if a != (GF127{}) {
			Inv(&a, &c)
			peer.Inv(&pa, &pc)
			check("Inv")
		}
		if a.String() != pa.String() || a.Bytes() != pa.Bytes() || a.Equals(&b) != pa.Equals(&pb) {
			t.Fatalf("String, Bytes or Equals of %v differ", &a)
		}
		m, _ := a.MarshalBinary()
		pm, _ := pa.MarshalBinary()
		if !bytes.Equal(m, pm) {
			t.Fatalf("MarshalBinary(%v) = %x, tzhash %x", &a, m, pm)
		}
		x, px := GF127x2{a, b}, peer.GF127x2{pa, pb}
		Mul11x2(&x, &x)
		peer.Mul11x2(&px, &px)
		Mul10x2(&x, &x)
		peer.Mul10x2(&px, &px)
		if x.String() != px.String() || x.Bytes() != px.Bytes() {
			t.Fatalf("GF127x2 %v, tzhash %v", &x, &px)
		}
	}
}

func TestInverse(t *testing.T) {
	r := rand.New(rand.NewSource(25))
	one := GF127{1, 0}
	for i := 0; i < 500; i++ {
		a := randomElement(r)
		a[1] |= uint64(r.Intn(2)) << 63 // unreduced half of the time
		var b, c GF127
		if err := InvChecked(&a, &b); err != nil {
			if a.elem() != (field.Elem{}) {
				t.Fatalf("InvChecked(%v): %v", &a, err)
			}
			continue
		}
		Mul(&a, &b, &c)
		if c != one {
			t.Fatalf("%v · %v = %v", &a, &b, &c)
		}
	}
}

func TestZeroHasNoInverse(t *testing.T) {
	zero, folded := GF127{}, GF127{1<<63 | 1, 1 << 63} // x^127 + x^63 + 1 = 0
	b := GF127{7, 7}
	for _, a := range []GF127{zero, folded} {
		if err := InvChecked(&a, &b); err != ErrNotInvertible || b != (GF127{7, 7}) {
			t.Fatalf("InvChecked(%v) = %v, b %v", &a, err, &b)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("Inv(%v) did not panic", &a)
				}
			}()
			Inv(&a, &b)
		}()
	}
}

// TestUnreduced checks that bit 127 is read as x^63 + 1.
func TestUnreduced(t *testing.T) {
	r := rand.New(rand.NewSource(127))
	for i := 0; i < 500; i++ {
		a, b := randomElement(r), randomElement(r)
		u := GF127{a[0] ^ (1<<63 | 1), a[1] | 1<<63} // a + f
		var c, d GF127
		Mul(&u, &b, &c)
		Mul(&a, &b, &d)
		if c != d || !u.Equals(&a) {
			t.Fatalf("unreduced %v: %v, reduced %v", &u, &c, &d)
		}
		Mul10(&u, &c)
		Mul10(&a, &d)
		if c != d {
			t.Fatalf("Mul10 of unreduced %v: %v, reduced %v", &u, &c, &d)
		}
	}
}

func TestUnmarshalBinary(t *testing.T) {
	var c GF127
	if c.UnmarshalBinary(make([]byte, 15)) == nil {
		t.Fatal("15 bytes accepted")
	}
	b := make([]byte, Size)
	b[0] = 0x80
	if c.UnmarshalBinary(b) == nil {
		t.Fatal("bit 127 accepted")
	}
	want := GF127{0x0102030405060708, 0x1112131415161718}
	m, _ := want.MarshalBinary()
	if err := c.UnmarshalBinary(m); err != nil || c != want {
		t.Fatalf("round trip: %v, %v", &c, err)
	}
}
