//go:build amd64 && !purego

package blake3

import "testing"

// forEachBackend runs f with each kernel set this CPU supports forced on,
// and the scalar chains of Zen 5 on top of the widest, whatever the CPU.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	sse, avx, avx512, scalar := useSSE41, useAVX2, useAVX512, useScalarChains
	defer func() { useSSE41, useAVX2, useAVX512, useScalarChains = sse, avx, avx512, scalar }()
	useSSE41, useAVX2, useAVX512, useScalarChains = false, false, false, false
	t.Run("generic", f)
	if sse {
		useSSE41 = true
		t.Run("sse41", f)
	}
	if avx {
		useAVX2 = true
		t.Run("avx2", f)
	}
	if avx512 {
		useAVX512 = true
		t.Run("avx512", f)
	}
	useScalarChains = true
	t.Run("scalar chains", f)
}

// hasParentsKernel reports whether parentsInPlace runs a kernel with the
// current kernel set.
func hasParentsKernel() bool { return useAVX2 && !useAVX512 }
