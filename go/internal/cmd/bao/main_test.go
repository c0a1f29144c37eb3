package main

import (
	"bytes"
	"encoding/hex"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/arborhash/arborhash/go/bao"
)

// TestRoundTrip encodes a file both ways with the command, decodes both, and
// refuses a flipped byte and bad arguments.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	content := make([]byte, 9000)
	rand.New(rand.NewSource(39)).Read(content)
	if err := os.WriteFile(path("in"), content, 0o600); err != nil {
		t.Fatal(err)
	}
	want, hash, err := bao.Encode(content, 1)
	if err != nil {
		t.Fatal(err)
	}
	hexHash := hex.EncodeToString(hash[:])
	for _, args := range [][]string{
		{"encode", "1", path("in"), path("in.bao")},
		{"outboard", "1", path("in"), path("in.obao")},
		{"decode", "1", hexHash, path("in.bao"), path("out1")},
		{"decode-outboard", "1", hexHash, path("in"), path("in.obao"), path("out2")},
	} {
		if err := run(args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	if got, _ := os.ReadFile(path("in.bao")); !bytes.Equal(got, want) {
		t.Fatal("encode differs from bao.Encode")
	}
	for _, out := range []string{"out1", "out2"} {
		if got, _ := os.ReadFile(path(out)); !bytes.Equal(got, content) {
			t.Fatalf("%s differs from the content", out)
		}
	}
	want[len(want)/2] ^= 1
	if err := os.WriteFile(path("bad.bao"), want, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		nil, {"encode"}, {"encode", "x", path("in"), path("o")}, {"encode", "99", path("in"), path("o")},
		{"decode", "1", hexHash, path("bad.bao"), path("o")}, {"decode", "1", "00", path("in.bao"), path("o")},
		{"decode", "1", hexHash, path("missing"), path("o")}, {"other", "1"},
	} {
		if err := run(args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
