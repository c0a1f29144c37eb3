// Command gen writes ours/, the programs of peer/ with the import paths
// swapped (compat.Swap).
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/arborhash/arborhash/go/internal/compat"
)

func main() {
	files, err := filepath.Glob(filepath.Join("peer", "*", "*.go"))
	if err != nil || len(files) == 0 {
		log.Fatalf("no programs in peer/: %v", err)
	}
	for _, in := range files {
		src, err := os.ReadFile(in)
		if err != nil {
			log.Fatal(err)
		}
		rel, _ := filepath.Rel("peer", in)
		out, err := compat.Swap(filepath.ToSlash(rel), src)
		if err != nil {
			log.Fatal(err)
		}
		dst := filepath.Join("ours", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
