// Package tzhash holds programs written for github.com/nspcc-dev/tzhash;
// the package ours/tzhash is the same source with only the import paths
// changed.
package tzhash

import (
	"encoding"
	"fmt"
	"io"

	"github.com/nspcc-dev/tzhash/gf127"
	"github.com/nspcc-dev/tzhash/tz"
)

// Programs maps a name to a program that prints to w.
var Programs = map[string]func(w io.Writer){
	"sum":         sum,
	"stream":      stream,
	"homomorphic": homomorphic,
	"state":       state,
	"errors":      errorsProgram,
	"field":       field,
	"pairs":       pairs,
}

func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 3)
	}
	return b
}

var lengths = []int{0, 1, 2, 3, 4, 5, 64, 127, 128, 1000, 4099}

func sum(w io.Writer) {
	for _, n := range lengths {
		s := tz.Sum(input(n))
		fmt.Fprintf(w, "%d %x\n", n, s)
	}
	fmt.Fprintln(w, "size", tz.Size)
}

func stream(w io.Writer) {
	for _, n := range lengths {
		for _, step := range []int{1, 2, 5, 100} {
			h := tz.New()
			for in := input(n); len(in) > 0; {
				k := step
				if k > len(in) {
					k = len(in)
				}
				h.Write(in[:k])
				in = in[k:]
			}
			fmt.Fprintf(w, "%d/%d %x\n", n, step, h.Sum([]byte{0xaa}))
		}
	}
	h := tz.New()
	h.Write(input(10))
	h.Reset()
	fmt.Fprintf(w, "size %d block %d reset %x\n", h.Size(), h.BlockSize(), h.Sum(nil))
}

func homomorphic(w io.Writer) {
	a, b, c := tz.Sum(input(100)), tz.Sum(input(33)), tz.Sum(input(7))
	ab, err := tz.Concat([][]byte{a[:], b[:]})
	fmt.Fprintf(w, "concat %x %v\n", ab, err)
	abc, err := tz.Concat([][]byte{a[:], b[:], c[:]})
	fmt.Fprintf(w, "concat3 %x %v\n", abc, err)
	empty, err := tz.Concat(nil)
	fmt.Fprintf(w, "concat none %x %v\n", empty, err)
	ok, err := tz.Validate(abc, [][]byte{a[:], b[:], c[:]})
	fmt.Fprintln(w, "valid", ok, err)
	ok, err = tz.Validate(abc, [][]byte{b[:], a[:], c[:]})
	fmt.Fprintln(w, "swapped", ok, err)
	r, err := tz.SubtractR(abc, c[:])
	fmt.Fprintf(w, "subtractR %x %v\n", r, err)
	l, err := tz.SubtractL(abc, a[:])
	fmt.Fprintf(w, "subtractL %x %v\n", l, err)
}

func state(w io.Writer) {
	h := tz.New()
	h.Write(input(77))
	st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	fmt.Fprintf(w, "state %x %v\n", st, err)
	g := tz.New()
	err = g.(encoding.BinaryUnmarshaler).UnmarshalBinary(st)
	g.Write(input(5))
	h.Write(input(5))
	fmt.Fprintf(w, "restored %v %x %x\n", err, g.Sum(nil), h.Sum(nil))
}

func errorsProgram(w io.Writer) {
	bad := make([]byte, tz.Size)
	bad[0] = 0x80
	_, err := tz.Concat([][]byte{bad})
	fmt.Fprintln(w, "msb rejected:", err != nil)
	_, err = tz.Concat([][]byte{bad[:10]})
	fmt.Fprintln(w, "short rejected:", err != nil)
	_, err = tz.Validate(bad[:10], [][]byte{bad})
	fmt.Fprintln(w, "short hash rejected:", err != nil)
	_, err = tz.Validate(bad, nil)
	fmt.Fprintln(w, "no parts rejected:", err != nil)
	_, err = tz.SubtractR(bad, bad)
	fmt.Fprintln(w, "subtract msb rejected:", err != nil)
}

func field(w io.Writer) {
	var e tz.GF127 = *gf127.New(0x0123456789abcdef, 0x0fedcba987654321)
	x := gf127.New(2, 0)
	var sum, prod, m10, m11, inv, check, and, cp gf127.GF127
	gf127.Add(&e, x, &sum)
	gf127.Mul(&e, x, &prod)
	gf127.Mul10(&e, &m10)
	gf127.Mul11(&e, &m11)
	gf127.Inv(&e, &inv)
	gf127.Mul(&e, &inv, &check)
	gf127.And(&e, &m11, &and)
	gf127.Mul1(&cp, &e)
	for _, v := range []*gf127.GF127{&e, &sum, &prod, &m10, &m11, &inv, &check, &and, &cp} {
		fmt.Fprintln(w, v.String(), v.Bytes())
	}
	fmt.Fprintln(w, "x·e == e·x:", prod.Equals(&m10), "copy equal:", cp.Equals(&e), gf127.Size)
	data, err := e.MarshalBinary()
	var back gf127.GF127
	fmt.Fprintln(w, data, err, back.UnmarshalBinary(data) == nil, back == e)
	fmt.Fprintln(w, "bad length:", back.UnmarshalBinary(data[:3]) != nil)
	data[0] |= 0x80
	fmt.Fprintln(w, "msb:", back.UnmarshalBinary(data) != nil)
	r := gf127.Random()
	if *r != (gf127.GF127{}) {
		gf127.Inv(r, &inv)
		gf127.Mul(r, &inv, &check)
	}
	fmt.Fprintln(w, "random reduced:", r[1]>>63 == 0, "inverse:", check.String())
}

func pairs(w io.Writer) {
	a, b := gf127.New(5, 1<<62), gf127.New(1<<63, 3)
	var p, q gf127.GF127x2
	gf127.CombineTo(a, b, &p)
	gf127.Mul10x2(&p, &q)
	fmt.Fprintln(w, q.String(), q.Bytes())
	gf127.Mul11x2(&q, &q)
	fmt.Fprintln(w, q.String())
	x, y := gf127.Split(&q)
	fmt.Fprintln(w, x.String(), y.String(), q.Equal(&p), p.Equal(&p))
}
