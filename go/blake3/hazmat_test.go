package blake3

import (
	"encoding/hex"
	"errors"
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/arborhash/arborhash/go/internal/testvectors"
)

// splitCV returns the chaining value of the subtree in at offset, built by
// splitting it at random into valid subtrees down to pieces that
// HashSubtree hashes whole, and merging them back.
func splitCV(t *testing.T, r *rand.Rand, m Mode, offset uint64, in []byte) ChainingValue {
	t.Helper()
	if len(in) <= ChunkSize || r.Intn(3) == 0 {
		cv, err := HashSubtree(m, offset, in)
		if err != nil {
			t.Fatal(err)
		}
		return cv
	}
	l, err := LeftSubtreeLen(uint64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	return MergeSubtreesNonRoot(splitCV(t, r, m, offset, in[:l]), splitCV(t, r, m, offset+l, in[l:]), m)
}

// rootChildren returns the chaining values of the root's children of in
// (longer than a chunk).
func rootChildren(t *testing.T, r *rand.Rand, m Mode, in []byte) (ChainingValue, ChainingValue) {
	t.Helper()
	l, err := LeftSubtreeLen(uint64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	return splitCV(t, r, m, 0, in[:l]), splitCV(t, r, m, l, in[l:])
}

func TestSubtreesPublishedVectors(t *testing.T) {
	v := testvectors.ReadBLAKE3(t)
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(1))
		modes := []struct {
			name string
			m    Mode
			want func(i int) string
		}{
			{"hash", HashMode(), func(i int) string { return v.Cases[i].Hash }},
			{"keyed", KeyedHashMode([32]byte([]byte(v.Key))), func(i int) string { return v.Cases[i].KeyedHash }},
			{"derive", DeriveKeyMaterialMode(HashDeriveKeyContext(v.ContextString)), func(i int) string { return v.Cases[i].DeriveKey }},
		}
		for i, c := range v.Cases {
			if c.InputLen <= ChunkSize {
				continue // a root of one chunk merges nothing
			}
			in := pattern(c.InputLen)
			for _, mode := range modes {
				want := mode.want(i)
				for rep := 0; rep < 3; rep++ {
					left, right := rootChildren(t, r, mode.m, in)
					got := make([]byte, len(want)/2)
					_, _ = MergeSubtreesRootXOF(left, right, mode.m).Read(got)
					if hex.EncodeToString(got) != want {
						t.Fatalf("%s len %d: XOF %x want %s", mode.name, c.InputLen, got, want)
					}
					if h := MergeSubtreesRoot(left, right, mode.m); hex.EncodeToString(h[:]) != want[:64] {
						t.Fatalf("%s len %d: root %x", mode.name, c.InputLen, h)
					}
				}
			}
		}
	})
}

func TestSubtreesAgainstSum256(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(2))
		rounds := 150
		if runtime.GOARCH != "amd64" {
			rounds = 40 // under emulation in CI
		}
		for i := 0; i < rounds; i++ {
			n := randomLength(r)
			if i%10 == 0 {
				n = ChunkSize + 1 + r.Intn(300*ChunkSize)
			}
			if n <= ChunkSize {
				continue
			}
			in := make([]byte, n)
			r.Read(in)
			left, right := rootChildren(t, r, HashMode(), in)
			if MergeSubtreesRoot(left, right, HashMode()) != Sum256(in) {
				t.Fatalf("len %d: merged root differs from Sum256", n)
			}
			d := make([]byte, 200)
			_, _ = MergeSubtreesRootXOF(left, right, HashMode()).Read(d)
			want := make([]byte, 200)
			h := New()
			_, _ = h.Write(in)
			_, _ = h.Digest().Read(want)
			if string(d) != string(want) {
				t.Fatalf("len %d: XOF differs", n)
			}
		}
	})
}

func TestHashSubtreesBatch(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(3))
		key := [32]byte{1, 2, 3}
		for _, m := range []Mode{HashMode(), KeyedHashMode(key)} {
			for g := 0; g < 9; g++ {
				sub := uint64(ChunkSize) << g
				for rep := 0; rep < 6; rep++ {
					n := 1 + r.Intn(int(sub)*(1+r.Intn(40)))
					in := make([]byte, n)
					r.Read(in)
					offset := sub * uint64(r.Intn(5))
					if rep == 0 {
						offset = sub << 40
					}
					out := make([]ChainingValue, (uint64(n)+sub-1)/sub)
					if err := HashSubtrees(m, offset, in, sub, out); err != nil {
						t.Fatal(err)
					}
					for i := range out {
						end := uint64(i+1) * sub
						if end > uint64(n) {
							end = uint64(n)
						}
						want, err := HashSubtree(m, offset+uint64(i)*sub, in[uint64(i)*sub:end])
						if err != nil {
							t.Fatal(err)
						}
						if out[i] != want {
							t.Fatalf("subtree len %d, input %d, offset %d: subtree %d differs", sub, n, offset, i)
						}
					}
				}
			}
		}
	})
}

