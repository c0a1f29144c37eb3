package tz

import (
	"bytes"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"math/rand"
	"testing"

	ref "github.com/nspcc-dev/tzhash/tz"

	"github.com/arborhash/arborhash/go/internal/testvectors"
)

var pattern = testvectors.Mod251

func TestPublishedVectors(t *testing.T) {
	data := testvectors.Read(t, "tz.json")
	var v struct {
		Cases []struct {
			Input    *string `json:"input"`
			Pattern  string  `json:"pattern"`
			InputLen int     `json:"input_len"`
			Hash     string  `json:"hash"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) == 0 {
		t.Fatal("no cases")
	}
	forEachBackend(t, func(t *testing.T) {
		for _, c := range v.Cases {
			in := pattern(c.InputLen)
			if c.Input != nil {
				var err error
				if in, err = hex.DecodeString(*c.Input); err != nil {
					t.Fatal(err)
				}
			}
			s := Sum(in)
			if hex.EncodeToString(s[:]) != c.Hash {
				t.Fatalf("len %d: got %x want %s", len(in), s, c.Hash)
			}
			h := New()
			for i := range in {
				_, _ = h.Write(in[i : i+1])
			}
			if hex.EncodeToString(h.Sum(nil)) != c.Hash {
				t.Fatalf("len %d: byte-wise writes differ", len(in))
			}
		}
	})
}

func TestDifferentialTzhash(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		r := rand.New(rand.NewSource(3))
		for iter := 0; iter < 60; iter++ {
			in := make([]byte, r.Intn(3000))
			r.Read(in)
			want := ref.Sum(in)
			if got := Sum(in); got != want {
				t.Fatalf("len %d: Sum differs", len(in))
			}
			h, rh := New(), ref.New()
			for rest := in; len(rest) > 0; {
				n := r.Intn(len(rest) + 1)
				_, _ = h.Write(rest[:n])
				_, _ = rh.Write(rest[:n])
				rest = rest[n:]
				if r.Intn(4) == 0 && !bytes.Equal(h.Sum(nil), rh.Sum(nil)) {
					t.Fatalf("len %d: intermediate Sum differs", len(in))
				}
			}
			if !bytes.Equal(h.Sum(nil), want[:]) {
				t.Fatalf("len %d: streaming differs", len(in))
			}
		}
	})
}

func TestAlgebra(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for iter := 0; iter < 20; iter++ {
		a := make([]byte, r.Intn(500))
		b := make([]byte, r.Intn(500))
		r.Read(a)
		r.Read(b)
		ha, hb, hab := Sum(a), Sum(b), Sum(append(append([]byte{}, a...), b...))
		c, err := Concat([][]byte{ha[:], hb[:]})
		if err != nil || !bytes.Equal(c, hab[:]) {
			t.Fatalf("Concat: %v", err)
		}
		rc, _ := ref.Concat([][]byte{ha[:], hb[:]})
		if !bytes.Equal(rc, c) {
			t.Fatal("Concat differs from tzhash")
		}
		if ok, err := Validate(hab[:], [][]byte{ha[:], hb[:]}); !ok || err != nil {
			t.Fatalf("Validate: %v %v", ok, err)
		}
		if ok, _ := Validate(hab[:], [][]byte{hb[:], ha[:]}); ok && !bytes.Equal(ha[:], hb[:]) {
			t.Fatal("Validate accepted swapped parts")
		}
		if got, err := SubtractR(hab[:], hb[:]); err != nil || !bytes.Equal(got, ha[:]) {
			t.Fatalf("SubtractR: %v", err)
		}
		if got, err := SubtractL(hab[:], ha[:]); err != nil || !bytes.Equal(got, hb[:]) {
			t.Fatalf("SubtractL: %v", err)
		}
		// Arbitrary matrices (determinant not 1) match tzhash as well.
		x, y := make([]byte, Size), make([]byte, Size)
		r.Read(x)
		r.Read(y)
		for i := 0; i < Size; i += 16 {
			x[i] &= 0x7f
			y[i] &= 0x7f
		}
		want, _ := ref.SubtractR(x, y)
		if got, err := SubtractR(x, y); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("SubtractR on arbitrary matrices: %v", err)
		}
		want, _ = ref.SubtractL(x, y)
		if got, err := SubtractL(x, y); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("SubtractL on arbitrary matrices: %v", err)
		}
	}
	// Singular matrices have no inverse: tzhash does not return then.
	h := Sum([]byte("abc"))
	for _, singular := range [][Size]byte{
		{},                           // zero
		{15: 1, 31: 1, 47: 1, 63: 1}, // [[1,1],[1,1]]
		{15: 2, 31: 6, 47: 1, 63: 3}, // [[x,x^2+x],[1,x+1]]: x^2+x = (x^2+x)·1
	} {
		if _, err := SubtractR(h[:], singular[:]); err == nil {
			t.Fatalf("SubtractR by singular %x accepted", singular)
		}
		if _, err := SubtractL(h[:], singular[:]); err == nil {
			t.Fatalf("SubtractL by singular %x accepted", singular)
		}
	}
	if _, err := Concat([][]byte{make([]byte, 63)}); err == nil {
		t.Fatal("63-byte hash accepted")
	}
	bad := make([]byte, Size)
	bad[16] = 0x80
	if _, err := Concat([][]byte{bad}); err == nil {
		t.Fatal("element with MSB set accepted")
	}
	if _, err := Validate(bad[:10], [][]byte{bad}); err == nil {
		t.Fatal("short hash accepted by Validate")
	}
	if _, err := Validate(bad, nil); err == nil {
		t.Fatal("empty parts accepted by Validate")
	}
	if New().Size() != Size || New().BlockSize() != 128 {
		t.Fatal("Size/BlockSize")
	}
}

func FuzzTZ(f *testing.F) {
	f.Add([]byte("abc"), uint16(1))
	f.Add(pattern(300), uint16(77))
	f.Fuzz(func(t *testing.T, in []byte, split uint16) {
		s := int(split) % (len(in) + 1)
		h := New()
		_, _ = h.Write(in[:s])
		_, _ = h.Write(in[s:])
		want := ref.Sum(in)
		if !bytes.Equal(h.Sum(nil), want[:]) {
			t.Fatalf("len %d split %d", len(in), s)
		}
		// Homomorphism: H(a||b) = H(a)·H(b).
		ha, hb := Sum(in[:s]), Sum(in[s:])
		c, err := Concat([][]byte{ha[:], hb[:]})
		if err != nil || !bytes.Equal(c, want[:]) {
			t.Fatalf("Concat at split %d", s)
		}
	})
}

func TestMarshalBinary(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		in := pattern(1001)
		for _, split := range []int{0, 1, 2, 500, 1000} {
			h, rh := New(), ref.New()
			_, _ = h.Write(in[:split])
			_, _ = rh.Write(in[:split])
			st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := rh.(encoding.BinaryMarshaler).MarshalBinary()
			if !bytes.Equal(st, want) {
				t.Fatalf("split %d: state differs from tzhash", split)
			}
			h2 := New()
			if err := h2.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
				t.Fatal(err)
			}
			_, _ = h2.Write(in[split:])
			if w := ref.Sum(in); !bytes.Equal(h2.Sum(nil), w[:]) {
				t.Fatalf("split %d: hash after UnmarshalBinary differs", split)
			}
		}
		if err := New().(encoding.BinaryUnmarshaler).UnmarshalBinary(make([]byte, 10)); err == nil {
			t.Fatal("short state accepted")
		}
	})
}
