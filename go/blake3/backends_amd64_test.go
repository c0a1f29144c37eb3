//go:build amd64 && !purego

package blake3

import "testing"

// forEachBackend runs f with each kernel set this CPU supports forced on.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	sse, avx := useSSE41, useAVX2
	defer func() { useSSE41, useAVX2 = sse, avx }()
	useSSE41, useAVX2 = false, false
	t.Run("generic", f)
	if sse {
		useSSE41 = true
		t.Run("sse41", f)
	}
	if avx {
		useAVX2 = true
		t.Run("avx2", f)
	}
}
