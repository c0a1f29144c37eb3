package bao

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand"
	"runtime"
	"testing"

	"github.com/arborhash/arborhash/go/blake3"
	"github.com/arborhash/arborhash/go/internal/testvectors"
)

// emulated is true where the tests run under emulation (arm64 on amd64 in
// CI): the largest inputs shrink.
var emulated = runtime.GOARCH != "amd64"

// scaled is n, or a tenth of it under emulation.
func scaled(n int) int {
	if emulated {
		return n / 10
	}
	return n
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// counterInput is the vectors' input: a 4-byte little-endian counter from 1.
func counterInput(n int) []byte {
	b := make([]byte, n+4)
	for i := 0; i < n; i += 4 {
		binary.LittleEndian.PutUint32(b[i:], uint32(i/4+1))
	}
	return b[:n]
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

func mustEncode(t testing.TB, content []byte, g int, outboard bool) ([]byte, [32]byte) {
	t.Helper()
	f := Encode
	if outboard {
		f = Outboard
	}
	enc, hash, err := f(content, g)
	if err != nil {
		t.Fatal(err)
	}
	if hash != blake3.Sum256(content) {
		t.Fatalf("len %d, G %d: the hash is not BLAKE3's", len(content), g)
	}
	return enc, hash
}

func decodeAll(content, enc []byte, hash [32]byte, g int, outboard bool) ([]byte, error) {
	var d io.Reader
	if outboard {
		d = NewOutboardDecoder(bytes.NewReader(content), bytes.NewReader(enc), hash, g)
	} else {
		d = NewDecoder(bytes.NewReader(enc), hash, g)
	}
	return io.ReadAll(d)
}

func extract(t testing.TB, content, enc []byte, start, count uint64, g int, outboard bool) []byte {
	t.Helper()
	var e *SliceExtractor
	if outboard {
		e = NewOutboardSliceExtractor(bytes.NewReader(content), bytes.NewReader(enc), start, count, g)
	} else {
		e = NewSliceExtractor(bytes.NewReader(enc), start, count, g)
	}
	s, err := io.ReadAll(e)
	if err != nil {
		t.Fatalf("extract %d+%d: %v", start, count, err)
	}
	return s
}

func decodeSlice(slice []byte, hash [32]byte, start, count uint64, g int) ([]byte, error) {
	return io.ReadAll(NewSliceDecoder(bytes.NewReader(slice), hash, start, count, g))
}

// capped is the content a slice request returns.
func capped(content []byte, start, count uint64) []byte {
	n := uint64(len(content))
	end := start + count
	if end < start || end > n {
		end = n
	}
	if start > n {
		start = n
	}
	return content[start:end]
}

type baoVectors struct {
	Hash []struct {
		InputLen int    `json:"input_len"`
		BaoHash  string `json:"bao_hash"`
	} `json:"hash"`
	Encode []struct {
		InputLen      int    `json:"input_len"`
		OutputLen     int    `json:"output_len"`
		BaoHash       string `json:"bao_hash"`
		EncodedBlake3 string `json:"encoded_blake3"`
		Corruptions   []int  `json:"corruptions"`
	} `json:"encode"`
	Outboard []struct {
		InputLen            int    `json:"input_len"`
		OutputLen           int    `json:"output_len"`
		BaoHash             string `json:"bao_hash"`
		EncodedBlake3       string `json:"encoded_blake3"`
		OutboardCorruptions []int  `json:"outboard_corruptions"`
		InputCorruptions    []int  `json:"input_corruptions"`
	} `json:"outboard"`
	Slice []struct {
		InputLen int    `json:"input_len"`
		BaoHash  string `json:"bao_hash"`
		Slices   []struct {
			Start        uint64 `json:"start"`
			Len          uint64 `json:"len"`
			OutputLen    int    `json:"output_len"`
			OutputBlake3 string `json:"output_blake3"`
			Corruptions  []int  `json:"corruptions"`
		} `json:"slices"`
	} `json:"slice"`
}

func hexSum(b []byte) string {
	s := blake3.Sum256(b)
	return hex.EncodeToString(s[:])
}

func flipped(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 1
	return c
}

func TestPublishedVectors(t *testing.T) {
	var v baoVectors
	if err := json.Unmarshal(testvectors.Read(t, "bao.json"), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Hash) == 0 || len(v.Encode) == 0 || len(v.Outboard) == 0 || len(v.Slice) == 0 {
		t.Fatal("bao.json: a section is empty")
	}
	for _, c := range v.Hash {
		_, hash := mustEncode(t, counterInput(c.InputLen), 0, true)
		if hex.EncodeToString(hash[:]) != c.BaoHash {
			t.Errorf("hash, len %d", c.InputLen)
		}
	}
	for _, c := range v.Encode {
		in := counterInput(c.InputLen)
		enc, hash := mustEncode(t, in, 0, false)
		if len(enc) != c.OutputLen || hexSum(enc) != c.EncodedBlake3 || hex.EncodeToString(hash[:]) != c.BaoHash {
			t.Fatalf("encode, len %d: %d bytes", c.InputLen, len(enc))
		}
		if got, err := decodeAll(nil, enc, hash, 0, false); err != nil || !bytes.Equal(got, in) {
			t.Fatalf("decode, len %d: %v", c.InputLen, err)
		}
		for _, i := range c.Corruptions {
			got, err := decodeAll(nil, flipped(enc, i), hash, 0, false)
			if err == nil || !bytes.HasPrefix(in, got) {
				t.Fatalf("decode, len %d, byte %d flipped: %v, %d bytes out", c.InputLen, i, err, len(got))
			}
		}
	}
	for _, c := range v.Outboard {
		in := counterInput(c.InputLen)
		ob, hash := mustEncode(t, in, 0, true)
		if len(ob) != c.OutputLen || hexSum(ob) != c.EncodedBlake3 {
			t.Fatalf("outboard, len %d: %d bytes", c.InputLen, len(ob))
		}
		if got, err := decodeAll(in, ob, hash, 0, true); err != nil || !bytes.Equal(got, in) {
			t.Fatalf("outboard decode, len %d: %v", c.InputLen, err)
		}
		for _, i := range c.OutboardCorruptions {
			if got, err := decodeAll(in, flipped(ob, i), hash, 0, true); err == nil || !bytes.HasPrefix(in, got) {
				t.Fatalf("outboard, len %d, outboard byte %d flipped: %v", c.InputLen, i, err)
			}
		}
		for _, i := range c.InputCorruptions {
			if got, err := decodeAll(flipped(in, i), ob, hash, 0, true); err == nil || !bytes.HasPrefix(in, got) {
				t.Fatalf("outboard, len %d, input byte %d flipped: %v", c.InputLen, i, err)
			}
		}
	}
	for _, c := range v.Slice {
		in := counterInput(c.InputLen)
		enc, hash := mustEncode(t, in, 0, false)
		ob, _ := mustEncode(t, in, 0, true)
		for _, s := range c.Slices {
			slice := extract(t, nil, enc, s.Start, s.Len, 0, false)
			if len(slice) != s.OutputLen || hexSum(slice) != s.OutputBlake3 {
				t.Fatalf("slice, len %d, %d+%d: %d bytes", c.InputLen, s.Start, s.Len, len(slice))
			}
			if !bytes.Equal(extract(t, in, ob, s.Start, s.Len, 0, true), slice) {
				t.Fatalf("slice from the outboard, len %d, %d+%d", c.InputLen, s.Start, s.Len)
			}
			if size, err := SliceSize(uint64(c.InputLen), s.Start, s.Len, 0); err != nil || size != uint64(len(slice)) {
				t.Fatalf("SliceSize, len %d, %d+%d: %d, %v", c.InputLen, s.Start, s.Len, size, err)
			}
			want := capped(in, s.Start, s.Len)
			if got, err := decodeSlice(slice, hash, s.Start, s.Len, 0); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("slice decode, len %d, %d+%d: %v", c.InputLen, s.Start, s.Len, err)
			}
			for _, i := range s.Corruptions {
				if got, err := decodeSlice(flipped(slice, i), hash, s.Start, s.Len, 0); err == nil || !bytes.HasPrefix(want, got) {
					t.Fatalf("slice, len %d, %d+%d, byte %d flipped: %v", c.InputLen, s.Start, s.Len, i, err)
				}
			}
		}
	}
}

// encNode is a node of an encoding: where its bytes are (after the header)
// and where its content starts.
type encNode struct {
	at, end, start uint64
	leaf           bool
}

// nodes lists the nodes of the encoding of n bytes, by the format's rules
// written out again.
func nodes(n uint64, g int, outboard bool) []encNode {
	group := uint64(1024) << g
	var out []encNode
	var walk func(at, start, n uint64) uint64
	walk = func(at, start, n uint64) uint64 {
		if n <= group {
			end := at + n
			if outboard {
				end = at
			}
			out = append(out, encNode{at, end, start, true})
			return end
		}
		out = append(out, encNode{at, at + 64, start, false})
		left := uint64(1024)
		for left*2 < n {
			left *= 2
		}
		return walk(walk(at+64, start, left), start+left, n-left)
	}
	walk(0, 0, n)
	return out
}

// checkFailure checks that a decode of content whose encoding has a wrong
// byte at encoding offset i failed at the node holding it and returned
// exactly the content before that node.
func checkFailure(t *testing.T, what string, content, got []byte, err error, i int, ns []encNode) {
	t.Helper()
	if i < HeaderSize {
		// Another length: a mismatch or a truncation.
		if err == nil || !bytes.HasPrefix(content, got) {
			t.Fatalf("%s %d: %v, output is not content", what, i, err)
		}
		return
	}
	var oe *OffsetError
	if !errors.As(err, &oe) || !errors.Is(err, ErrMismatch) {
		t.Fatalf("%s %d: %v, want a mismatch", what, i, err)
	}
	for _, nd := range ns {
		if uint64(i-HeaderSize) >= nd.at && uint64(i-HeaderSize) < nd.end {
			if oe.Offset != nd.start || !bytes.Equal(got, content[:nd.start]) {
				t.Fatalf("%s: failed at %d with %d bytes out, want the node at %d", what, oe.Offset, len(got), nd.start)
			}
			return
		}
	}
	t.Fatalf("%s: byte %d is in no node", what, i)
}

func TestCorruptionsAndTruncations(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, g := range []int{0, 1, 2} {
		group := 1024 << g
		for _, n := range []int{0, 1, group - 1, group, group + 1, 3*group + 5, 4 * group, 9*group + 100} {
			content := randomBytes(r, n)
			for _, outboard := range []bool{false, true} {
				enc, hash := mustEncode(t, content, g, outboard)
				ns := nodes(uint64(n), g, outboard)
				step := 1 + len(enc)/800 // every byte of the small ones
				if emulated {
					step = 1 + len(enc)/25
				}
				for i := 0; i < len(enc); i += step {
					got, err := decodeAll(content, flipped(enc, i), hash, g, outboard)
					checkFailure(t, "flipped encoding byte", content, got, err, i, ns)
				}
				for i := 0; i < len(enc); i += step {
					got, err := decodeAll(content, enc[:i], hash, g, outboard)
					if !errors.Is(err, ErrTruncated) || !bytes.HasPrefix(content, got) {
						t.Fatalf("G %d, len %d, outboard %v, cut at %d: %v", g, n, outboard, i, err)
					}
				}
				if outboard {
					for i := 0; i < n; i += step * 5 {
						got, err := decodeAll(flipped(content, i), enc, hash, g, true)
						var oe *OffsetError
						if !errors.As(err, &oe) || oe.Offset != uint64(i/group*group) || !bytes.Equal(got, content[:oe.Offset]) {
							t.Fatalf("G %d, len %d, content byte %d flipped: %v, %d bytes out", g, n, i, err, len(got))
						}
					}
					if n > 0 {
						if _, err := decodeAll(content[:n-1], enc, hash, g, true); !errors.Is(err, ErrTruncated) {
							t.Fatalf("short content: %v", err)
						}
					}
					if _, err := decodeAll(append(content, 0), enc, hash, g, true); !errors.Is(err, ErrTrailingData) {
						t.Fatalf("long content: %v", err)
					}
				}
				if _, err := decodeAll(content, append(enc, 0), hash, g, outboard); !errors.Is(err, ErrTrailingData) {
					t.Fatalf("trailing byte: %v", err)
				}
				bad := hash
				bad[31] ^= 1
				if got, err := decodeAll(content, enc, bad, g, outboard); !errors.Is(err, ErrMismatch) || len(got) != 0 {
					t.Fatalf("wrong hash: %v, %d bytes", err, len(got))
				}
			}
		}
	}
}

func TestLargeCorruptions(t *testing.T) {
	// Subtrees verified in one piece must still find the exact node.
	r := rand.New(rand.NewSource(6))
	for _, g := range []int{0, 4} {
		content := randomBytes(r, scaled(1<<20+12345))
		for _, outboard := range []bool{false, true} {
			enc, hash := mustEncode(t, content, g, outboard)
			ns := nodes(uint64(len(content)), g, outboard)
			for rep := 0; rep < 12; rep++ {
				i := HeaderSize + r.Intn(len(enc)-HeaderSize)
				got, err := decodeAll(content, flipped(enc, i), hash, g, outboard)
				checkFailure(t, "flipped byte of a large encoding", content, got, err, i, ns)
			}
		}
	}
}

func TestRoundTripsAndSlices(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, g := range []int{0, 1, 3, 4, 7, 8, 10} {
		group := 1024 << g
		for rep := 0; rep < 6; rep++ {
			n := r.Intn(scaled(minInt(group*(1+r.Intn(20)), 4<<20)))
			if rep == 0 {
				n = 0
			}
			if rep == 1 {
				n = 300<<10 + r.Intn(scaled(3<<20))
			}
			content := randomBytes(r, n)
			enc, hash := mustEncode(t, content, g, false)
			ob, _ := mustEncode(t, content, g, true)
			if size, _ := EncodedSize(uint64(n), g); size != uint64(len(enc)) {
				t.Fatalf("EncodedSize %d, encoding %d", size, len(enc))
			}
			if size, _ := OutboardSize(uint64(n), g); size != uint64(len(ob)) {
				t.Fatalf("OutboardSize %d, outboard %d", size, len(ob))
			}
			// Into buffers holding other bytes before.
			into := randomBytes(r, len(enc))
			if h, err := EncodeInto(into, content, g); err != nil || h != hash || !bytes.Equal(into, enc) {
				t.Fatalf("EncodeInto, G %d, len %d: %v", g, n, err)
			}
			into = randomBytes(r, len(ob))
			if h, err := OutboardInto(into, content, g); err != nil || h != hash || !bytes.Equal(into, ob) {
				t.Fatalf("OutboardInto, G %d, len %d: %v", g, n, err)
			}
			if _, err := EncodeInto(make([]byte, len(enc)+1), content, g); !errors.Is(err, ErrBufferSize) {
				t.Fatalf("EncodeInto a larger buffer: %v", err)
			}
			if _, err := OutboardInto(ob[:len(ob)-1], content, g); !errors.Is(err, ErrBufferSize) {
				t.Fatalf("OutboardInto a smaller buffer: %v", err)
			}
			for _, outboard := range []bool{false, true} {
				e := enc
				if outboard {
					e = ob
				}
				got, err := decodeAll(content, e, hash, g, outboard)
				if err != nil || !bytes.Equal(got, content) {
					t.Fatalf("G %d, len %d, outboard %v: %v", g, n, outboard, err)
				}
			}
			// Small reads go through the decoder's buffer.
			d := NewDecoder(bytes.NewReader(enc), hash, g)
			var out []byte
			buf := make([]byte, 1+r.Intn(5000))
			for {
				k, err := d.Read(buf)
				out = append(out, buf[:k]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(out, content) {
				t.Fatalf("G %d, len %d: small reads", g, n)
			}
			for s := 0; s < 8; s++ {
				start := uint64(r.Intn(n + 2))
				count := uint64(r.Intn(3 * group))
				switch s {
				case 0:
					count = 0
				case 1:
					start = uint64(n) + uint64(r.Intn(5000))
				case 2:
					count = ^uint64(0)
				}
				slice := extract(t, nil, enc, start, count, g, false)
				if !bytes.Equal(extract(t, content, ob, start, count, g, true), slice) {
					t.Fatalf("G %d, len %d, slice %d+%d: outboard extraction differs", g, n, start, count)
				}
				if size, err := SliceSize(uint64(n), start, count, g); err != nil || size != uint64(len(slice)) {
					t.Fatalf("SliceSize %d, slice %d", size, len(slice))
				}
				got, err := decodeSlice(slice, hash, start, count, g)
				if err != nil || !bytes.Equal(got, capped(content, start, count)) {
					t.Fatalf("G %d, len %d, slice %d+%d: %v", g, n, start, count, err)
				}
				if len(slice) > HeaderSize {
					i := HeaderSize + r.Intn(len(slice)-HeaderSize)
					if got, err := decodeSlice(flipped(slice, i), hash, start, count, g); !errors.Is(err, ErrMismatch) || !bytes.HasPrefix(capped(content, start, count), got) {
						t.Fatalf("G %d, len %d, slice %d+%d, byte %d flipped: %v", g, n, start, count, i, err)
					}
					if _, err := decodeSlice(slice[:len(slice)-1], hash, start, count, g); !errors.Is(err, ErrTruncated) {
						t.Fatalf("truncated slice: %v", err)
					}
				}
				if _, err := decodeSlice(append(slice, 1), hash, start, count, g); !errors.Is(err, ErrTrailingData) {
					t.Fatalf("slice with trailing data: %v", err)
				}
			}
		}
	}
}

func TestBadArguments(t *testing.T) {
	for _, g := range []int{-1, 17, 1 << 30} {
		if _, _, err := Encode(nil, g); !errors.Is(err, ErrInvalidGroupLog) {
			t.Errorf("Encode, G %d: %v", g, err)
		}
		if _, err := io.ReadAll(NewDecoder(bytes.NewReader(make([]byte, 8)), [32]byte{}, g)); !errors.Is(err, ErrInvalidGroupLog) {
			t.Errorf("decode, G %d: %v", g, err)
		}
		if _, err := io.ReadAll(NewSliceExtractor(bytes.NewReader(make([]byte, 8)), 0, 1, g)); !errors.Is(err, ErrInvalidGroupLog) {
			t.Errorf("extract, G %d: %v", g, err)
		}
		if _, err := SliceSize(0, 0, 0, g); !errors.Is(err, ErrInvalidGroupLog) {
			t.Errorf("SliceSize, G %d: %v", g, err)
		}
	}
	// Forged lengths: errors, not allocations of the claimed size.
	for _, n := range []uint64{1 << 40, 1<<63 + 5, ^uint64(0)} {
		var h [8]byte
		binary.LittleEndian.PutUint64(h[:], n)
		enc := append(h[:], make([]byte, 200)...)
		for _, g := range []int{0, 16} {
			if _, err := decodeAll(nil, enc, [32]byte{}, g, false); err == nil {
				t.Errorf("forged length %d, G %d: no error", n, g)
			}
			if _, err := io.ReadAll(NewSliceExtractor(bytes.NewReader(enc), n-1, 10, g)); err == nil {
				t.Errorf("extract from forged length %d: no error", n)
			}
		}
	}
	if _, err := EncodedSize(^uint64(0), 0); !errors.Is(err, ErrLengthOverflow) {
		t.Errorf("EncodedSize(2^64-1): %v", err)
	}
}

func TestErrorsStay(t *testing.T) {
	content := randomBytes(rand.New(rand.NewSource(13)), 5000)
	enc, hash := mustEncode(t, content, 0, false)
	d := NewDecoder(bytes.NewReader(flipped(enc, len(enc)-1)), hash, 0)
	got, err := io.ReadAll(d)
	if !errors.Is(err, ErrMismatch) || !bytes.Equal(got, content[:4096]) {
		t.Fatalf("%v, %d bytes", err, len(got))
	}
	for i := 0; i < 2; i++ {
		if n, again := d.Read(make([]byte, 10)); n != 0 || again != err {
			t.Fatalf("read after the error: %d, %v", n, again)
		}
	}
	d = NewDecoder(bytes.NewReader(enc), hash, 0)
	if got, err := io.ReadAll(d); err != nil || !bytes.Equal(got, content) {
		t.Fatal(err)
	}
	if n, err := d.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Fatalf("read after the end: %d, %v", n, err)
	}
}
