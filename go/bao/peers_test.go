package bao

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	lukebao "lukechampine.com/blake3/bao"
)

// TestLukechampine compares with lukechampine.com/blake3/bao, whose groups
// are ours: encodings, outboards and slices byte for byte, and each side
// decodes the other's.
func TestLukechampine(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for g := 0; g <= 9; g++ {
		group := 1024 << g
		for rep := 0; rep < 5; rep++ {
			n := r.Intn(scaled(group * (1 + r.Intn(12))))
			if rep == 0 {
				n = group*4 + 1
			}
			content := randomBytes(r, n)
			for _, outboard := range []bool{false, true} {
				want, wantHash := lukebao.EncodeBuf(content, g, outboard)
				got, hash := mustEncode(t, content, g, outboard)
				if hash != wantHash || !bytes.Equal(got, want) {
					t.Fatalf("G %d, len %d, outboard %v: encodings differ", g, n, outboard)
				}
				var data, ob []byte
				if outboard {
					data, ob = content, got
				} else {
					data = got
				}
				if !lukebao.VerifyBuf(data, ob, g, hash) {
					t.Fatalf("G %d, len %d: lukechampine rejects ours", g, n)
				}
				if dec, err := decodeAll(content, want, hash, g, outboard); err != nil || !bytes.Equal(dec, content) {
					t.Fatalf("G %d, len %d: ours rejects lukechampine's: %v", g, n, err)
				}
			}
			if n == 0 {
				continue
			}
			enc, hash := mustEncode(t, content, g, false)
			for s := 0; s < 4; s++ {
				// lukechampine's slices: non-empty and within the content.
				start := uint64(r.Intn(n))
				count := 1 + uint64(r.Intn(n-int(start)))
				var want bytes.Buffer
				if err := lukebao.ExtractSlice(&want, bytes.NewReader(enc), nil, g, start, count); err != nil {
					t.Fatal(err)
				}
				slice := extract(t, nil, enc, start, count, g, false)
				if !bytes.Equal(slice, want.Bytes()) {
					t.Fatalf("G %d, len %d, slice %d+%d differs", g, n, start, count)
				}
				if dec, ok := lukebao.VerifySlice(slice, g, start, count, hash); !ok || !bytes.Equal(dec, content[start:start+count]) {
					t.Fatalf("G %d, len %d: lukechampine rejects our slice %d+%d", g, n, start, count)
				}
			}
		}
	}
}

// arbor returns the path of the arbor command, built in the repository
// (ARBOR names another); the test fails without it.
func arbor(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ARBOR"); p != "" {
		return p
	}
	for _, p := range []string{"../../target/release/arbor", "../../target/debug/arbor"} {
		if _, err := os.Stat(p); err == nil {
			abs, err := filepath.Abs(p)
			if err != nil {
				t.Fatal(err)
			}
			return abs
		}
	}
	t.Fatal("arbor not found: build it with `cargo build -p arbor` (or set ARBOR)")
	return ""
}

// TestArborCLI compares with `arbor bao` for every group log: encodings,
// outboards and slices byte for byte, and the slices it decodes.
func TestArborCLI(t *testing.T) {
	bin := arbor(t)
	dir := t.TempDir()
	run := func(args ...string) []byte {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("arbor %v: %v", args, err)
		}
		return out
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r := rand.New(rand.NewSource(9))
	maxLen := 64<<20 + 1
	if emulated {
		maxLen = 256 << 10
	}
	for g := 0; g <= MaxGroupLog; g++ {
		group := 1024 << g
		lengths := []int{0, 1, group, group + 1, r.Intn(2 << 20)}
		if g > 10 {
			// Groups of 2 MiB and more: two leaves, at two sizes.
			lengths = []int{0, 1}
			if g == 12 || g == MaxGroupLog {
				lengths = append(lengths, group+1)
			}
		}
		for _, n := range lengths {
			if n > maxLen {
				continue
			}
			content := randomBytes(r, n)
			in := filepath.Join(dir, "in")
			if err := os.WriteFile(in, content, 0o600); err != nil {
				t.Fatal(err)
			}
			gl := "--group-log=" + strconv.Itoa(g)
			run("bao", "encode", gl, in, filepath.Join(dir, "enc"))
			run("bao", "encode", gl, in, "--outboard", filepath.Join(dir, "ob"))
			enc, hash := mustEncode(t, content, g, false)
			ob, _ := mustEncode(t, content, g, true)
			what := fmt.Sprintf("G %d, len %d", g, n)
			if !bytes.Equal(read("enc"), enc) {
				t.Fatalf("%s: encodings differ", what)
			}
			if !bytes.Equal(read("ob"), ob) {
				t.Fatalf("%s: outboards differ", what)
			}
			for s := 0; s < 3; s++ {
				start := uint64(r.Intn(n + 2))
				count := uint64(r.Intn(2*group + 1))
				slice := run("bao", "slice", gl, strconv.FormatUint(start, 10), strconv.FormatUint(count, 10), filepath.Join(dir, "enc"))
				if !bytes.Equal(slice, extract(t, nil, enc, start, count, g, false)) {
					t.Fatalf("%s: slice %d+%d differs", what, start, count)
				}
				if err := os.WriteFile(filepath.Join(dir, "slice"), slice, 0o600); err != nil {
					t.Fatal(err)
				}
				dec := run("bao", "decode-slice", gl, fmt.Sprintf("%x", hash), strconv.FormatUint(start, 10), strconv.FormatUint(count, 10), filepath.Join(dir, "slice"))
				if got, err := decodeSlice(slice, hash, start, count, g); err != nil || !bytes.Equal(got, dec) {
					t.Fatalf("%s: slice %d+%d decodes differently: %v", what, start, count, err)
				}
			}
		}
	}
}
