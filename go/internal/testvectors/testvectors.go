// Package testvectors locates the published test vectors shared by the
// project (../shared/testvectors beside the repository root).
package testvectors

import (
	"os"
	"path/filepath"
	"testing"
)

// Read returns the contents of the named vector file, or skips the test with
// a note when the folder is absent. ARBORHASH_TESTVECTORS overrides the
// folder (useful from a git worktree that does not sit beside shared/).
func Read(t testing.TB, name string) []byte {
	t.Helper()
	dir := os.Getenv("ARBORHASH_TESTVECTORS")
	if dir == "" {
		// Package directories are go/<pkg>, so the repository root is ../..
		dir = filepath.Join("..", "..", "..", "shared", "testvectors")
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Skipf("published vectors not found, skipping (%v)", err)
	}
	return data
}
