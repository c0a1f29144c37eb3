// Package blake3 is BLAKE3 with the API of lukechampine.com/blake3's root
// package, so that switching is a change of import path, built on the
// kernels of github.com/arborhash/arborhash/go/blake3.
//
// As lukechampine.com/blake3 v1.4 does, large inputs are hashed on several
// goroutines: Sum256, Sum512 and a Hasher's writes of at least
// ParallelMin bytes use up to GOMAXPROCS of them. Hasher.SetParallel
// limits a Hasher (1 switches it off); limiting GOMAXPROCS limits all.
package blake3

import (
	"errors"
	"hash"
	"io"
	"math"
	"runtime"

	arbor "github.com/arborhash/arborhash/go/blake3"
	"github.com/arborhash/arborhash/go/internal/digestpos"
)

// ParallelMin is the smallest input hashed on several goroutines.
const ParallelMin = arbor.ParallelMin

// Hasher implements hash.Hash. A copy of a Hasher (h2 := *h) is an
// independent Hasher with the same state.
type Hasher struct {
	h    arbor.Hasher
	size int
}

// New returns a Hasher for the specified digest size and key. If key is nil,
// the hash is unkeyed. Otherwise, len(key) must be 32 (New panics
// otherwise, as it does for a negative size).
func New(size int, key []byte) *Hasher {
	if size < 0 {
		panic("blake3: negative digest size")
	}
	h := &Hasher{size: size}
	if key == nil {
		h.h = *arbor.New()
	} else {
		k, err := arbor.NewKeyed(key)
		if err != nil {
			panic(err.Error())
		}
		h.h = *k
	}
	h.h.SetParallel(runtime.GOMAXPROCS(0))
	return h
}

// SetParallel limits the goroutines that hash one large write to n (n <= 1:
// the caller's alone). New sets GOMAXPROCS.
func (h *Hasher) SetParallel(n int) { h.h.SetParallel(n) }

// Write implements hash.Hash. It never returns an error.
func (h *Hasher) Write(p []byte) (int, error) { return h.h.Write(p) }

// Sum implements hash.Hash: it appends h.Size() bytes of output to b.
func (h *Hasher) Sum(b []byte) []byte {
	if h.size <= 32 {
		var sum [32]byte
		return append(b, h.h.Sum(sum[:0])[:h.size]...)
	}
	n := len(b)
	b = append(b, make([]byte, h.size)...)
	_, _ = h.h.Digest().Read(b[n:])
	return b
}

// Reset implements hash.Hash.
func (h *Hasher) Reset() { h.h.Reset() }

// BlockSize implements hash.Hash.
func (h *Hasher) BlockSize() int { return 64 }

// Size implements hash.Hash.
func (h *Hasher) Size() int { return h.size }

// XOF returns an OutputReader initialized with the current hash state.
func (h *Hasher) XOF() *OutputReader {
	return &OutputReader{d: h.h.Digest()}
}

var _ hash.Hash = (*Hasher)(nil)

// Sum256 returns the unkeyed BLAKE3 hash of b, truncated to 256 bits.
func Sum256(b []byte) [32]byte {
	if len(b) < ParallelMin || runtime.GOMAXPROCS(0) == 1 {
		return arbor.Sum256(b)
	}
	var sum [32]byte
	h := New(32, nil)
	_, _ = h.Write(b)
	h.Sum(sum[:0])
	return sum
}

// Sum512 returns the unkeyed BLAKE3 hash of b, truncated to 512 bits.
func Sum512(b []byte) (sum [64]byte) {
	if len(b) < ParallelMin || runtime.GOMAXPROCS(0) == 1 {
		return arbor.Sum512(b)
	}
	h := New(64, nil)
	_, _ = h.Write(b)
	_, _ = h.h.Digest().Read(sum[:])
	return sum
}

// DeriveKey derives a subkey from ctx and srcKey, filling subKey. ctx should
// be hardcoded, globally unique, and application-specific, e.g.
// "example.com 2019-12-25 16:18:03 session tokens v1".
func DeriveKey(subKey []byte, ctx string, srcKey []byte) {
	arbor.DeriveKey(ctx, srcKey, subKey)
}

// An OutputReader produces a seekable stream of 2^64 - 1 pseudorandom output
// bytes.
type OutputReader struct {
	d   *arbor.Digest
	off uint64
}

// Read implements io.Reader. It returns len(p), nil unless the read would
// extend beyond the end of the stream.
func (or *OutputReader) Read(p []byte) (int, error) {
	if or.off == math.MaxUint64 {
		return 0, io.EOF
	}
	if rem := math.MaxUint64 - or.off; uint64(len(p)) > rem {
		p = p[:rem]
	}
	n, _ := or.d.Read(p)
	or.off += uint64(n)
	return n, nil
}

// Seek implements io.Seeker. Offsets from io.SeekEnd count back from the
// stream's end at 2^64 - 1; positions from 2^63 on are returned as negative
// numbers. An invalid whence panics, as in lukechampine.com/blake3.
func (or *OutputReader) Seek(offset int64, whence int) (int64, error) {
	off := or.off
	switch whence {
	case io.SeekStart:
		if offset < 0 {
			return 0, errors.New("seek position cannot be negative")
		}
		off = uint64(offset)
	case io.SeekCurrent:
		if offset < 0 && uint64(-offset) > off {
			return 0, errors.New("seek position cannot be negative")
		}
		off += uint64(offset)
	case io.SeekEnd:
		off = uint64(offset) - 1
	default:
		panic("invalid whence")
	}
	or.off = off
	digestpos.Set(or.d, off)
	return int64(off), nil
}
