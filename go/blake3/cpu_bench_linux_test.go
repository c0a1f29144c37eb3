package blake3

import (
	"fmt"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// The CPU benchmarks report the calling thread's CPU time per operation
// (cpu-ns/op) beside the wall time: on a machine whose other jobs take the
// cores in turn, the wall time counts theirs too.

// threadNS returns the calling thread's CPU time.
func threadNS() int64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return ts.Nano()
}

// cpuInput returns the input of the CPU benchmarks, 16 MiB.
func cpuInput() []byte {
	b := make([]byte, 16<<20)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// BenchmarkCPUSum256 is a one-shot Sum256 of 64 B to 16 MiB.
func BenchmarkCPUSum256(b *testing.B) {
	data := cpuInput()
	for _, n := range []int{64, 256, 1 << 10, 4 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20} {
		in := data[:n]
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.SetBytes(int64(n))
			t0 := threadNS()
			for i := 0; i < b.N; i++ {
				Sum256(in)
			}
			b.ReportMetric(float64(threadNS()-t0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkCPUWrite hashes 1 MiB in writes of 64 B and 8 KiB to a reused
// Hasher.
func BenchmarkCPUWrite(b *testing.B) {
	data := cpuInput()
	for _, w := range []int{64, 8 << 10} {
		b.Run(fmt.Sprint(w), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			h := New()
			var sum [32]byte
			b.SetBytes(1 << 20)
			t0 := threadNS()
			for i := 0; i < b.N; i++ {
				h.Reset()
				for off := 0; off < 1<<20; off += w {
					_, _ = h.Write(data[off : off+w])
				}
				h.Sum(sum[:0])
			}
			b.ReportMetric(float64(threadNS()-t0)/float64(b.N), "cpu-ns/op")
		})
	}
}
