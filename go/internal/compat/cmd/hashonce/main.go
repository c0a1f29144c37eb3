// Command hashonce hashes an n-byte buffer reps times with one
// implementation, for counting instructions under an emulator: the count
// of a run minus that of a run with fewer reps is the hashing's alone
// (scripts/go-arm64-insns.py).
//
//	hashonce -impl arborhash|zeebo|tzhash|arborhash-tz -n 65536 -reps 4
package main

import (
	"flag"
	"fmt"
	"os"

	ours "github.com/arborhash/arborhash/go/blake3"
	ourtz "github.com/arborhash/arborhash/go/tz"
	peertz "github.com/nspcc-dev/tzhash/tz"
	zeebo "github.com/zeebo/blake3"
)

func main() {
	impl := flag.String("impl", "arborhash", "arborhash, zeebo (BLAKE3), arborhash-tz or tzhash (Tillich-Zémor)")
	n := flag.Int("n", 1<<20, "bytes per hash")
	reps := flag.Int("reps", 1, "hashes")
	flag.Parse()
	sums := map[string]func([]byte) byte{
		"arborhash":    func(b []byte) byte { s := ours.Sum256(b); return s[0] },
		"zeebo":        func(b []byte) byte { s := zeebo.Sum256(b); return s[0] },
		"arborhash-tz": func(b []byte) byte { s := ourtz.Sum(b); return s[0] },
		"tzhash":       func(b []byte) byte { s := peertz.Sum(b); return s[0] },
	}
	sum, ok := sums[*impl]
	if !ok {
		fmt.Fprintln(os.Stderr, "hashonce: unknown -impl", *impl)
		os.Exit(2)
	}
	buf := make([]byte, *n)
	for i := range buf {
		buf[i] = byte(i % 251)
	}
	var x byte
	for i := 0; i < *reps; i++ {
		x ^= sum(buf)
	}
	fmt.Println(x)
}
