//go:build amd64 && !purego

package blake3

import "testing"

// forEachBackend runs f with each kernel set this CPU supports forced on.
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	t.Run("generic", f)
}