func TestMergeSubtreePairs(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(4))
		m := KeyedHashMode([32]byte{9})
		for _, n := range []int{0, 1, 2, 15, 16, 17, 33, 100} {
			children := make([]ChainingValue, 2*n)
			for i := range children {
				r.Read(children[i][:])
			}
			want := make([]ChainingValue, n)
			for i := range want {
				want[i] = MergeSubtreesNonRoot(children[2*i], children[2*i+1], m)
			}
			parents := make([]ChainingValue, n)
			if err := MergeSubtreePairs(m, children, parents); err != nil {
				t.Fatal(err)
			}
			// In place, over the front of children.
			if err := MergeSubtreePairs(m, children, children[:n]); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if parents[i] != want[i] || children[i] != want[i] {
					t.Fatalf("%d pairs: parent %d differs", n, i)
				}
			}
		}
		if err := MergeSubtreePairs(m, make([]ChainingValue, 3), make([]ChainingValue, 1)); !errors.Is(err, ErrOutputLen) {
			t.Fatalf("odd children: %v", err)
		}
	})
}

func TestSubtreeErrors(t *testing.T) {
	m := HashMode()
	for _, c := range []struct {
		offset uint64
		n      int
		want   error
	}{
		{1, 1, ErrOffsetNotChunkAligned},
		{1023, 1, ErrOffsetNotChunkAligned},
		{0, 0, ErrEmptySubtree},
		{1024, 0, ErrEmptySubtree},
		{1024, 1025, ErrSubtreeTooLong},
		{3072, 2048, ErrSubtreeTooLong},
		{2048, 2049, ErrSubtreeTooLong},
		{math.MaxUint64 - 1023, 1025, ErrSubtreeTooLong},
	} {
		if _, err := HashSubtree(m, c.offset, make([]byte, c.n)); !errors.Is(err, c.want) {
			t.Errorf("HashSubtree(%d, %d bytes): %v, want %v", c.offset, c.n, err, c.want)
		}
	}
	for _, c := range []struct{ offset, max uint64 }{
		{0, math.MaxUint64}, {1024, 1024}, {2048, 2048}, {3072, 1024}, {1 << 20, 1 << 20},
		{1 << 63, 1 << 63}, {math.MaxUint64 - 1023, 1024},
	} {
		if max, err := MaxSubtreeLen(c.offset); err != nil || max != c.max {
			t.Errorf("MaxSubtreeLen(%d) = %d, %v; want %d", c.offset, max, err, c.max)
		}
	}
	if _, err := MaxSubtreeLen(5); !errors.Is(err, ErrOffsetNotChunkAligned) {
		t.Errorf("MaxSubtreeLen(5): %v", err)
	}
	for _, c := range []struct{ n, left uint64 }{
		{1025, 1024}, {2048, 1024}, {2049, 2048}, {4096, 2048}, {4097, 4096},
		{math.MaxUint64, 1 << 63},
	} {
		if l, err := LeftSubtreeLen(c.n); err != nil || l != c.left {
			t.Errorf("LeftSubtreeLen(%d) = %d, %v; want %d", c.n, l, err, c.left)
		}
	}
	for _, n := range []uint64{0, 1, 1024} {
		if _, err := LeftSubtreeLen(n); !errors.Is(err, ErrNoLeftSubtree) {
			t.Errorf("LeftSubtreeLen(%d): %v", n, err)
		}
	}
	one := make([]ChainingValue, 1)
	if err := HashSubtrees(m, 0, make([]byte, 10), 1000, one); !errors.Is(err, ErrBadSubtreeLen) {
		t.Errorf("subtree length 1000: %v", err)
	}
	if err := HashSubtrees(m, 1024, make([]byte, 10), 2048, one); !errors.Is(err, ErrSubtreeTooLong) {
		t.Errorf("misaligned offset: %v", err)
	}
	if err := HashSubtrees(m, 0, make([]byte, 2049), 1024, make([]ChainingValue, 2)); !errors.Is(err, ErrOutputLen) {
		t.Errorf("short output: %v", err)
	}
}
