package blake3

import (
	"bytes"
	"encoding/hex"
	"io"
	"math/rand"
	"testing"

	"github.com/arborhash/arborhash/go/internal/testvectors"
	zeebo "github.com/zeebo/blake3"
)

// pattern returns n bytes of the published test-vector input.
var pattern = testvectors.Mod251

func TestPublishedVectors(t *testing.T) {
	v := testvectors.ReadBLAKE3(t)
	forEachBackend(t, func(t *testing.T) {
		for _, c := range v.Cases {
			in := pattern(c.InputLen)
			check := func(name string, h *Hasher, want string) {
				t.Helper()
				_, _ = h.Write(in)
				got := make([]byte, len(want)/2)
				_, _ = h.Digest().Read(got)
				if hex.EncodeToString(got) != want {
					t.Fatalf("%s len %d: got %x want %s", name, c.InputLen, got, want)
				}
				if s := h.Sum(nil); hex.EncodeToString(s) != want[:64] {
					t.Fatalf("%s len %d: Sum %x", name, c.InputLen, s)
				}
			}
			check("hash", New(), c.Hash)
			kh, err := NewKeyed([]byte(v.Key))
			if err != nil {
				t.Fatal(err)
			}
			check("keyed", kh, c.KeyedHash)
			check("derive", NewDeriveKey(v.ContextString), c.DeriveKey)
			if s := Sum256(in); hex.EncodeToString(s[:]) != c.Hash[:64] {
				t.Fatalf("Sum256 len %d", c.InputLen)
			}
			if s := Sum512(in); hex.EncodeToString(s[:]) != c.Hash[:128] {
				t.Fatalf("Sum512 len %d", c.InputLen)
			}
			dk := make([]byte, 131)
			DeriveKey(v.ContextString, in, dk)
			if hex.EncodeToString(dk) != c.DeriveKey {
				t.Fatalf("DeriveKey len %d", c.InputLen)
			}
		}
	})
}

// randomLength favours lengths near chunk and buffer boundaries.
func randomLength(r *rand.Rand) int {
	switch r.Intn(4) {
	case 0:
		return r.Intn(3 * ChunkSize)
	case 1:
		k := r.Intn(70) + 1
		return k*ChunkSize + r.Intn(3) - 1
	case 2:
		return r.Intn(20*bufSize + 1)
	default:
		return r.Intn(64)*BlockSize + r.Intn(2)
	}
}

func TestDifferentialZeebo(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(1))
		key := make([]byte, 32)
		r.Read(key)
		for iter := 0; iter < 150; iter++ {
			in := make([]byte, randomLength(r))
			r.Read(in)
			ours, _ := NewKeyed(key)
			ref, _ := zeebo.NewKeyed(key)
			if iter%2 == 0 {
				ours, ref = New(), zeebo.New()
			}
			// Random write splits, including empty writes.
			for rest := in; len(rest) > 0; {
				n := r.Intn(len(rest) + 1)
				if r.Intn(3) == 0 {
					n = r.Intn(200)
					if n > len(rest) {
						n = len(rest)
					}
				}
				_, _ = ours.Write(rest[:n])
				_, _ = ref.Write(rest[:n])
				rest = rest[n:]
			}
			if !bytes.Equal(ours.Sum(nil), ref.Sum(nil)) {
				t.Fatalf("len %d: Sum differs", len(in))
			}
			if iter%2 == 0 {
				if a, b := Sum256(in), zeebo.Sum256(in); a != b {
					t.Fatalf("len %d: Sum256 differs", len(in))
				}
			}
			// XOF: seek to a random offset and read a random amount.
			od, rd := ours.Digest(), ref.Digest()
			off := int64(r.Intn(5000))
			if _, err := od.Seek(off, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			if _, err := rd.Seek(off, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			a := make([]byte, r.Intn(300))
			b := make([]byte, len(a))
			for i := 0; i < len(a); {
				n := 1 + r.Intn(len(a)-i)
				_, _ = od.Read(a[i : i+n])
				i += n
			}
			_, _ = rd.Read(b)
			if !bytes.Equal(a, b) {
				t.Fatalf("len %d: XOF at %d differs", len(in), off)
			}
		}
	})
}

