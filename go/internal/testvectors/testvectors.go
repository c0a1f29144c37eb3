// Package testvectors reads the published test vectors that the repository
// keeps in its testvectors folder, beside the Go module.
package testvectors

import (
	"encoding/json"
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

// BLAKE3 is the content of blake3.json.
type BLAKE3 struct {
	Key           string `json:"key"`
	ContextString string `json:"context_string"`
	Cases         []struct {
		InputLen  int    `json:"input_len"`
		Hash      string `json:"hash"`
		KeyedHash string `json:"keyed_hash"`
		DeriveKey string `json:"derive_key"`
	} `json:"cases"`
}

// ReadBLAKE3 returns the published BLAKE3 vectors, and fails the test if they
// cannot be read.
func ReadBLAKE3(t testing.TB) BLAKE3 {
	t.Helper()
	var v BLAKE3
	if err := json.Unmarshal(Read(t, "blake3.json"), &v); err != nil {
		t.Fatalf("test vectors blake3.json: %v", err)
	}
	return v
}

// Mod251 returns n bytes of the vectors' input pattern: byte i is i % 251.
func Mod251(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}
