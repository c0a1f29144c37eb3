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
	data := make([]byte, 16*ChunkSize)
	var in [16]*byte
	for i := range in {
		in[i] = &data[i*ChunkSize]
	}
	var lo, hi [16]uint32
	var out [16][8]uint32
	kernels := []struct {
		name  string
		ok    bool
		lanes int
		run   func()
	}{
		{"avx512x16", useAVX512, 16, func() { hashManyAVX512x16(&in, 16, &iv, &lo, &hi, 0, 1, 2, &out) }},
		{"avx512", useAVX512, 8, func() {
			hashManyAVX512((*[8]*byte)(in[:]), 16, &iv, (*[8]uint32)(lo[:]), (*[8]uint32)(hi[:]), 0, 1, 2, (*[8][8]uint32)(out[:]))
		}},
		{"avx2", useAVX2, 8, func() {
			hashManyAVX2((*[8]*byte)(in[:]), 16, &iv, (*[8]uint32)(lo[:]), (*[8]uint32)(hi[:]), 0, 1, 2, (*[8][8]uint32)(out[:]))
		}},
		{"avx512x4", useAVX512, 4, func() {
			hashManyAVX512x4((*[4]*byte)(in[:]), 16, &iv, (*[4]uint32)(lo[:]), (*[4]uint32)(hi[:]), 0, 1, 2, (*[4][8]uint32)(out[:]))
		}},
		{"avx", useAVX2, 4, func() {
			hashManyAVX((*[4]*byte)(in[:]), 16, &iv, (*[4]uint32)(lo[:]), (*[4]uint32)(hi[:]), 0, 1, 2, (*[4][8]uint32)(out[:]))
		}},
		{"sse41", useSSE41, 4, func() {
			hashManySSE41((*[4]*byte)(in[:]), 16, &iv, (*[4]uint32)(lo[:]), (*[4]uint32)(hi[:]), 0, 1, 2, (*[4][8]uint32)(out[:]))
		}},
	}
	for _, k := range kernels {
		b.Run(k.name, func(b *testing.B) {
			if !k.ok {
				b.Skip("not supported by this CPU")
			}
			b.SetBytes(int64(k.lanes * ChunkSize))
			for i := 0; i < b.N; i++ {
				k.run()
			}
		})
	}
}
