package main

import (
	"encoding/hex"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/arborhash/arborhash/go/blake3"
)

// TestTreeInParts builds the hash of a file from the command's steps: the
// two children of the root as subtrees, one of them from its own children.
func TestTreeInParts(t *testing.T) {
	data := make([]byte, 5000)
	rand.New(rand.NewSource(12)).Read(data)
	file := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	step := func(args ...string) string {
		t.Helper()
		out, err := run(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return hex.EncodeToString(out)
	}
	a := step("cv", file, "0", "2048")
	b := step("cv", file, "2048", "2048")
	left := step("parent", a, b)
	if whole := step("cv", file, "0", "4096"); left != whole {
		t.Fatalf("parent of the halves %s, subtree %s", left, whole)
	}
	right := step("cv", file, "4096", "904")
	want := blake3.Sum512(data)
	if got := step("root", left, right, "64"); got != hex.EncodeToString(want[:]) {
		t.Fatalf("root %s, want %x", got, want)
	}
	for _, args := range [][]string{
		nil, {"cv", file, "1", "10"}, {"cv", file, "4096", "2000"}, {"cv", file, "x", "1"},
		{"cv", file, "0", "0"}, {"cv", filepath.Join(t.TempDir(), "missing"), "0", "1"},
		{"parent", a, "00"}, {"root", a, b, "-1"}, {"root", a, b, "1048577"}, {"other"},
	} {
		if _, err := run(args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
