// Package bao implements Bao, BLAKE3's verified streaming: an encoding of
// some content lets a receiver check every piece of it as it arrives, or any
// slice of it, against the content's 32-byte BLAKE3 hash alone. The formats
// are byte for byte those of the Rust library arborhash and `arbor bao`,
// which generalise the Bao spec to chunk groups.
//
// With group log G a leaf of the tree is a group of 2^G chunks (1024<<G
// bytes, the last possibly shorter) instead of one chunk; G = 0 is standard
// Bao. A node over more than one group has a left child of the largest power
// of two of whole groups that leaves at least one byte for the right child,
// which is BLAKE3's own split, so the root hash is the content's BLAKE3 hash
// for every G.
//
//   - The combined encoding is the content length (8 bytes, little-endian),
//     then the tree in pre-order: a parent (64 bytes, its children's chaining
//     values), its left subtree, its right subtree; leaves are content.
//   - The outboard encoding is the same without the content.
//   - A slice of count bytes from start is the header and every node of the
//     combined encoding whose content overlaps [start, start+max(count, 1));
//     a start at or past the end selects the final leaf instead (which
//     proves the length), and ranges past the end are capped.
//
// Decoders release only verified bytes; a failure is an *OffsetError naming
// the content offset of the node that failed, after every byte verified
// before it.
package bao

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/arborhash/arborhash/go/blake3"
)

const (
	// HeaderSize is the length header at the start of every encoding and slice.
	HeaderSize = 8
	// ParentSize is the size of a parent node: two chaining values.
	ParentSize = 64
	// MaxGroupLog is the largest group log: 64 MiB leaves, which a decoder
	// buffers whole.
	MaxGroupLog = 16
)

// Errors; those of a node come wrapped in an *OffsetError. Test with errors.Is.
var (
	ErrTruncated       = errors.New("bao: the encoding is truncated")
	ErrMismatch        = errors.New("bao: verification failed (corrupt encoding or wrong hash)")
	ErrTrailingData    = errors.New("bao: unexpected data after the end of the encoding")
	ErrLengthOverflow  = errors.New("bao: the encoded length is impossibly large")
	ErrInvalidGroupLog = errors.New("bao: group log out of range (0 to 16)")
)

// OffsetError is a failure at the node whose content starts at Offset.
type OffsetError struct {
	Err    error // ErrTruncated or ErrMismatch
	Offset uint64
}

func (e *OffsetError) Error() string {
	return fmt.Sprintf("%v, at the node for content offset %d", e.Err, e.Offset)
}

func (e *OffsetError) Unwrap() error { return e.Err }

// layout is the shape of an encoding's tree.
type layout struct {
	groupLen uint64
	outboard bool
}

func newLayout(groupLog int, outboard bool) (layout, error) {
	if groupLog < 0 || groupLog > MaxGroupLog {
		return layout{}, fmt.Errorf("%w: %d", ErrInvalidGroupLog, groupLog)
	}
	return layout{groupLen: blake3.ChunkSize << groupLog, outboard: outboard}, nil
}

func (l layout) isLeaf(n uint64) bool { return n <= l.groupLen }

// leaves is the number of leaves of content of n bytes (an empty content is
// one empty leaf).
func (l layout) leaves(n uint64) uint64 {
	if n == 0 {
		return 1
	}
	return (n-1)/l.groupLen + 1
}

// size is the encoded size of a subtree over n bytes, without the header;
// false if it exceeds a uint64 with the header.
func (l layout) size(n uint64) (uint64, bool) {
	s := (l.leaves(n) - 1) * ParentSize // at most 2^54 parents: no overflow
	if !l.outboard {
		if n > math.MaxUint64-HeaderSize-s {
			return 0, false
		}
		s += n
	}
	return s, true
}

// split is the content length of the left child of a parent over n bytes.
func split(n uint64) uint64 {
	left, _ := blake3.LeftSubtreeLen(n) // n > groupLen >= ChunkSize
	return left
}

// EncodedSize returns the size of the combined encoding of n bytes of
// content.
func EncodedSize(n uint64, groupLog int) (uint64, error) {
	return encodingSize(n, groupLog, false)
}

// OutboardSize returns the size of the outboard encoding of n bytes of
// content.
func OutboardSize(n uint64, groupLog int) (uint64, error) {
	return encodingSize(n, groupLog, true)
}

func encodingSize(n uint64, groupLog int, outboard bool) (uint64, error) {
	l, err := newLayout(groupLog, outboard)
	if err != nil {
		return 0, err
	}
	s, ok := l.size(n)
	if !ok {
		return 0, ErrLengthOverflow
	}
	return s + HeaderSize, nil
}

// Encode returns the combined encoding of content and its hash.
func Encode(content []byte, groupLog int) ([]byte, [32]byte, error) {
	return encode(content, groupLog, false)
}

// Outboard returns the outboard encoding of content and its hash.
func Outboard(content []byte, groupLog int) ([]byte, [32]byte, error) {
	return encode(content, groupLog, true)
}

// EncodeInto writes the combined encoding of content into dst, which must
// be exactly EncodedSize long, and returns the hash. Into a buffer used
// before it saves the page faults of a new one.
func EncodeInto(dst, content []byte, groupLog int) ([32]byte, error) {
	return encodeInto(dst, content, groupLog, false)
}

// OutboardInto writes the outboard encoding of content into dst, which must
// be exactly OutboardSize long, and returns the hash.
func OutboardInto(dst, content []byte, groupLog int) ([32]byte, error) {
	return encodeInto(dst, content, groupLog, true)
}

