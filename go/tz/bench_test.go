package tz

import (
	"fmt"
	"testing"

	ref "github.com/nspcc-dev/tzhash/tz"
)

func BenchmarkSum(b *testing.B) {
	for _, n := range []int{64, 1024, 4096, 1 << 20} {
		in := pattern(n)
		b.Run(fmt.Sprintf("arborhash/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				Sum(in)
			}
		})
		b.Run(fmt.Sprintf("tzhash/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				ref.Sum(in)
			}
		})
	}
}

// BenchmarkTables measures the one-time cost of the window tables.
func BenchmarkTables(b *testing.B) {
	for i := 0; i < b.N; i++ {
		newPairTable()
		newByteColumnTable()
	}
}
