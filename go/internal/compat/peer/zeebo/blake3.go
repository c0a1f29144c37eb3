// Package zeebo holds programs written for github.com/zeebo/blake3; the
// package ours/zeebo is the same source with only the import path changed.
package zeebo

import (
	"fmt"
	"hash"
	"io"

	"github.com/zeebo/blake3"
)

// Programs maps a name to a program that prints to w.
var Programs = map[string]func(w io.Writer){
	"sums":    sums,
	"stream":  stream,
	"keyed":   keyed,
	"derive":  derive,
	"xof":     xof,
	"hashapi": hashAPI,
}

func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

var lengths = []int{0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 4097, 16384, 65537, 300000}

func sums(w io.Writer) {
	for _, n := range lengths {
		s256 := blake3.Sum256(input(n))
		s512 := blake3.Sum512(input(n))
		fmt.Fprintf(w, "%d %x %x\n", n, s256, s512)
	}
}

func stream(w io.Writer) {
	for _, n := range lengths {
		for _, step := range []int{1, 7, 64, 1000, 1 << 20} {
			if step == 1 && n > 5000 {
				continue
			}
			h := blake3.New()
			in := input(n)
			for len(in) > 0 {
				k := step
				if k > len(in) {
					k = len(in)
				}
				if k%2 == 1 {
					h.WriteString(string(in[:k]))
				} else {
					h.Write(in[:k])
				}
				in = in[k:]
				if len(in) == n/2 {
					c := h.Clone()
					fmt.Fprintf(w, "clone at half %x\n", c.Sum([]byte("prefix")))
				}
			}
			fmt.Fprintf(w, "%d/%d %x\n", n, step, h.Sum(nil))
			h.Reset()
			h.Write([]byte("after reset"))
			fmt.Fprintf(w, "reset %x\n", h.Sum(nil))
		}
	}
}

func keyed(w io.Writer) {
	key := input(32)
	h, err := blake3.NewKeyed(key)
	if err != nil {
		fmt.Fprintln(w, "error", err)
		return
	}
	for _, n := range lengths {
		h.Reset()
		h.Write(input(n))
		fmt.Fprintf(w, "%d %x\n", n, h.Sum(nil))
	}
	_, err = blake3.NewKeyed(key[:31])
	fmt.Fprintln(w, "short key rejected:", err != nil)
}

func derive(w io.Writer) {
	for _, n := range []int{0, 16, 32, 64, 100} {
		out := make([]byte, n)
		blake3.DeriveKey("arborhash compat 2026-11-26 test context", input(n+10), out)
		fmt.Fprintf(w, "%d %x\n", n, out)
	}
	h := blake3.NewDeriveKey("arborhash compat 2026-11-26 test context")
	h.Write(input(1500))
	fmt.Fprintf(w, "hasher %x\n", h.Sum(nil))
}

func xof(w io.Writer) {
	h := blake3.New()
	h.Write(input(3000))
	d := h.Digest()
	buf := make([]byte, 200)
	for _, k := range []int{1, 31, 64, 65, 200} {
		n, err := io.ReadFull(d, buf[:k])
		fmt.Fprintf(w, "read %d %v %x\n", n, err, buf[:n])
	}
	for _, off := range []int64{0, 63, 64, 1000, 1 << 20} {
		pos, err := d.Seek(off, io.SeekStart)
		n, _ := io.ReadFull(d, buf[:80])
		fmt.Fprintf(w, "seek %d -> %d %v %x\n", off, pos, err, buf[:n])
	}
	pos, err := d.Seek(-10, io.SeekCurrent)
	fmt.Fprintf(w, "seek back %d %v\n", pos, err)
	n, _ := io.ReadFull(d, buf[:20])
	fmt.Fprintf(w, "%x\n", buf[:n])
}

func hashAPI(w io.Writer) {
	var h hash.Hash = blake3.New()
	fmt.Fprintln(w, "size", h.Size(), "block size", h.BlockSize())
	io.WriteString(h, "through io.WriteString")
	fmt.Fprintf(w, "%x\n", h.Sum(nil))
}
