// Package bench compares this module's BLAKE3 with zeebo/blake3 and
// lukechampine.com/blake3 v1.4 (whose go directive, 1.22, is above this
// module's: hence a module of its own). scripts/go-bench-peers.sh runs the
// implementations alternately and reports ratios.
package bench

import (
	"fmt"
	"hash"
	"testing"

	ours "github.com/arborhash/arborhash/go/lukechampine"
	zeebo "github.com/zeebo/blake3"
	luke "lukechampine.com/blake3"
)

// Sizes of BenchmarkSum: 64 B to 16 MiB.
var sizes = []int{64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20}

var input = func() []byte {
	b := make([]byte, 16<<20)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}()

func name(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// The implementations, by sub-benchmark name: ours is the lukechampine
// API package, whose Sum256 uses up to GOMAXPROCS goroutines, like
// lukechampine.com/blake3 v1.4; zeebo/blake3 uses one.
var sums = []struct {
	name string
	sum  func([]byte) [32]byte
}{{"ours", ours.Sum256}, {"zeebo", zeebo.Sum256}, {"luke", luke.Sum256}}

// BenchmarkSum is a one-shot Sum256.
func BenchmarkSum(b *testing.B) {
	for _, impl := range sums {
		for _, n := range sizes {
			in := input[:n]
			b.Run(impl.name+"/"+name(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for i := 0; i < b.N; i++ {
					impl.sum(in)
				}
			})
		}
	}
}

// streamLen is the message of the write benchmarks.
const streamLen = 1 << 20

func hashers() []struct {
	name string
	h    hash.Hash
} {
	return []struct {
		name string
		h    hash.Hash
	}{{"ours", ours.New(32, nil)}, {"zeebo", zeebo.New()}, {"luke", luke.New(32, nil)}}
}

// BenchmarkWrite hashes a 1 MiB message in writes of 64 B and 8 KiB to a
// reused Hasher.
func BenchmarkWrite(b *testing.B) {
	for _, w := range []int{64, 8 << 10} {
		for _, impl := range hashers() {
			h := impl.h
			b.Run(impl.name+"/"+name(w), func(b *testing.B) {
				b.SetBytes(streamLen)
				var sum [32]byte
				for i := 0; i < b.N; i++ {
					h.Reset()
					for off := 0; off < streamLen; off += w {
						_, _ = h.Write(input[off : off+w])
					}
					h.Sum(sum[:0])
				}
			})
		}
	}
}
