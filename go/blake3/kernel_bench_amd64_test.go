//go:build amd64 && !purego

package blake3

import "testing"

func BenchmarkKernelCompress(b *testing.B) {
	var cv [8]uint32
	var block [64]byte
	var out [64]byte
	b.Run("sse41", func(b *testing.B) {
		b.SetBytes(64)
		for i := 0; i < b.N; i++ {
			compressSSE41(&cv, &block, 0, 64, 0, &out)
		}
	})
	b.Run("avx512", func(b *testing.B) {
		if !useAVX512 {
			b.Skip("no AVX-512VL")
		}
		b.SetBytes(64)
		for i := 0; i < b.N; i++ {
			compressAVX512(&cv, &block, 0, 64, 0, &out)
		}
	})
	b.Run("generic", func(b *testing.B) {
		b.SetBytes(64)
		for i := 0; i < b.N; i++ {
			compressGeneric(&cv, &block, 0, 64, 0, &out)
		}
	})
}

func BenchmarkKernelHashMany(b *testing.B) {
	data := make([]byte, 8*ChunkSize)
	var in8 [8]*byte
	var in4 [4]*byte
	for i := range in8 {
		in8[i] = &data[i*ChunkSize]
	}
	copy(in4[:], in8[:4])
	var ctr [16]uint32
	var ctr4 [8]uint32
	var out [8][8]uint32
	var out4 [4][8]uint32
	b.Run("avx2", func(b *testing.B) {
		b.SetBytes(8 * ChunkSize)
		for i := 0; i < b.N; i++ {
			hashManyAVX2(&in8, 16, &iv, &ctr, 0, 1, 2, &out)
		}
	})
	b.Run("avx512", func(b *testing.B) {
		if !useAVX512 {
			b.Skip("no AVX-512VL")
		}
		b.SetBytes(8 * ChunkSize)
		for i := 0; i < b.N; i++ {
			hashManyAVX512(&in8, 16, &iv, &ctr, 0, 1, 2, &out)
		}
	})
	b.Run("avx512x16", func(b *testing.B) {
		if !useAVX512 {
			b.Skip("no AVX-512")
		}
		in16 := [16]*byte(append(in8[:], in8[:]...))
		var ctr16 [32]uint32
		var out16 [16][8]uint32
		b.SetBytes(16 * ChunkSize)
		for i := 0; i < b.N; i++ {
			hashManyAVX512x16(&in16, 16, &iv, &ctr16, 0, 1, 2, &out16)
		}
	})
	b.Run("avx512x4", func(b *testing.B) {
		if !useAVX512 {
			b.Skip("no AVX-512VL")
		}
		b.SetBytes(4 * ChunkSize)
		for i := 0; i < b.N; i++ {
			hashManyAVX512x4(&in4, 16, &iv, &ctr4, 0, 1, 2, &out4)
		}
	})
	b.Run("sse41", func(b *testing.B) {
		b.SetBytes(4 * ChunkSize)
		for i := 0; i < b.N; i++ {
			hashManySSE41(&in4, 16, &iv, &ctr4, 0, 1, 2, &out4)
		}
	})
	b.Run("avx", func(b *testing.B) {
		b.SetBytes(4 * ChunkSize)
		for i := 0; i < b.N; i++ {
			hashManyAVX(&in4, 16, &iv, &ctr4, 0, 1, 2, &out4)
		}
	})
}
