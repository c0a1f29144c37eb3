// Package luke holds programs written for lukechampine.com/blake3; the
// package ours/luke is the same source with only the import path changed.
package luke

import (
	"fmt"
	"hash"
	"io"

	"lukechampine.com/blake3"
)

// Programs maps a name to a program that prints to w.
var Programs = map[string]func(w io.Writer){
	"sums":   sums,
	"sizes":  sizes,
	"derive": derive,
	"xof":    xof,
	"copy":   copyHasher,
}

func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

var lengths = []int{0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 4097, 16384, 65537, 300000, 2<<20 + 1}

func sums(w io.Writer) {
	for _, n := range lengths {
		fmt.Fprintf(w, "%d %x %x\n", n, blake3.Sum256(input(n)), blake3.Sum512(input(n)))
	}
}

// sizes hashes with several digest sizes, unkeyed and keyed, in writes of
// several lengths, through the hash.Hash interface.
func sizes(w io.Writer) {
	key := []byte("whats the Elvish word for friend")
	for _, n := range lengths {
		for _, size := range []int{0, 16, 32, 64, 100} {
			for _, k := range [][]byte{nil, key} {
				var h hash.Hash = blake3.New(size, k)
				in := input(n)
				for step := 1000; len(in) > 0; step *= 3 {
					c := step
					if c > len(in) {
						c = len(in)
					}
					_, _ = h.Write(in[:c])
					in = in[c:]
				}
				fmt.Fprintf(w, "%d %d %v %x %d %d\n", n, size, k != nil, h.Sum([]byte{1}), h.Size(), h.BlockSize())
				h.Reset()
			}
		}
	}
}

func derive(w io.Writer) {
	for _, n := range lengths {
		sub := make([]byte, 70)
		blake3.DeriveKey(sub, "example.com 2019-12-25 16:18:03 session tokens v1", input(n))
		fmt.Fprintf(w, "%d %x\n", n, sub)
	}
}

// xof reads the extended output, seeking to multiples of 1024 (where
// lukechampine.com/blake3's reader is right) from the start, the current
// position and the end, until the end of the stream.
func xof(w io.Writer) {
	h := blake3.New(32, nil)
	_, _ = h.Write(input(5000))
	x := h.XOF()
	buf := make([]byte, 1024)
	for _, s := range []struct {
		off    int64
		whence int
	}{{0, io.SeekStart}, {1 << 20, io.SeekStart}, {-1024 * 3, io.SeekCurrent}, {-2047, io.SeekEnd}, {0, io.SeekCurrent}, {0, io.SeekCurrent}} {
		pos, err := x.Seek(s.off, s.whence)
		n, rerr := x.Read(buf)
		fmt.Fprintf(w, "%d %v %d %v %x\n", pos, err, n, rerr, buf[:n])
	}
}

// copyHasher copies a Hasher by value midway and finishes both.
func copyHasher(w io.Writer) {
	for _, n := range lengths {
		h := blake3.New(32, nil)
		_, _ = h.Write(input(n)[:n/2])
		c := *h
		_, _ = c.Write(input(n)[n/2:])
		_, _ = h.Write([]byte("other"))
		fmt.Fprintf(w, "%d %x %x\n", n, h.Sum(nil), c.Sum(nil))
	}
}
