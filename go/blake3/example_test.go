package blake3_test

import (
	"fmt"
	"io"

	"github.com/arborhash/arborhash/go/blake3"
)

func ExampleSum256() {
	sum := blake3.Sum256([]byte("hello world"))
	fmt.Printf("%x\n", sum)
	// Output: d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24
}

func ExampleNew() {
	h := blake3.New()
	h.Write([]byte("hello "))
	h.WriteString("world")
	fmt.Printf("%x\n", h.Sum(nil))
	// Output: d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24
}

func ExampleNewKeyed() {
	key := make([]byte, blake3.KeySize)
	copy(key, "a 32-byte key for message auth.")
	h, err := blake3.NewKeyed(key)
	if err != nil {
		panic(err)
	}
	h.WriteString("message")
	fmt.Printf("%x\n", h.Sum(nil))
	// Output: e02f3558099e22d77678fde38728b56d62e16aa603e207f4728b3ca0a5925ff1
}

func ExampleDeriveKey() {
	key := make([]byte, 16)
	blake3.DeriveKey("example.com 2026-11-26 session tokens v1", []byte("input key material"), key)
	fmt.Printf("%x\n", key)
	// Output: db85b0c7404b77a76469cc98545d5eb0
}

func ExampleHasher_Digest() {
	h := blake3.New()
	h.WriteString("hello world")
	d := h.Digest()
	// Any length, from any offset: bytes 32 to 47 of the extended output.
	if _, err := d.Seek(32, io.SeekStart); err != nil {
		panic(err)
	}
	out := make([]byte, 16)
	if _, err := io.ReadFull(d, out); err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", out)
	// Output: a020ed55aed9a6ab2eaf3fd70d2c98c9
}

func ExampleSumMany() {
	inputs := [][]byte{[]byte("first"), []byte("second"), []byte("third")}
	outputs := make([][32]byte, len(inputs))
	blake3.SumMany(inputs, outputs)
	for i, sum := range outputs {
		fmt.Printf("%s %x\n", inputs[i], sum[:8])
	}
	// Output:
	// first 22896bcbc3d1c76a
	// second cd85637651ec7a55
	// third 42f1d0a285aebbec
}
