//go:build purego || (!amd64 && !arm64)

package tz

import "testing"

// forEachBackend runs f once: this build has only the bit-serial code.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	t.Run("generic", f)
}
