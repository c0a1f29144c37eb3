//go:build purego || (!amd64 && !arm64)

package blake3

import "testing"

// forEachBackend runs f once: this build has only the portable kernels.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	t.Run("generic", f)
}

// hasParentsKernel reports whether parentsInPlace runs a kernel: never here.
func hasParentsKernel() bool { return false }
