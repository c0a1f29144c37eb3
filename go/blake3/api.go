// Package blake3 implements the BLAKE3 hash function with SSE4.1, AVX2 and
// AVX-512VL assembly chosen at run time on amd64 and a pure Go fallback (build tag
// purego, or any other architecture).
//
// The API follows github.com/zeebo/blake3, so switching is a change of import
// path. SumMany hashes many independent messages across the SIMD lanes.
package blake3

import (
	"errors"
	"unsafe"
)

// Hasher is a hash.Hash for BLAKE3 with a 32-byte default output. Digest
// gives access to the extended output.
type Hasher struct {
	size    int
	workers int // see SetParallel
	h       hasher
}

// New returns a Hasher for the default (unkeyed) mode.
func New() *Hasher {
	return &Hasher{size: 32, h: hasher{tree: tree{key: iv}}}
}

// NewKeyed returns a Hasher for the keyed mode. The key must be KeySize bytes.
func NewKeyed(key []byte) (*Hasher, error) {
	if len(key) != KeySize {
		return nil, errors.New("blake3: key must be 32 bytes")
	}
	h := &Hasher{size: 32, h: hasher{tree: tree{flags: flagKeyedHash}}}
	bytesToWords(key, h.h.key[:])
	return h, nil
}

// NewDeriveKey returns a Hasher for the key derivation mode with the given
// context string; write the key material to it.
//
// Context strings should be hardcoded, globally unique and application
// specific, e.g. "example.com 2019-12-25 16:18:03 session tokens v1".
func NewDeriveKey(context string) *Hasher {
	ch := &Hasher{size: 32, h: hasher{tree: tree{key: iv, flags: flagDeriveKeyContext}}}
	_, _ = ch.WriteString(context)
	var ctxKey [32]byte
	_, _ = ch.Digest().Read(ctxKey[:])
	h := &Hasher{size: 32, h: hasher{tree: tree{flags: flagDeriveKeyMaterial}}}
	bytesToWords(ctxKey[:], h.h.key[:])
	return h
}

// DeriveKey derives len(out) bytes of key from material in the given context.
func DeriveKey(context string, material []byte, out []byte) {
	h := NewDeriveKey(context)
	_, _ = h.Write(material)
	_, _ = h.Digest().Read(out)
}

// Write adds p to the hashed input. It never returns an error.
func (h *Hasher) Write(p []byte) (int, error) {
	if b := h.h.bufLen; len(p) < bufSize-b {
		// Fast path: the buffer does not fill up, nothing to hash yet.
		h.h.bufLen = b + copy(h.h.buf[b:], p)
		return len(p), nil
	}
	if h.workers > 1 && len(p) >= ParallelMin {
		h.h.updateParallel(p, h.workers)
		return len(p), nil
	}
	h.h.update(p)
	return len(p), nil
}

