package blake3

import (
	"bytes"
	"math/rand"
	"testing"

	zeebo "github.com/zeebo/blake3"
)

// TestParallelEqualsSerial writes messages around the parallel threshold and
// the piece sizes, in splits that leave the buffer partly full or the
// counter unaligned before a large write, on 1, 2 and 3 goroutines, keyed
// and unkeyed, and compares with one goroutine's hash (and that with
// zeebo/blake3's). The split into pieces
// does not depend on the kernels, so it runs with the CPU's own.
func TestParallelEqualsSerial(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	data := make([]byte, 2<<20+777)
	rng.Read(data)
	key := make([]byte, KeySize)
	rng.Read(key)
	sizes := []int{ParallelMin - 1, ParallelMin, ParallelMin + 1, 1<<20 + 1024, len(data),
		ParallelMin + rng.Intn(len(data)-ParallelMin)}
	heads := []int{0, 1, bufSize + 1, 17*ChunkSize + 3}
	for _, n := range sizes {
		msg := data[:n]
		for _, keyed := range []bool{false, true} {
			newHasher := func() *Hasher {
				if keyed {
					h, _ := NewKeyed(key)
					return h
				}
				return New()
			}
			serial := newHasher()
			_, _ = serial.Write(msg)
			want := serial.Sum(nil)
			for _, workers := range []int{1, 2, 3} {
				for _, head := range heads {
					h := newHasher()
					h.SetParallel(workers)
					_, _ = h.Write(msg[:head])
					_, _ = h.Write(msg[head:])
					if got := h.Sum(nil); !bytes.Equal(got, want) {
						t.Fatalf("len %d keyed %v workers %d head %d: got %x want %x", n, keyed, workers, head, got, want)
					}
				}
			}
		}
		if a, b := Sum256(msg), zeebo.Sum256(msg); a != b {
			t.Fatalf("len %d: Sum256 differs from zeebo/blake3", n)
		}
	}
}

// TestParallelWriteString checks that WriteString takes the parallel path
// with the same result, and that Clone and Reset keep the setting.
func TestParallelWriteString(t *testing.T) {
	msg := pattern(2<<20 + 99)
	want := Sum256(msg)
	h := New()
	h.SetParallel(3)
	_, _ = h.WriteString(string(msg))
	c := h.Clone()
	h.Reset()
	_, _ = h.Write(msg)
	for _, x := range []*Hasher{h, c} {
		if got := x.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("got %x want %x", got, want)
		}
		if x.workers != 3 {
			t.Fatalf("workers %d", x.workers)
		}
	}
}

// TestParallelManyBatches writes more pieces than one batch holds (maxBatch
// pieces of at most pieceMaxChunks), after a head that leaves the counter
// unaligned to the piece size.
func TestParallelManyBatches(t *testing.T) {
	msg := pattern((maxBatch+3)*pieceMaxChunks*ChunkSize + 5)
	head := 17*ChunkSize + 3
	want := Sum256(msg)
	h := New()
	h.SetParallel(2)
	_, _ = h.Write(msg[:head])
	_, _ = h.Write(msg[head:])
	if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
		t.Fatalf("got %x want %x", got, want)
	}
}
