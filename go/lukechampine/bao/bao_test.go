package bao

import (
	"bytes"
	"io"
	"math/rand"
	"testing"

	peer "lukechampine.com/blake3/bao"
)

type bufferAt struct{ b []byte }

func (w *bufferAt) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off+int64(len(p)) > int64(len(w.b)) {
		return 0, io.ErrShortWrite
	}
	return copy(w.b[off:], p), nil
}

// TestSameAsPeer runs each function beside lukechampine's on the same
// arguments, including corrupt and truncated encodings, and compares the
// results.
func TestSameAsPeer(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	for g := 0; g <= 5; g++ {
		group := 1024 << g
		for rep := 0; rep < 4; rep++ {
			n := 1 + r.Intn(group*(1+r.Intn(10)))
			data := make([]byte, n)
			r.Read(data)
			for _, outboard := range []bool{false, true} {
				size := EncodedSize(n, g, outboard)
				if size != peer.EncodedSize(n, g, outboard) {
					t.Fatalf("EncodedSize(%d, %d, %v)", n, g, outboard)
				}
				w := &bufferAt{make([]byte, size)}
				root, err := Encode(w, bytes.NewReader(data), int64(n), g, outboard)
				want, wantRoot := peer.EncodeBuf(data, g, outboard)
				if err != nil || root != wantRoot || !bytes.Equal(w.b, want) {
					t.Fatalf("Encode(G %d, len %d, outboard %v): %v", g, n, outboard, err)
				}
				for c := 0; c < 4; c++ {
					enc := append([]byte(nil), want...)
					switch c {
					case 1:
						enc[r.Intn(len(enc))] ^= 1
					case 2:
						enc = enc[:r.Intn(len(enc))]
					case 3:
						enc = append(enc, 1)
					}
					var content, ob io.Reader
					var content2, ob2 io.Reader
					if outboard {
						content, ob = bytes.NewReader(data), bytes.NewReader(enc)
						content2, ob2 = bytes.NewReader(data), bytes.NewReader(enc)
					} else {
						content, content2 = bytes.NewReader(enc), bytes.NewReader(enc)
					}
					var got, exp bytes.Buffer
					ok, err := Decode(&got, content, ob, g, root)
					wantOK, wantErr := peer.Decode(&exp, content2, ob2, g, root)
					if ok != wantOK || (err == nil) != (wantErr == nil) || !bytes.Equal(got.Bytes(), exp.Bytes()[:minInt(got.Len(), exp.Len())]) || !bytes.HasPrefix(data, got.Bytes()) {
						t.Fatalf("Decode(G %d, len %d, outboard %v, case %d): %v, %v; lukechampine %v, %v", g, n, outboard, c, ok, err, wantOK, wantErr)
					}
					var d, o []byte
					if outboard {
						d, o = data, enc
					} else {
						d = enc
					}
					if VerifyBuf(d, o, g, root) != peer.VerifyBuf(d, o, g, root) {
						t.Fatalf("VerifyBuf(G %d, len %d, outboard %v, case %d)", g, n, outboard, c)
					}
				}
			}
			full, root := peer.EncodeBuf(data, g, false)
			ob, _ := peer.EncodeBuf(data, g, true)
			for s := 0; s < 5; s++ {
				off := uint64(r.Intn(n))
				length := uint64(r.Intn(n - int(off) + 1))
				if s == 0 {
					off, length = uint64(n), 0
				}
				var got, exp bytes.Buffer
				err := ExtractSlice(&got, bytes.NewReader(full), nil, g, off, length)
				wantErr := peer.ExtractSlice(&exp, bytes.NewReader(full), nil, g, off, length)
				if (err == nil) != (wantErr == nil) || !bytes.Equal(got.Bytes(), exp.Bytes()) {
					t.Fatalf("ExtractSlice(G %d, len %d, %d+%d): %v", g, n, off, length, err)
				}
				start := off / uint64(group) * uint64(group)
				end := min64((off+length+uint64(group)-1)/uint64(group)*uint64(group), uint64(n))
				var gotOB bytes.Buffer
				if err := ExtractSlice(&gotOB, bytes.NewReader(data[start:end]), bytes.NewReader(ob), g, off, length); err != nil || !bytes.Equal(gotOB.Bytes(), exp.Bytes()) {
					t.Fatalf("ExtractSlice from the outboard (G %d, len %d, %d+%d): %v", g, n, off, length, err)
				}
				slice := exp.Bytes()
				if len(slice) > 8 && s%2 == 1 {
					slice = append([]byte(nil), slice...)
					slice[8+r.Intn(len(slice)-8)] ^= 1
				}
				v, ok := VerifySlice(slice, g, off, length, root)
				wv, wok := peer.VerifySlice(slice, g, off, length, root)
				if ok != wok || !bytes.Equal(v, wv) {
					t.Fatalf("VerifySlice(G %d, len %d, %d+%d): %v, lukechampine %v", g, n, off, length, ok, wok)
				}
				if end > start {
					chunks := data[start:end]
					if VerifyChunk(chunks, ob, g, start, root) != peer.VerifyChunk(chunks, ob, g, start, root) {
						t.Fatalf("VerifyChunk(G %d, len %d, %d..%d)", g, n, start, end)
					}
				}
			}
			if ExtractSlice(io.Discard, bytes.NewReader(full), nil, g, uint64(n), 1) == nil || peer.ExtractSlice(io.Discard, bytes.NewReader(full), nil, g, uint64(n), 1) == nil {
				t.Fatal("ExtractSlice past the end: no error")
			}
		}
	}
}

// TestNoPanics checks the arguments for which the package does otherwise
// than lukechampine's: errors and false instead of panics.
func TestNoPanics(t *testing.T) {
	for _, g := range []int{-1, 17, 64} {
		if EncodedSize(10, g, false) != -1 {
			t.Errorf("EncodedSize, group %d", g)
		}
		if enc, _ := EncodeBuf([]byte("x"), g, false); enc != nil {
			t.Errorf("EncodeBuf, group %d", g)
		}
		if _, err := Encode(&bufferAt{make([]byte, 100)}, bytes.NewReader([]byte("x")), 1, g, false); err == nil {
			t.Errorf("Encode, group %d", g)
		}
		if ok, _ := Decode(io.Discard, bytes.NewReader(make([]byte, 9)), nil, g, [32]byte{}); ok {
			t.Errorf("Decode, group %d", g)
		}
		if ExtractSlice(io.Discard, bytes.NewReader(make([]byte, 9)), nil, g, 0, 1) == nil {
			t.Errorf("ExtractSlice, group %d", g)
		}
		if VerifyChunk(make([]byte, 1), make([]byte, 8), g, 0, [32]byte{}) {
			t.Errorf("VerifyChunk, group %d", g)
		}
	}
	if EncodedSize(-5, 0, true) != -1 {
		t.Error("EncodedSize of a negative length")
	}
	if _, err := Encode(&bufferAt{make([]byte, 100)}, bytes.NewReader([]byte("x")), 5, 0, false); err == nil {
		t.Error("Encode of data shorter than dataLen")
	}
	if _, err := Encode(&bufferAt{make([]byte, 3)}, bytes.NewReader([]byte("x")), 1, 0, false); err == nil {
		t.Error("Encode into a small buffer")
	}
	if _, err := Encode(&bufferAt{}, bytes.NewReader(nil), -1, 0, false); err == nil {
		t.Error("Encode of a negative length")
	}
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}
