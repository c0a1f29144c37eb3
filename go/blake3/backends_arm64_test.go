//go:build arm64 && !purego

package blake3

import "testing"

// forEachBackend runs f with the generic code and with the NEON kernel.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	neon := useNEON
	defer func() { useNEON = neon }()
	useNEON = false
	t.Run("generic", f)
	useNEON = true
	t.Run("neon", f)
}

// hasParentsKernel reports whether parentsInPlace runs a kernel: not on
// arm64, where the lane kernel computes the parents.
func hasParentsKernel() bool { return false }
