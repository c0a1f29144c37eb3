package blake3

import (
	"fmt"
	"testing"

	zeebo "github.com/zeebo/blake3"
	luke "lukechampine.com/blake3"
)

var benchSizes = []int{64, 1024, 4096, 1 << 20}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1024:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// BenchmarkSum256 hashes a whole buffer with each implementation.
func BenchmarkSum256(b *testing.B) {
	for _, n := range benchSizes {
		in := pattern(n)
		b.Run("arborhash/"+sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				Sum256(in)
			}
		})
		b.Run("zeebo/"+sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				zeebo.Sum256(in)
			}
		})
		b.Run("lukechampine/"+sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				luke.Sum256(in)
			}
		})
	}
}

type streamHasher interface {
	Write([]byte) (int, error)
	Sum([]byte) []byte
	Reset()
}

// BenchmarkIncremental64 feeds the input in 64-byte writes to a reused hasher.
func BenchmarkIncremental64(b *testing.B) { benchIncremental(b, 64) }

// BenchmarkIncremental1K feeds the input in 1 KiB writes (one 64-byte write
// for the 64-byte input) to a reused hasher.
func BenchmarkIncremental1K(b *testing.B) { benchIncremental(b, 1024) }

func benchIncremental(b *testing.B, w int) {
	impls := []struct {
		name string
		h    streamHasher
	}{
		{"arborhash", New()},
		{"zeebo", zeebo.New()},
		{"lukechampine", luke.New(32, nil)},
	}
	for _, n := range benchSizes {
		in := pattern(n)
		step := minInt(w, n)
		for _, impl := range impls {
			h := impl.h
			b.Run(impl.name+"/"+sizeName(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				var sum [32]byte
				for i := 0; i < b.N; i++ {
					h.Reset()
					for off := 0; off < n; off += step {
						_, _ = h.Write(in[off : off+step])
					}
					h.Sum(sum[:0])
				}
			})
		}
	}
}

// BenchmarkSumMany hashes 64 messages of 4 KiB in one call.
func BenchmarkSumMany(b *testing.B) {
	inputs := make([][]byte, 64)
	for i := range inputs {
		inputs[i] = pattern(4096)
	}
	outputs := make([][32]byte, len(inputs))
	b.SetBytes(int64(64 * 4096))
	for i := 0; i < b.N; i++ {
		SumMany(inputs, outputs)
	}
}

// minInt is the smaller of a and b (the module's Go version predates min).
func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}
