// Package testvectors reads the published test vectors that the repository
// keeps in its testvectors folder, beside the Go module.
package testvectors

import (
	"os"
	"path/filepath"
	"testing"
)

// Read returns the contents of the named vector file, and fails the test if
// it cannot be read.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	path, err := find(name)
	if err != nil {
		t.Fatalf("test vectors %s: %v", name, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("test vectors: %v", err)
	}
	return data
}

// find returns the path of the named vector file: in the testvectors folder
// beside the directory of the module's go.mod, found from the test's package
// directory upwards.
func find(name string) (string, error) {
	dir, err := filepath.Abs(".")
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "testvectors", name), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
