package gf127_test

import (
	"fmt"

	"github.com/arborhash/arborhash/go/gf127"
)

func ExampleInv() {
	a := gf127.New(0x1234, 0)
	var b, c gf127.GF127
	gf127.Inv(a, &b)
	gf127.Mul(a, &b, &c)
	fmt.Println(c.String())

	// Zero has no inverse: InvChecked says so, Inv panics.
	fmt.Println(gf127.InvChecked(gf127.New(0, 0), &b))
	// Output:
	// 00000000000000000000000000000001
	// gf127: zero has no inverse
}
