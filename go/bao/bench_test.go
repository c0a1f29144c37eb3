package bao

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/arborhash/arborhash/go/blake3"
	lukebao "lukechampine.com/blake3/bao"
)

// benchCase is one operation on content of one size, by us and by
// lukechampine.com/blake3/bao.
type benchCase struct {
	name       string
	ours, luke func()
}

func benchCases(content []byte, g int) []benchCase {
	enc, hash, _ := Encode(content, g)
	ob, _, _ := Outboard(content, g)
	out := make([]byte, 1<<20)
	drain := func(r io.Reader) {
		for {
			if _, err := r.Read(out); err != nil {
				if err != io.EOF {
					panic(err)
				}
				return
			}
		}
	}
	return []benchCase{
		{"encode", func() { _, _, _ = Encode(content, g) }, func() { lukebao.EncodeBuf(content, g, false) }},
		{"outboard", func() { _, _, _ = Outboard(content, g) }, func() { lukebao.EncodeBuf(content, g, true) }},
		{"encode into", func() { _, _ = EncodeInto(enc, content, g) }, func() { lukebao.EncodeBuf(content, g, false) }},
		{"decode", func() { drain(NewDecoder(bytes.NewReader(enc), hash, g)) }, func() {
			if ok, err := lukebao.Decode(io.Discard, bytes.NewReader(enc), nil, g, hash); !ok || err != nil {
				panic("lukechampine's decode failed")
			}
		}},
		{"decode outboard", func() { drain(NewOutboardDecoder(bytes.NewReader(content), bytes.NewReader(ob), hash, g)) }, func() {
			if ok, err := lukebao.Decode(io.Discard, bytes.NewReader(content), bytes.NewReader(ob), g, hash); !ok || err != nil {
				panic("lukechampine's decode failed")
			}
		}},
	}
}

func BenchmarkBao(b *testing.B) {
	for _, size := range []int{1 << 20, 64 << 20} {
		content := randomBytes(rand.New(rand.NewSource(11)), size)
		for _, g := range []int{0, 4} {
			for _, c := range benchCases(content, g) {
				for _, side := range []struct {
					name string
					f    func()
				}{{"ours", c.ours}, {"lukechampine", c.luke}} {
					b.Run(fmt.Sprintf("%s/G%d/%dMiB/%s", c.name, g, size>>20, side.name), func(b *testing.B) {
						b.SetBytes(int64(size))
						for i := 0; i < b.N; i++ {
							side.f()
						}
					})
				}
			}
		}
		b.Run(fmt.Sprintf("Sum256/%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; i < b.N; i++ {
				blake3.Sum256(content)
			}
		})
	}
}

// TestRatios times our Bao, lukechampine's and our Sum256 of the same
// content in turn, round after round, so that a change of the machine's load
// hits all three alike, and prints per operation the median over rounds of
// lukechampine's time over ours and of Sum256's time over ours, with the
// lowest and highest round. It asserts nothing. Run it with
//
//	ARBORHASH_BAO_RATIO=15 go test -run TestRatios -v ./bao
//
// (the value is the number of rounds).
func TestRatios(t *testing.T) {
	var rounds int
	if _, err := fmt.Sscan(os.Getenv("ARBORHASH_BAO_RATIO"), &rounds); err != nil || rounds < 1 {
		t.Skip("set ARBORHASH_BAO_RATIO=rounds to measure")
	}
	fmt.Printf("%-18s %4s %3s %10s %22s %22s\n", "", "MiB", "G", "ours MB/s", "lukechampine/ours", "ours/Sum256 speed")
	for _, size := range []int{1 << 20, 64 << 20} {
		content := randomBytes(rand.New(rand.NewSource(11)), size)
		hash := func() { blake3.Sum256(content) }
		for _, g := range []int{0, 4} {
			for _, c := range benchCases(content, g) {
				ns := alternate([]func(){c.ours, c.luke, hash}, rounds, size)
				luke, hashed := make([]float64, rounds), make([]float64, rounds)
				for r := range ns {
					luke[r], hashed[r] = ns[r][1]/ns[r][0], ns[r][2]/ns[r][0]
				}
				ours := make([]float64, rounds)
				for r := range ns {
					ours[r] = ns[r][0]
				}
				fmt.Printf("%-18s %4d %3d %10.0f %22s %22s\n", c.name, size>>20, g,
					float64(size)/median(ours)*1e3, spread(luke), spread(hashed))
			}
		}
	}
}

// alternate runs the functions in turn for rounds rounds and returns the
// ns per call of each in each round; a round of each lasts about 20 ms.
func alternate(fs []func(), rounds, size int) [][]float64 {
	iters := 1 + (20<<20)/(size*8) // about 20 MB at 1 GB/s
	out := make([][]float64, rounds)
	for r := range out {
		out[r] = make([]float64, len(fs))
		for i, f := range fs {
			start := time.Now()
			for k := 0; k < iters; k++ {
				f()
			}
			out[r][i] = float64(time.Since(start).Nanoseconds()) / float64(iters)
		}
	}
	return out
}

func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func spread(x []float64) string {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return fmt.Sprintf("%.2f (%.2f-%.2f)", s[len(s)/2], s[0], s[len(s)-1])
}
