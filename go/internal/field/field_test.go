package field

import (
	"math/rand"
	"testing"
)

// TestProduct compares the product in use (carry-less multiply instructions
// where the CPU has them) with the schoolbook one.
func TestProduct(t *testing.T) {
	r := rand.New(rand.NewSource(128))
	for i := 0; i < 10000; i++ {
		a := Elem{r.Uint64(), r.Uint64()}
		b := Elem{r.Uint64(), r.Uint64() >> uint(r.Intn(64))}
		if got, want := product(a, b), productGeneric(a, b); got != want {
			t.Fatalf("product(%x, %x) = %x, want %x", a, b, got, want)
		}
	}
}

func TestInv(t *testing.T) {
	r := rand.New(rand.NewSource(127))
	if _, ok := (Elem{}).Inv(); ok {
		t.Fatal("zero inverted")
	}
	for i := 0; i < 1000; i++ {
		a := Elem{r.Uint64(), r.Uint64() >> 1}
		if a == (Elem{}) {
			continue
		}
		b, ok := a.Inv()
		if !ok || a.Mul(b) != One {
			t.Fatalf("%x · %x^-1 = %x", a, a, a.Mul(b))
		}
	}
}
