package bao

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// FuzzDecoder encodes the content, changes one byte of the encoding (or
// none) and decodes: the output must be the content, or an error after a
// prefix of it. Arbitrary bytes are decoded too, to find panics.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("hello"), uint8(0), uint32(0), false)
	f.Add(bytes.Repeat([]byte{7}, 5000), uint8(0), uint32(2100), false)
	f.Add(bytes.Repeat([]byte{1, 2, 3}, 3000), uint8(1), uint32(70), true)
	f.Add(make([]byte, 1025), uint8(0), uint32(1<<31), true)
	f.Fuzz(func(t *testing.T, content []byte, g uint8, flip uint32, outboard bool) {
		gl := int(g % 4)
		enc, hash := mustEncode(t, content, gl, outboard)
		if flip != 0 {
			enc[int(flip>>1)%len(enc)] ^= 1 << (flip & 7)
		}
		got, err := decodeAll(content, enc, hash, gl, outboard)
		if !bytes.HasPrefix(content, got) || (err == nil && !bytes.Equal(got, content)) {
			t.Fatalf("decode: %v, %d bytes out", err, len(got))
		}
		if flip == 0 && err != nil {
			t.Fatal(err)
		}
		_, _ = decodeAll(content, content, hash, gl, outboard)
		_, _ = io.ReadAll(NewSliceExtractor(bytes.NewReader(content), uint64(flip), uint64(g), gl))
	})
}

// FuzzSliceDecoder extracts a slice, changes one byte of it (or none) and
// decodes it.
func FuzzSliceDecoder(f *testing.F) {
	f.Add([]byte("hello"), uint8(0), uint32(0), uint32(0), uint32(3))
	f.Add(bytes.Repeat([]byte{9}, 9000), uint8(0), uint32(17), uint32(3000), uint32(2000))
	f.Add(bytes.Repeat([]byte{9}, 9000), uint8(1), uint32(0), uint32(9000), uint32(0))
	f.Fuzz(func(t *testing.T, content []byte, g uint8, flip, start, count uint32) {
		gl := int(g % 4)
		enc, hash := mustEncode(t, content, gl, false)
		slice := extract(t, nil, enc, uint64(start), uint64(count), gl, false)
		if flip != 0 {
			slice[int(flip>>1)%len(slice)] ^= 1 << (flip & 7)
		}
		want := capped(content, uint64(start), uint64(count))
		got, err := decodeSlice(slice, hash, uint64(start), uint64(count), gl)
		if !bytes.HasPrefix(want, got) || (err == nil && !bytes.Equal(got, want)) {
			t.Fatalf("slice decode: %v, %d of %d bytes out", err, len(got), len(want))
		}
		if flip == 0 && err != nil {
			t.Fatal(err)
		}
		var h [8]byte
		binary.LittleEndian.PutUint64(h[:], uint64(start)<<20|uint64(count))
		_, _ = decodeSlice(append(h[:], content...), hash, uint64(start), uint64(count), gl)
	})
}
