package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRun drops a test of an internal with its comment and the import only
// it used, rewrites an import and dot-imports the package under test.
func TestRun(t *testing.T) {
	const in = `package x

import (
	"strings"
	"testing"

	"example.com/peer/internal/alg"
	"example.com/peer/other"
)

// TestInternal uses alg.
func TestInternal(t *testing.T) { alg.F() }

func TestAPI(t *testing.T) {
	if New() == nil || strings.ToUpper("a") != "A" {
		t.Fatal(other.G())
	}
}
`
	const want = `package x_test

import (
	"strings"
	"testing"

	"example.com/ours/other"
	. "example.com/ours/x"
)

func TestAPI(t *testing.T) {
	if New() == nil || strings.ToUpper("a") != "A" {
		t.Fatal(other.G())
	}
}
`
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "in.go"), filepath.Join(dir, "out.go")
	if err := os.WriteFile(src, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	imports := replacements{"example.com/peer/other": "example.com/ours/other"}
	if err := run(src, dst, "x_test", "example.com/ours/x", "TestInternal", imports); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if err := run(src, dst, "x_test", "", "TestMissing", nil); err == nil {
		t.Fatal("dropping a missing declaration did not fail")
	}
}