func TestSeekCurrentAndErrors(t *testing.T) {
	d := New().Digest()
	all := make([]byte, 300)
	_, _ = d.Read(all)
	d2 := New().Digest()
	part := make([]byte, 10)
	_, _ = d2.Read(part)
	if pos, _ := d2.Seek(100, io.SeekCurrent); pos != 110 {
		t.Fatalf("SeekCurrent at %d", pos)
	}
	_, _ = d2.Read(part)
	if !bytes.Equal(part, all[110:120]) {
		t.Fatal("read after SeekCurrent differs")
	}
	if _, err := d2.Seek(0, io.SeekEnd); err == nil {
		t.Fatal("SeekEnd accepted")
	}
	if _, err := d2.Seek(-1000, io.SeekCurrent); err == nil {
		t.Fatal("seek before start accepted")
	}
	if _, err := NewKeyed(make([]byte, 31)); err == nil {
		t.Fatal("31-byte key accepted")
	}
}

func TestCloneResetWriteString(t *testing.T) {
	in := pattern(20000)
	h := New()
	_, _ = h.Write(in[:9000])
	c := h.Clone()
	_, _ = h.Write(in[9000:])
	_, _ = c.WriteString(string(in[9000:]))
	want := Sum256(in)
	if !bytes.Equal(h.Sum(nil), want[:]) || !bytes.Equal(c.Sum(nil), want[:]) {
		t.Fatal("clone or WriteString differs")
	}
	h.Reset()
	_, _ = h.Write(in[:5])
	if w := Sum256(in[:5]); !bytes.Equal(h.Sum(nil), w[:]) {
		t.Fatal("reset differs")
	}
	if h.Size() != 32 || h.BlockSize() != 64 {
		t.Fatal("Size/BlockSize")
	}
}

func TestSumMany(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(2))
		for iter := 0; iter < 20; iter++ {
			inputs := make([][]byte, r.Intn(12))
			for i := range inputs {
				inputs[i] = make([]byte, randomLength(r)%(9*ChunkSize))
				r.Read(inputs[i])
			}
			if iter == 0 {
				inputs = [][]byte{pattern(4096), pattern(4096)}
			}
			outputs := make([][32]byte, len(inputs))
			SumMany(inputs, outputs)
			for i, in := range inputs {
				if outputs[i] != zeebo.Sum256(in) {
					t.Fatalf("message %d (len %d) differs", i, len(in))
				}
			}
		}
	})
}

// TestTailChunkCounts checks Sum256 and the Hasher against zeebo/blake3
// for every number of chunks after the last whole subtree of sumOutput
// (odd parent counts on every level of the batched reduction), and for
// counts around the tops of sumLong (a tail right after a pushed top, a top
// cut short in every group; pending chunks of the Hasher), with the last
// chunk full, one byte short and one byte long.
func TestTailChunkCounts(t *testing.T) {
	var counts []int
	for c := 1; c <= 2*maxSubtreeChunks+1; c++ {
		counts = append(counts, c)
	}
	for _, d := range []int{-maxSubtreeChunks - 1, -maxSubtreeChunks, -groupChunks - 1, -1, 0, 1, groupChunks + 1, maxSubtreeChunks, maxSubtreeChunks + 1} {
		counts = append(counts, topChunks+d)
	}
	counts = append(counts, 2*topChunks+1, 3*topChunks+groupChunks+1)
	in := pattern((counts[len(counts)-1] + 1) * ChunkSize)
	var lengths []int
	var want [][32]byte
	for _, c := range counts {
		for _, n := range []int{c*ChunkSize - 1, c * ChunkSize, c*ChunkSize + 1} {
			lengths = append(lengths, n)
			want = append(want, zeebo.Sum256(in[:n]))
		}
	}
	forEachBackend(t, func(t *testing.T) {
		for i, n := range lengths {
			if Sum256(in[:n]) != want[i] {
				t.Fatalf("Sum256 len %d differs", n)
			}
			h := New()
			_, _ = h.Write(in[:n])
			if !bytes.Equal(h.Sum(nil), want[i][:]) {
				t.Fatalf("Hasher len %d differs", n)
			}
			// Through the buffer: pending chunk CVs at the end (counts
			// past two subtrees add nothing there).
			if n > (2*maxSubtreeChunks+2)*ChunkSize {
				continue
			}
			h.Reset()
			for off := 0; off < n; off += ChunkSize {
				_, _ = h.Write(in[off:minInt(off+ChunkSize, n)])
			}
			if !bytes.Equal(h.Sum(nil), want[i][:]) {
				t.Fatalf("Hasher, 1 KiB writes, len %d differs", n)
			}
		}
	})
}

