package blake3

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// The subtree API below (the Rust blake3 crate's hazmat module in Go) hashes
// pieces of one input apart, on any machine, and merges their chaining values
// into the hash of the whole. The result equals Sum256 only if each piece is
// a subtree that BLAKE3 itself would form (see LeftSubtreeLen): offsets and
// lengths that cannot be one are errors, but a merge of the wrong pieces is
// not detected.

// ChainingValue is the 32-byte value that stands for a subtree (not the root)
// in its parent.
type ChainingValue [32]byte

// Mode is the key and flags of one of BLAKE3's three modes; a subtree's
// chaining value depends on it.
type Mode struct {
	key   [8]uint32
	flags uint32
}

// HashMode is the default (unkeyed) mode of Sum256 and New.
func HashMode() Mode { return Mode{key: iv} }

// KeyedHashMode is the mode of NewKeyed(key[:]).
func KeyedHashMode(key [KeySize]byte) Mode {
	m := Mode{flags: flagKeyedHash}
	bytesToWords(key[:], m.key[:])
	return m
}

// DeriveKeyMaterialMode is the mode in which NewDeriveKey hashes the key
// material, for the context key that HashDeriveKeyContext returns.
func DeriveKeyMaterialMode(contextKey [32]byte) Mode {
	m := Mode{flags: flagDeriveKeyMaterial}
	bytesToWords(contextKey[:], m.key[:])
	return m
}

// HashDeriveKeyContext returns the context key of a key derivation context
// string: the first step of NewDeriveKey.
func HashDeriveKeyContext(context string) [32]byte {
	h := &Hasher{size: 32, h: hasher{tree: tree{key: iv, flags: flagDeriveKeyContext}}}
	_, _ = h.WriteString(context)
	var key [32]byte
	_, _ = h.Digest().Read(key[:])
	return key
}

// Errors of the subtree functions, wrapped with the offending numbers; test
// with errors.Is.
var (
	ErrOffsetNotChunkAligned = errors.New("blake3: subtree offset is not a multiple of the chunk size")
	ErrEmptySubtree          = errors.New("blake3: a subtree holds at least one byte")
	ErrSubtreeTooLong        = errors.New("blake3: subtree too long for its offset")
	ErrNoLeftSubtree         = errors.New("blake3: an input of at most one chunk has no left subtree")
	ErrBadSubtreeLen         = errors.New("blake3: subtree length is not a power of two times the chunk size")
	ErrOutputLen             = errors.New("blake3: output slice of the wrong length")
)

// MaxSubtreeLen returns the most bytes a subtree starting at offset (a
// multiple of ChunkSize) may hold: ChunkSize times the largest power of two
// dividing offset/ChunkSize. At offset 0 there is no limit, and it returns
// math.MaxUint64.
func MaxSubtreeLen(offset uint64) (uint64, error) {
	if offset%ChunkSize != 0 {
		return 0, fmt.Errorf("%w: %d", ErrOffsetNotChunkAligned, offset)
	}
	if offset == 0 {
		return math.MaxUint64, nil
	}
	return ChunkSize << bits.TrailingZeros64(offset/ChunkSize), nil
}

// LeftSubtreeLen returns the length of the left subtree of an input of
// inputLen bytes (more than ChunkSize): the largest power of two times
// ChunkSize that is less than inputLen.
func LeftSubtreeLen(inputLen uint64) (uint64, error) {
	if inputLen <= ChunkSize {
		return 0, fmt.Errorf("%w (%d bytes)", ErrNoLeftSubtree, inputLen)
	}
	return leftLen(inputLen), nil
}

// leftLen is LeftSubtreeLen for n > ChunkSize.
func leftLen(n uint64) uint64 {
	return 1 << (bits.Len64((n-1)/ChunkSize) - 1) * ChunkSize
}

func checkSubtree(offset uint64, n int) error {
	max, err := MaxSubtreeLen(offset)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrEmptySubtree
	}
	if uint64(n) > max {
		return fmt.Errorf("%w: %d bytes at offset %d (at most %d)", ErrSubtreeTooLong, n, offset, max)
	}
	return nil
}

// HashSubtree returns the chaining value of input as the subtree at the
// given byte offset of a larger input, in mode m. The offset must be a
// multiple of ChunkSize and input non-empty and at most MaxSubtreeLen(offset)
// long. At offset 0 it gives the chaining value of a whole input as a
// non-root node (the left child of a larger tree, for example).
func HashSubtree(m Mode, offset uint64, input []byte) (ChainingValue, error) {
	if err := checkSubtree(offset, len(input)); err != nil {
		return ChainingValue{}, err
	}
	var cv ChainingValue
	w := subtreeWords(input, offset/ChunkSize, &m)
	wordsToBytes(w[:], cv[:])
	return cv, nil
}

// subtreeWords is HashSubtree's chaining value as words; input is a valid
// subtree of at least one byte starting at chunk counter.
func subtreeWords(input []byte, counter uint64, m *Mode) [8]uint32 {
	if len(input) > maxSubtreeChunks*ChunkSize {
		// Pieces of maxSubtreeChunks go through the lanes; the few parents
		// above them one at a time.
		left := leftLen(uint64(len(input)))
		l := subtreeWords(input[:left], counter, m)
		r := subtreeWords(input[left:], counter+left/ChunkSize, m)
		return parentCV(&l, &r, &m.key, m.flags)
	}
	var cvs [maxSubtreeChunks][8]uint32
	var o output
	tailOutput(&o, input, counter, &m.key, m.flags, cvs[:])
	return o.chainingValue()
}

