//go:build amd64 && !purego

package blake3

import (
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	zeebo "github.com/zeebo/blake3"
	luke "lukechampine.com/blake3"
)

// TestInterleavedRatios measures Sum256, 64-byte writes and 1 KiB writes
// against zeebo/blake3 and lukechampine.com/blake3 on a loaded machine: the
// three run in turn in slices of about a millisecond, so that a change of
// load hits all of them alike. It prints the fastest ns/op of each, zeebo's
// fastest over ours (the steadier figure under heavy load) and the median
// over rounds of zeebo's time over ours; it asserts nothing. Run it with
//
//	ARBORHASH_RATIO=40 go test -run TestInterleavedRatios -v ./blake3
//
// (the value is the number of rounds); ARBORHASH_RATIO_AVX2=1 leaves the
// AVX-512 kernels out.
func TestInterleavedRatios(t *testing.T) {
	var rounds int
	if _, err := fmt.Sscan(os.Getenv("ARBORHASH_RATIO"), &rounds); err != nil || rounds < 1 {
		t.Skip("set ARBORHASH_RATIO=rounds to measure")
	}
	if os.Getenv("ARBORHASH_RATIO_AVX2") != "" {
		defer func(v bool) { useAVX512 = v }(useAVX512)
		useAVX512 = false
	}
	fmt.Printf("%-8s %8s %10s %10s %10s %11s %11s\n", "", "bytes", "zeebo ns", "ours ns", "luke ns", "best ratio", "med. ratio")
	for _, kind := range []struct {
		name  string
		write int // 0: Sum256
	}{{"Sum256", 0}, {"Write64", 64}, {"Write1K", 1024}} {
		for _, n := range ratioSizes {
			in := pattern(n)
			impls := [3]func(){
				func() { Sum256(in) }, func() { zeebo.Sum256(in) }, func() { luke.Sum256(in) },
			}
			if kind.write > 0 {
				step := minInt(kind.write, n)
				hs := [3]streamHasher{New(), zeebo.New(), luke.New(32, nil)}
				var sum [32]byte
				for i, h := range hs {
					h := h // the module's go 1.20 shares the loop variable between closures
					impls[i] = func() {
						h.Reset()
						for off := 0; off < n; off += step {
							_, _ = h.Write(in[off : off+step])
						}
						h.Sum(sum[:0])
					}
				}
			}
			best, ratio := interleave(impls, rounds)
			fmt.Printf("%-8s %8d %10.1f %10.1f %10.1f %11.3f %11.3f\n", kind.name, n, best[1], best[0], best[2], best[1]/best[0], ratio)
		}
	}
}

// ratioSizes adds the long messages where the 8-lane chunk kernel and the
// parent levels dominate to the benchmark sizes.
var ratioSizes = []int{64, 1024, 4096, 64 << 10, 256 << 10, 1 << 20}

// interleave runs the functions in turn for rounds rounds and returns each
// one's fastest ns per call and the median over rounds of the second's
// time over the first's.
func interleave(fs [3]func(), rounds int) (best [3]float64, ratio float64) {
	iters := 1
	for start := time.Now(); time.Since(start) < time.Millisecond; iters *= 2 {
		start = time.Now()
		for k := 0; k < iters; k++ {
			fs[0]()
		}
	}
	ratios := make([]float64, rounds)
	for r := 0; r < rounds; r++ {
		var ns [3]float64
		for i, f := range fs {
			start := time.Now()
			for k := 0; k < iters; k++ {
				f()
			}
			ns[i] = float64(time.Since(start).Nanoseconds()) / float64(iters)
			if r == 0 || ns[i] < best[i] {
				best[i] = ns[i]
			}
		}
		ratios[r] = ns[1] / ns[0]
	}
	sort.Float64s(ratios)
	return best, ratios[rounds/2]
}

// TestParallelThreshold measures, like TestInterleavedRatios, one
// goroutine's hash against updateParallel's on 2 goroutines (below
// ParallelMin too, which Write would not do), to place ParallelMin: run it
// with GOMAXPROCS=2 and ARBORHASH_RATIO=rounds. The last column times one
// goroutine's hash twice (a second Hasher's best time over the first's):
// what the measurement gives for equal work.
func TestParallelThreshold(t *testing.T) {
	var rounds int
	if _, err := fmt.Sscan(os.Getenv("ARBORHASH_RATIO"), &rounds); err != nil || rounds < 1 {
		t.Skip("set ARBORHASH_RATIO=rounds to measure")
	}
	fmt.Printf("%8s %10s %10s %11s %11s %9s\n", "bytes", "serial ns", "2 gor. ns", "best ratio", "med. ratio", "control")
	for _, n := range []int{32 << 10, 48 << 10, 64 << 10, 96 << 10, 128 << 10, 192 << 10, 256 << 10, 512 << 10, 1 << 20} {
		in := pattern(n)
		var sum [32]byte
		serial, serial2, par := New(), New(), New()
		impls := [3]func(){
			func() { par.Reset(); par.h.updateParallel(in, 2); par.Sum(sum[:0]) },
			func() { serial.Reset(); _, _ = serial.Write(in); serial.Sum(sum[:0]) },
			func() { serial2.Reset(); _, _ = serial2.Write(in); serial2.Sum(sum[:0]) },
		}
		best, ratio := interleave(impls, rounds)
		fmt.Printf("%8d %10.1f %10.1f %11.3f %11.3f %9.3f\n", n, best[1], best[0], best[1]/best[0], ratio, best[2]/best[1])
	}
}