func FuzzBlake3(f *testing.F) {
	f.Add([]byte("abc"), uint16(1))
	f.Add(pattern(3000), uint16(1024))
	f.Add(pattern(9000), uint16(8193))
	f.Fuzz(func(t *testing.T, in []byte, split uint16) {
		s := int(split) % (len(in) + 1)
		h := New()
		_, _ = h.Write(in[:s])
		_, _ = h.Write(in[s:])
		want := zeebo.Sum256(in)
		if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("len %d split %d", len(in), s)
		}
		if Sum256(in) != want {
			t.Fatalf("Sum256 len %d", len(in))
		}
	})
}

// TestLaneGroups checks every lane count of the lane kernels (full and
// partial groups of each width) for chunks and parents against the
// specification's compression, with counters that cross 2^32.
func TestLaneGroups(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	data := make([]byte, maxLanes*ChunkSize)
	r.Read(data)
	var key [8]uint32
	for i := range key {
		key[i] = r.Uint32()
	}
	forEachBackend(t, func(t *testing.T) {
		for _, blocks := range []int{1, ChunkSize / BlockSize} {
			for n := 1; n <= maxLanes; n++ {
				var j laneJob
				for l := 0; l < n; l++ {
					j.inputs[l] = data[l*ChunkSize : l*ChunkSize+blocks*BlockSize]
					j.counters[l] = 1<<32 - 3 + uint64(l)*(1<<32+1)
				}
				j.n = n
				var out [maxLanes][8]uint32
				hashMany(&j, blocks, &key, flagKeyedHash, flagChunkStart, flagChunkEnd, &out)
				for l := 0; l < n; l++ {
					if out[l] != specLane(j.inputs[l], j.counters[l], &key, flagKeyedHash, flagChunkStart, flagChunkEnd) {
						t.Fatalf("%d blocks, %d lanes: lane %d differs", blocks, n, l)
					}
				}
			}
		}
	})
}

// TestParentsInPlace checks the in-place parents kernel (where the CPU
// has one) on one to three batches against the specification's
// compression of each pair, and that it leaves the CVs after its output
// alone.
func TestParentsInPlace(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	var key [8]uint32
	for i := range key {
		key[i] = r.Uint32()
	}
	forEachBackend(t, func(t *testing.T) {
		for batches := 1; batches <= 3; batches++ {
			cvs := make([][8]uint32, 16*batches+1)
			for i := range cvs {
				for w := range cvs[i] {
					cvs[i][w] = r.Uint32()
				}
			}
			orig := append([][8]uint32(nil), cvs...)
			done := parentsInPlace(cvs, &key, flagKeyedHash)
			if hasParentsKernel() && done != 8*batches {
				t.Fatalf("%d batches: %d parents done", batches, done)
			}
			for k := 0; k < done; k++ {
				var block [BlockSize]byte
				wordsToBytes(orig[2*k][:], block[:32])
				wordsToBytes(orig[2*k+1][:], block[32:])
				if cvs[k] != specLane(block[:], 0, &key, flagKeyedHash|flagParent, 0, 0) {
					t.Fatalf("%d batches: parent %d differs", batches, k)
				}
			}
			for i := 2 * done; i < len(cvs); i++ {
				if cvs[i] != orig[i] {
					t.Fatalf("%d batches: CV %d changed", batches, i)
				}
			}
		}
	})
}

// specLane hashes the blocks of in one after the other with the portable
// compression.
func specLane(in []byte, counter uint64, key *[8]uint32, flags, start, end uint32) [8]uint32 {
	cv := *key
	blocks := len(in) / BlockSize
	for b := 0; b < blocks; b++ {
		f := flags
		if b == 0 {
			f |= start
		}
		if b == blocks-1 {
			f |= end
		}
		var out [BlockSize]byte
		compressGeneric(&cv, (*[BlockSize]byte)(in[b*BlockSize:]), counter, BlockSize, f, &out)
		bytesToWords(out[:32], cv[:])
	}
	return cv
}

// TestNoAllocations checks that hashing allocates nothing, one-shot or
// through a reused Hasher.
func TestNoAllocations(t *testing.T) {
	in := pattern(1 << 20)
	h := New()
	var sum [32]byte
	for _, n := range benchSizes {
		if a := testing.AllocsPerRun(3, func() { Sum256(in[:n]) }); a != 0 {
			t.Errorf("Sum256 of %d bytes: %v allocations", n, a)
		}
		a := testing.AllocsPerRun(3, func() {
			h.Reset()
			for off := 0; off < n; off += 64 {
				_, _ = h.Write(in[off : off+64])
			}
			h.Sum(sum[:0])
		})
		if a != 0 {
			t.Errorf("Hasher over %d bytes: %v allocations", n, a)
		}
	}
}