// HashSubtrees writes to out the chaining values of the consecutive
// subtrees of subtreeLen bytes (ChunkSize times a power of two) that make up
// input, the last possibly shorter, as if input started at the given byte
// offset, which must be a multiple of subtreeLen. out must hold exactly
// their number, (len(input)+subtreeLen-1)/subtreeLen. Subtrees of fewer than
// 64 chunks are hashed side by side in the SIMD lanes, which makes this much
// faster than HashSubtree for each.
func HashSubtrees(m Mode, offset uint64, input []byte, subtreeLen uint64, out []ChainingValue) error {
	if subtreeLen < ChunkSize || subtreeLen&(subtreeLen-1) != 0 {
		return fmt.Errorf("%w: %d", ErrBadSubtreeLen, subtreeLen)
	}
	if offset%subtreeLen != 0 {
		return fmt.Errorf("%w: offset %d is not a multiple of %d", ErrSubtreeTooLong, offset, subtreeLen)
	}
	n := (uint64(len(input)) + subtreeLen - 1) / subtreeLen
	if uint64(len(out)) != n {
		return fmt.Errorf("%w: %d for %d subtrees", ErrOutputLen, len(out), n)
	}
	counter := offset / ChunkSize
	if subtreeLen >= maxSubtreeChunks*ChunkSize {
		for i := range out {
			piece := input[uint64(i)*subtreeLen:]
			if uint64(len(piece)) > subtreeLen {
				piece = piece[:subtreeLen]
			}
			w := subtreeWords(piece, counter+uint64(i)*(subtreeLen/ChunkSize), &m)
			wordsToBytes(w[:], out[i][:])
		}
		return nil
	}
	// Pieces of maxSubtreeChunks chunks (whole subtrees): their chunk CVs,
	// then the levels below the subtrees' roots across the whole piece. An
	// odd last CV moves up unchanged, so a shorter last subtree reduces to
	// its own root too.
	levels := bits.TrailingZeros64(subtreeLen / ChunkSize)
	const piece = maxSubtreeChunks * ChunkSize
	var cvs [maxSubtreeChunks][8]uint32
	for len(input) > 0 {
		p := input
		if len(p) > piece {
			p = p[:piece]
		}
		k := tailCVs(p, counter, &m.key, m.flags, cvs[:])
		for l := 0; l < levels && k > 1; l++ {
			reduceLevel(cvs[:k&^1], &m.key, m.flags)
			if k%2 == 1 {
				cvs[k/2] = cvs[k-1]
			}
			k = (k + 1) / 2
		}
		for i := 0; i < k; i++ {
			wordsToBytes(cvs[i][:], out[i][:])
		}
		out = out[k:]
		input = input[len(p):]
		counter += piece / ChunkSize
	}
	return nil
}

// MergeSubtreesNonRoot returns the chaining value of the parent of two
// subtrees: left, the left child (a complete subtree of a power of two
// chunks), and right, the rest of the parent's input.
func MergeSubtreesNonRoot(left, right ChainingValue, m Mode) ChainingValue {
	var block [BlockSize]byte
	copy(block[:32], left[:])
	copy(block[32:], right[:])
	cv := m.key
	compressCV(&cv, &block, 0, BlockSize, m.flags|flagParent)
	var out ChainingValue
	wordsToBytes(cv[:], out[:])
	return out
}

// MergeSubtreePairs sets parents[i] to MergeSubtreesNonRoot(children[2i],
// children[2i+1], m), across the SIMD lanes. children must be twice as long
// as parents; parents may be children[:len(children)/2], which is
// overwritten only after it is read.
func MergeSubtreePairs(m Mode, children, parents []ChainingValue) error {
	if len(children) != 2*len(parents) {
		return fmt.Errorf("%w: %d parents of %d children", ErrOutputLen, len(parents), len(children))
	}
	for i := 0; i < len(parents); i += maxLanes {
		var j laneJob
		for k := i; k < len(parents) && k < i+maxLanes; k++ {
			// Two consecutive ChainingValues are the parent's 64-byte block.
			j.inputs[j.n] = unsafe.Slice(&children[2*k][0], BlockSize)
			j.n++
		}
		var out [maxLanes][8]uint32
		hashParentLanes(&j, &m.key, m.flags, &out)
		for k := 0; k < j.n; k++ {
			wordsToBytes(out[k][:], parents[i+k][:])
		}
	}
	return nil
}

// MergeSubtreesRoot returns the hash (32 bytes) of an input whose root has
// the children left and right.
func MergeSubtreesRoot(left, right ChainingValue, m Mode) [32]byte {
	var block [BlockSize]byte
	o := mergeRoot(left, right, m)
	o.rootBlock(0, &block)
	return [32]byte(block[:32])
}

// MergeSubtreesRootXOF returns the extended output of an input whose root
// has the children left and right.
func MergeSubtreesRootXOF(left, right ChainingValue, m Mode) *Digest {
	return &Digest{out: mergeRoot(left, right, m)}
}

func mergeRoot(left, right ChainingValue, m Mode) output {
	o := output{cv: m.key, blockLen: BlockSize, flags: m.flags | flagParent}
	copy(o.block[:32], left[:])
	copy(o.block[32:], right[:])
	return o
}