// WriteString is Write for a string, without a copy: the kernels only read
// their input.
func (h *Hasher) WriteString(s string) (int, error) {
	return h.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Reset returns the Hasher to its state after construction (same key and mode).
func (h *Hasher) Reset() { h.h.reset() }

// Clone returns an independent copy of the Hasher.
func (h *Hasher) Clone() *Hasher {
	c := *h
	return &c
}

// Size returns the number of bytes Sum appends (32).
func (h *Hasher) Size() int { return h.size }

// BlockSize returns the compression block size (64).
func (h *Hasher) BlockSize() int { return BlockSize }

// Sum appends the hash of the input written so far to b. It does not change
// the Hasher's state.
func (h *Hasher) Sum(b []byte) []byte {
	var block [BlockSize]byte
	if t := &h.h; t.counter == 0 && t.npending == 0 && t.bufLen <= ChunkSize {
		chunkRoot(t.buf[:t.bufLen], &t.key, t.flags, &block)
	} else {
		var out output
		t.rootOutput(&out)
		out.rootBlock(0, &block)
	}
	return append(b, block[:h.size]...)
}

// Digest returns a reader over the extended output (up to 2^64 bytes) of
// the input written so far. The Hasher may be used further afterwards.
func (h *Hasher) Digest() *Digest {
	d := &Digest{}
	h.h.rootOutput(&d.out)
	return d
}

// Sum256 returns the 32-byte BLAKE3 hash of data.
func Sum256(data []byte) [32]byte {
	var out [BlockSize]byte
	sumBlock(data, &out)
	return [32]byte(out[:32])
}

// Sum512 returns the first 64 bytes of the extended BLAKE3 output of data.
func Sum512(data []byte) (sum [64]byte) {
	sumBlock(data, &sum)
	return sum
}

// sumBlock writes the first output block of the unkeyed hash of data to out.
func sumBlock(data []byte, out *[BlockSize]byte) {
	if len(data) > ChunkSize {
		var o output
		sumOutput(&o, data)
		o.rootBlock(0, out)
		return
	}
	chunkRoot(data, &iv, 0, out)
}

// chunkRoot writes the first output block of a message of at most one
// chunk, which is the root, to out: the last block is compressed straight
// into the output.
func chunkRoot(data []byte, key *[8]uint32, flags uint32, out *[BlockSize]byte) {
	cv := *key
	last, start := chunkHead(&cv, data, 0, flags)
	flags |= start | flagChunkEnd | flagRoot
	if len(last) == BlockSize {
		// A full last block is compressed in place, without the copy.
		compress(&cv, (*[BlockSize]byte)(last), 0, BlockSize, flags, out)
		return
	}
	var block [BlockSize]byte
	copy(block[:], last)
	compress(&cv, &block, 0, uint32(len(last)), flags, out)
}

// sumOutput sets o to the root output of a message longer than one chunk,
// hashed in place without the Hasher's buffer.
func sumOutput(o *output, data []byte) {
	switch {
	case len(data) > maxSubtreeChunks*ChunkSize:
		sumLong(o, data)
	case len(data) <= bufSize:
		// Scratch sized to the input: zeroing 2 KiB is 1-2 % of a 4 KiB hash.
		var cvs [maxLanes][8]uint32
		tailOutput(o, data, 0, &iv, 0, cvs[:])
	default:
		var cvs [maxSubtreeChunks][8]uint32
		tailOutput(o, data, 0, &iv, 0, cvs[:])
	}
}

// sumLong sets o to the root output of a message longer than
// maxSubtreeChunks chunks. Each piece of maxSubtreeChunks chunks is reduced
// to the CVs of its groups of groupChunks chunks, gathered in top for up to
// topChunks chunks: the upper parent levels then run over a whole top at
// once, with full lane batches where a piece on its own would end in
// half-empty 4- and 2-parent levels. A full top goes onto the stack as one
// subtree (more input follows); the last piece, at most maxSubtreeChunks
// chunks, ends the last top, which is the root's right subtree.
func sumLong(o *output, data []byte) {
	const piece = maxSubtreeChunks * ChunkSize
	t := tree{key: iv}
	var top [topChunks / groupChunks][8]uint32
	var cvs [maxSubtreeChunks][8]uint32
	n := 0 // CVs in top
	for len(data) > piece {
		chunkCVs(data[:piece], t.counter+uint64(n*groupChunks), &iv, 0, cvs[:])
		n += copy(top[n:], cvs[:reduceCVs(cvs[:], maxSubtreeChunks/groupChunks, &iv, 0)])
		data = data[piece:]
		if n == len(top) {
			reduceCVs(top[:], 1, &iv, 0)
			t.pushSubtree(&top[0], topChunks)
			n = 0
		}
	}
	counter := t.counter + uint64(n*groupChunks)
	if n == 0 {
		tailOutput(o, data, counter, &iv, 0, cvs[:])
	} else {
		// Groups of the tail, the last maybe partial, continue the top.
		k := tailCVs(data, counter, &iv, 0, cvs[:])
		n += copy(top[n:], cvs[:reduceCVs(cvs[:k], (k+groupChunks-1)/groupChunks, &iv, 0)])
		reduceCVs(top[:n], 2, &iv, 0)
		o.setParent(&top[0], &top[1], &iv, 0)
	}
	foldStack(o, t.stack[:t.stackLen], &iv, 0)
}
