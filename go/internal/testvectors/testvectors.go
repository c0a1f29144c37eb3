// Package testvectors locates the published test vectors shared by the
// project (shared/testvectors beside the repository root, or beside any
// directory above it, which is where a git worktree finds it).
package testvectors

import (
	"os"
	"path/filepath"
	"testing"
)

// Read returns the contents of the named vector file, or skips the test with
// a note when no folder is found. ARBORHASH_TESTVECTORS overrides the
// folder.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	path, err := find(name)
	if err != nil {
		t.Skipf("published vectors not found, skipping (%v)", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("published vectors not found, skipping (%v)", err)
	}
	return data
}

// find returns the path of the named vector file: in ARBORHASH_TESTVECTORS
// if set, else in the first shared/testvectors found from the test's
// directory (a package directory) upwards.
func find(name string) (string, error) {
	if dir := os.Getenv("ARBORHASH_TESTVECTORS"); dir != "" {
		return filepath.Join(dir, name), nil
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "shared", "testvectors", name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
