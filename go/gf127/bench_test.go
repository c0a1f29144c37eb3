package gf127

import (
	"testing"

	peer "github.com/nspcc-dev/tzhash/gf127"
)

// BenchmarkMul and BenchmarkInv compare with tzhash's gf127 (on amd64 its
// Mul runs PCLMULQDQ assembly).
func BenchmarkMul(b *testing.B) {
	x, y := GF127{0x0123456789abcdef, 0x0fedcba987654321}, GF127{0xfedcba9876543210, 0x123456789abcdef}
	b.Run("arborhash", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Mul(&x, &y, &x)
		}
	})
	px, py := peer.GF127(x), peer.GF127(y)
	b.Run("tzhash", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			peer.Mul(&px, &py, &px)
		}
	})
}

func BenchmarkInv(b *testing.B) {
	x := GF127{0x0123456789abcdef, 0x0fedcba987654321}
	b.Run("arborhash", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Inv(&x, &x)
		}
	})
	px := peer.GF127(x)
	b.Run("tzhash", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			peer.Inv(&px, &px)
		}
	})
}