// ErrBufferSize is the error of EncodeInto and OutboardInto for a buffer
// of another size than the encoding's.
var ErrBufferSize = errors.New("bao: the buffer is not the encoding's size")

func encode(content []byte, groupLog int, outboard bool) ([]byte, [32]byte, error) {
	size, err := encodingSize(uint64(len(content)), groupLog, outboard)
	if err != nil {
		return nil, [32]byte{}, err
	}
	dst := make([]byte, size)
	hash, err := encodeInto(dst, content, groupLog, outboard)
	return dst, hash, err
}

func encodeInto(dst, content []byte, groupLog int, outboard bool) ([32]byte, error) {
	size, err := encodingSize(uint64(len(content)), groupLog, outboard)
	if err != nil {
		return [32]byte{}, err
	}
	if uint64(len(dst)) != size {
		return [32]byte{}, fmt.Errorf("%w: %d bytes for %d", ErrBufferSize, len(dst), size)
	}
	binary.LittleEndian.PutUint64(dst, uint64(len(content)))
	l, _ := newLayout(groupLog, outboard)
	return newTreeHasher(l).root(dst[HeaderSize:], content), nil
}

// batchLen bounds the subtrees that are hashed level by level across the
// SIMD lanes, and that a decoder reads and verifies in one piece.
const batchLen = 256 << 10

// treeHasher writes encodings (or their parents alone, to check them) of
// content in memory.
type treeHasher struct {
	layout
	// levels[h] holds the chaining values of the nodes of a batch h levels
	// above its leaves.
	levels [][]blake3.ChainingValue
}

func newTreeHasher(l layout) *treeHasher {
	t := &treeHasher{layout: l}
	for n := l.leaves(batchLen); n > 0; n /= 2 {
		t.levels = append(t.levels, make([]blake3.ChainingValue, n+1))
	}
	return t
}

// root writes the encoding of content (the whole content) into dst, which
// holds exactly its size, and returns the root hash.
func (t *treeHasher) root(dst, content []byte) [32]byte {
	if t.isLeaf(uint64(len(content))) {
		copy(dst, content)
		return blake3.Sum256(content)
	}
	l, r := t.children(dst, 0, content)
	return blake3.MergeSubtreesRoot(l, r, blake3.HashMode())
}

// cv writes the encoding of the subtree over content, which starts at
// offset, into dst and returns its chaining value.
func (t *treeHasher) cv(dst []byte, offset uint64, content []byte) blake3.ChainingValue {
	if t.isLeaf(uint64(len(content))) {
		copy(dst, content)
		cv, _ := blake3.HashSubtree(blake3.HashMode(), offset, content)
		return cv
	}
	l, r := t.children(dst, offset, content)
	return blake3.MergeSubtreesNonRoot(l, r, blake3.HashMode())
}

// children writes the encoding of the parent over content (more than one
// group) into dst and returns its children's chaining values.
func (t *treeHasher) children(dst []byte, offset uint64, content []byte) (l, r blake3.ChainingValue) {
	n := uint64(len(content))
	if n <= batchLen {
		return t.batch(dst, offset, content)
	}
	left := split(n)
	ls, _ := t.size(left)
	l = t.cv(dst[ParentSize:ParentSize+ls], offset, content[:left])
	r = t.cv(dst[ParentSize+ls:], offset+left, content[left:])
	copy(dst, l[:])
	copy(dst[32:], r[:])
	return l, r
}

// batch is children for content of at most batchLen bytes: the leaves'
// chaining values side by side, then each level of parents at once, then
// the nodes written out in pre-order.
func (t *treeHasher) batch(dst []byte, offset uint64, content []byte) (l, r blake3.ChainingValue) {
	leaves := t.leaves(uint64(len(content)))
	lv := t.levels
	_ = blake3.HashSubtrees(blake3.HashMode(), offset, content, t.groupLen, lv[0][:leaves])
	h, k := 0, int(leaves)
	for ; k > 2; h++ {
		pairs := k / 2
		_ = blake3.MergeSubtreePairs(blake3.HashMode(), lv[h][:2*pairs], lv[h+1][:pairs])
		if k%2 == 1 {
			lv[h+1][pairs] = lv[h][k-1]
		}
		k = (k + 1) / 2
	}
	w := batchWriter{t: t, dst: dst, content: content, leaves: leaves}
	w.parent(h, 0)
	return lv[h][0], lv[h][1]
}

type batchWriter struct {
	t       *treeHasher
	dst     []byte
	content []byte
	leaves  uint64
	pos     int
}

// parent writes the parent whose children are nodes 2i and 2i+1 of level h
// of the batch, and its subtrees.
func (w *batchWriter) parent(h, i int) {
	copy(w.dst[w.pos:], w.t.levels[h][2*i][:])
	copy(w.dst[w.pos+32:], w.t.levels[h][2*i+1][:])
	w.pos += ParentSize
	w.node(h, 2*i)
	w.node(h, 2*i+1)
}

// node writes node i of level h (over leaves i<<h up to the batch's end).
func (w *batchWriter) node(h, i int) {
	first := uint64(i) << h
	if h == 0 {
		if !w.t.outboard {
			start := first * w.t.groupLen
			end := start + w.t.groupLen
			if end > uint64(len(w.content)) {
				end = uint64(len(w.content))
			}
			w.pos += copy(w.dst[w.pos:], w.content[start:end])
		}
		return
	}
	if w.leaves-first <= 1<<(h-1) {
		w.node(h-1, 2*i) // no right child: the node is its left child moved up
		return
	}
	w.parent(h-1, i)
}
