package tz_test

import (
	"bytes"
	"fmt"

	"github.com/arborhash/arborhash/go/tz"
)

func ExampleSum() {
	sum := tz.Sum([]byte("hello world"))
	fmt.Printf("%x\n", sum[:16])
	// Output: 0000000001f7024b5481af1f25b1c209
}

func ExampleNew() {
	h := tz.New()
	h.Write([]byte("hello "))
	h.Write([]byte("world"))
	sum := tz.Sum([]byte("hello world"))
	fmt.Println(bytes.Equal(h.Sum(nil), sum[:]))
	// Output: true
}

// The hash of a message is the product of the hashes of its parts.
func ExampleConcat() {
	a, b := tz.Sum([]byte("hello ")), tz.Sum([]byte("world"))
	whole, err := tz.Concat([][]byte{a[:], b[:]})
	if err != nil {
		panic(err)
	}
	sum := tz.Sum([]byte("hello world"))
	fmt.Println(bytes.Equal(whole, sum[:]))
	// Output: true
}

func ExampleValidate() {
	a, b := tz.Sum([]byte("hello ")), tz.Sum([]byte("world"))
	sum := tz.Sum([]byte("hello world"))
	ok, err := tz.Validate(sum[:], [][]byte{a[:], b[:]})
	fmt.Println(ok, err)
	// Output: true <nil>
}

// A part's hash can be removed from the end (SubtractR) or the start
// (SubtractL) of a whole.
func ExampleSubtractR() {
	whole, b := tz.Sum([]byte("hello world")), tz.Sum([]byte("world"))
	a, err := tz.SubtractR(whole[:], b[:])
	if err != nil {
		panic(err)
	}
	want := tz.Sum([]byte("hello "))
	fmt.Println(bytes.Equal(a, want[:]))

	// A matrix without an inverse is not the hash of anything: an error.
	_, err = tz.SubtractR(whole[:], make([]byte, tz.Size))
	fmt.Println(err)
	// Output:
	// true
	// tz: the hash to subtract is not invertible (its determinant is 0)
}
