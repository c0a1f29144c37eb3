package compat

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	ourluke "github.com/arborhash/arborhash/go/internal/compat/ours/luke"
	ourtz "github.com/arborhash/arborhash/go/internal/compat/ours/tzhash"
	ourzeebo "github.com/arborhash/arborhash/go/internal/compat/ours/zeebo"
	peerluke "github.com/arborhash/arborhash/go/internal/compat/peer/luke"
	peertz "github.com/arborhash/arborhash/go/internal/compat/peer/tzhash"
	peerzeebo "github.com/arborhash/arborhash/go/internal/compat/peer/zeebo"
)

func TestSameOutput(t *testing.T) {
	for _, set := range []struct {
		name       string
		peer, ours map[string]func(io.Writer)
	}{
		{"zeebo", peerzeebo.Programs, ourzeebo.Programs},
		{"tzhash", peertz.Programs, ourtz.Programs},
		{"lukechampine", peerluke.Programs, ourluke.Programs},
	} {
		names := make([]string, 0, len(set.peer))
		for name := range set.peer {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			t.Run(set.name+"/"+name, func(t *testing.T) {
				var want, got bytes.Buffer
				set.peer[name](&want)
				set.ours[name](&got)
				if want.Len() == 0 {
					t.Fatal("the program printed nothing")
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("outputs differ\npeer:\n%s\nours:\n%s", firstDiff(want.String(), got.String()), firstDiff(got.String(), want.String()))
				}
			})
		}
	}
}

// firstDiff returns the first line of a that is not the same line of b.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i, l := range al {
		if i >= len(bl) || l != bl[i] {
			return l
		}
	}
	return "(a prefix of the other)"
}

// TestOursIsSwapped checks that ours/ is exactly peer/ with the import paths
// swapped, so the comparison is of unchanged programs.
func TestOursIsSwapped(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("peer", "*", "*.go"))
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	for _, in := range files {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel("peer", in)
		want, err := Swap(filepath.ToSlash(rel), src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("ours", rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("ours/%s is not peer/%s swapped (run go generate): %v", rel, rel, err)
		}
	}
}
