package blake3

import (
	"bytes"
	"encoding/hex"
	"io"
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/arborhash/arborhash/go/internal/testvectors"
	luke "lukechampine.com/blake3"
)

var pattern = testvectors.Mod251

// TestPublishedVectors checks New (plain and keyed), Sum, XOF and DeriveKey
// against the published vectors, on one goroutine and on four.
func TestPublishedVectors(t *testing.T) {
	v := testvectors.ReadBLAKE3(t)
	const ctx = "BLAKE3 2019-12-27 16:29:52 test vectors context"
	for _, c := range v.Cases {
		in := pattern(c.InputLen)
		for _, workers := range []int{1, 4} {
			for _, k := range []struct {
				key  []byte
				want string
			}{{nil, c.Hash}, {[]byte(v.Key), c.KeyedHash}} {
				h := New(len(k.want)/2, k.key)
				h.SetParallel(workers)
				_, _ = h.Write(in)
				if got := hex.EncodeToString(h.Sum(nil)); got != k.want {
					t.Fatalf("len %d keyed %v: Sum %s", c.InputLen, k.key != nil, got)
				}
				x := make([]byte, len(k.want)/2)
				_, _ = io.ReadFull(h.XOF(), x)
				if got := hex.EncodeToString(x); got != k.want {
					t.Fatalf("len %d: XOF %s", c.InputLen, got)
				}
			}
		}
		sub := make([]byte, len(c.DeriveKey)/2)
		DeriveKey(sub, ctx, in)
		if got := hex.EncodeToString(sub); got != c.DeriveKey {
			t.Fatalf("len %d: DeriveKey %s", c.InputLen, got)
		}
		s256, s512 := Sum256(in), Sum512(in)
		if hex.EncodeToString(s256[:]) != c.Hash[:64] || hex.EncodeToString(s512[:]) != c.Hash[:128] {
			t.Fatalf("len %d: Sum256/Sum512", c.InputLen)
		}
	}
}

// TestDifferential compares with lukechampine.com/blake3 on random lengths
// (past ParallelMin too), output sizes, keys, write splits, copies of the
// Hasher and XOF seeks from every whence, with GOMAXPROCS 1 and 4.
func TestDifferential(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewSource(36))
	key := make([]byte, 32)
	r.Read(key)
	for iter := 0; iter < 120; iter++ {
		runtime.GOMAXPROCS(1 + 3*(iter%2))
		n := r.Intn(40 << 10)
		if iter%5 == 0 {
			n = ParallelMin + r.Intn(1<<20)
		}
		in := make([]byte, n)
		r.Read(in)
		size := []int{0, 1, 32, 64, 65, 200}[r.Intn(6)]
		var k []byte
		if iter%3 == 0 {
			k = key
		}
		ours, ref := New(size, k), luke.New(size, k)
		var copied Hasher
		for rest := in; len(rest) > 0; {
			c := r.Intn(len(rest) + 1)
			_, _ = ours.Write(rest[:c])
			_, _ = ref.Write(rest[:c])
			rest = rest[c:]
			if copied.size == 0 && r.Intn(2) == 0 {
				copied = *ours
				_, _ = copied.Write(rest)
			}
		}
		want := ref.Sum([]byte("prefix"))
		if got := ours.Sum([]byte("prefix")); !bytes.Equal(got, want) {
			t.Fatalf("len %d size %d: Sum %x want %x", n, size, got, want)
		}
		if copied.size != 0 && !bytes.Equal(copied.Sum([]byte("prefix")), want) {
			t.Fatalf("len %d: the copied Hasher differs", n)
		}
		if k == nil {
			if a, b := Sum256(in), luke.Sum256(in); a != b {
				t.Fatalf("len %d: Sum256", n)
			}
			if a, b := Sum512(in), luke.Sum512(in); a != b {
				t.Fatalf("len %d: Sum512", n)
			}
		}
		// lukechampine.com/blake3's reader is right after seeks to multiples
		// of 1024 only (see the README): the bytes are compared with a
		// prefix of its output read from the start, and near the end at a
		// multiple of 1024.
		prefix := make([]byte, 8192)
		_, _ = ref.XOF().Read(prefix)
		ox, rx := ours.XOF(), ref.XOF()
		for s := 0; s < 4; s++ {
			off, whence := int64(r.Intn(5000)), r.Intn(3)
			switch whence {
			case io.SeekCurrent:
				off -= 2500
			case io.SeekEnd:
				off = -1024*int64(r.Intn(4)) + 1
			}
			p1, e1 := ox.Seek(off, whence)
			p2, e2 := rx.Seek(off, whence)
			if p1 != p2 || (e1 == nil) != (e2 == nil) {
				t.Fatalf("Seek(%d, %d): %d %v, want %d %v", off, whence, p1, e1, p2, e2)
			}
			cur, _ := ox.Seek(0, io.SeekCurrent)
			if c, _ := rx.Seek(0, io.SeekCurrent); c != cur {
				t.Fatalf("position %d, want %d", cur, c)
			}
			a, b := make([]byte, r.Intn(300)), make([]byte, 0)
			b = append(b, a...)
			n1, e1 := ox.Read(a)
			n2, e2 := rx.Read(b)
			switch {
			case cur >= 0 && cur < 7000:
				b = prefix[cur : cur+int64(n2)]
			case uint64(cur)%1024 != 0:
				b = a // neither reference has these bytes
			}
			if n1 != n2 || e1 != e2 || !bytes.Equal(a[:n1], b[:n2]) {
				t.Fatalf("Read after Seek(%d, %d) to %d: %d %v, want %d %v", off, whence, cur, n1, e1, n2, e2)
			}
		}
	}
}

// TestOutputEnd reads across the end of the 2^64 - 1-byte stream.
func TestOutputEnd(t *testing.T) {
	x := New(32, nil).XOF()
	if p, err := x.Seek(-1023, io.SeekEnd); err != nil || uint64(p) != math.MaxUint64-1023 {
		t.Fatalf("Seek: %d %v", p, err)
	}
	buf := make([]byte, 2048)
	if n, err := x.Read(buf); n != 1023 || err != nil {
		t.Fatalf("Read: %d %v", n, err)
	}
	if n, err := x.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read at end: %d %v", n, err)
	}
	ref := luke.New(32, nil).XOF()
	_, _ = ref.Seek(-1023, io.SeekEnd)
	want := make([]byte, 1023)
	_, _ = ref.Read(want)
	if !bytes.Equal(buf[:1023], want) {
		t.Fatalf("last bytes %x want %x", buf[:16], want[:16])
	}
}

// TestPanics checks the arguments that panic with a message.
func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"short key":     func() { New(32, make([]byte, 31)) },
		"negative size": func() { New(-1, nil) },
		"whence":        func() { _, _ = New(32, nil).XOF().Seek(0, 3) },
	} {
		func() {
			defer func() {
				if _, ok := recover().(string); !ok {
					t.Errorf("%s: no panic with a message", name)
				}
			}()
			f()
		}()
	}
}
