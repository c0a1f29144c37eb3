package blake3

import "unsafe"

// laneJob describes up to maxLanes independent inputs hashed side by side by
// one kernel call: each lane has its own input and its own counter, so lanes
// may hold neighbouring chunks of one message or chunks of different messages.
// Callers fill it in place (not through a method) so that escape analysis
// keeps the inputs on the stack.
type laneJob struct {
	inputs   [maxLanes][]byte
	counters [maxLanes]uint64
	n        int
}

// kernelArgs returns the lane kernels' arguments: each lane's input and the
// halves of its counter. Idle lanes rehash lane 0.
func (j *laneJob) kernelArgs() (in [maxLanes]*byte, lo, hi [maxLanes]uint32) {
	for l := range in {
		src := l
		if l >= j.n {
			src = 0
		}
		in[l] = &j.inputs[src][0]
		lo[l], hi[l] = uint32(j.counters[src]), uint32(j.counters[src]>>32)
	}
	return in, lo, hi
}

// hashLane returns the chaining value of one lane: the blocks full blocks
// of in with one counter, the first with flagsStart and the last with
// flagsEnd added to flags.
func hashLane(in []byte, counter uint64, blocks int, key *[8]uint32, flags, flagsStart, flagsEnd uint32) [8]uint32 {
	cv := *key
	last := (blocks - 1) * BlockSize
	if blocks > 1 {
		compressBlocks(&cv, in[:last], counter, flags, flagsStart)
		flagsStart = 0
	}
	compressCV(&cv, (*[BlockSize]byte)(in[last:]), counter, BlockSize, flags|flagsStart|flagsEnd)
	return cv
}

// hashChunkLanes writes the chaining values of j.n full chunks to out; the
// entries after them are scratch (see hashMany).
func hashChunkLanes(j *laneJob, key *[8]uint32, flags uint32, out *[maxLanes][8]uint32) {
	hashMany(j, ChunkSize/BlockSize, key, flags, flagChunkStart, flagChunkEnd, out)
}

// hashParentLanes writes the chaining values of j.n parent nodes (each input
// is the 64-byte concatenation of two child CVs) to out.
func hashParentLanes(j *laneJob, key *[8]uint32, flags uint32, out *[maxLanes][8]uint32) {
	hashMany(j, 1, key, flags|flagParent, 0, 0, out)
}

// parentCV returns the chaining value of the parent of left and right.
func parentCV(left, right *[8]uint32, key *[8]uint32, flags uint32) [8]uint32 {
	var block [BlockSize]byte
	wordsToBytes(left[:], block[:32])
	wordsToBytes(right[:], block[32:])
	cv := *key
	compressCV(&cv, &block, 0, BlockSize, flags|flagParent)
	return cv
}

// setParent makes o the (not yet compressed) output of the parent of left
// and right, used for the root.
func (o *output) setParent(left, right *[8]uint32, key *[8]uint32, flags uint32) {
	o.cv = *key
	o.counter = 0
	o.blockLen = BlockSize
	o.flags = flags | flagParent
	wordsToBytes(left[:], o.block[:32])
	wordsToBytes(right[:], o.block[32:])
}

// setChunk compresses every block of one chunk (at most ChunkSize bytes)
// but the last, and makes o the output of the last block.
func (o *output) setChunk(data []byte, counter uint64, key *[8]uint32, flags uint32) {
	o.cv = *key
	last, start := chunkHead(&o.cv, data, counter, flags)
	o.counter = counter
	o.blockLen = uint32(len(last))
	o.flags = flags | start | flagChunkEnd
	o.block = [BlockSize]byte{}
	copy(o.block[:], last)
}

// chunkHead compresses every block of one chunk (at most ChunkSize bytes)
// but the last into cv, and returns the last block (at most BlockSize
// bytes, empty only for an empty chunk) with the start flag it still needs.
func chunkHead(cv *[8]uint32, data []byte, counter uint64, flags uint32) (last []byte, start uint32) {
	if len(data) <= BlockSize {
		return data, flagChunkStart
	}
	full := (len(data) - 1) / BlockSize * BlockSize
	compressBlocks(cv, data[:full], counter, flags, flagChunkStart)
	return data[full:], 0
}

// subtreeCV hashes len(data)/ChunkSize full chunks (a power of two, at most
// maxSubtreeChunks) starting at chunk counter, and reduces their chaining
// values level by level with batched parent compressions.
func subtreeCV(data []byte, counter uint64, key *[8]uint32, flags uint32) [8]uint32 {
	var cvs [maxSubtreeChunks][8]uint32
	reduceCVs(cvs[:chunkCVs(data, counter, key, flags, cvs[:])], 1, key, flags)
	return cvs[0]
}

// chunkCVs writes the chaining values of the len(data)/ChunkSize full chunks
// of data, the first at chunk counter, to the front of cvs, maxLanes chunks
// per batch, and returns their number. cvs must hold that number rounded up
// to maxLanes: the entries after the CVs are scratch.
func chunkCVs(data []byte, counter uint64, key *[8]uint32, flags uint32, cvs [][8]uint32) int {
	n := len(data) / ChunkSize
	for i := 0; i < n; i += maxLanes {
		var j laneJob
		for l := i; l < n && l < i+maxLanes; l++ {
			j.inputs[j.n], j.counters[j.n] = data[l*ChunkSize:(l+1)*ChunkSize], counter+uint64(l)
			j.n++
		}
		hashChunkLanes(&j, key, flags, (*[maxLanes][8]uint32)(cvs[i:]))
	}
	return n
}

// reduceCVs replaces the chaining values of neighbouring subtrees in cvs
// (the chunks of one subtree, in order) by their parents, level by level
// with batched parent compressions, until at most keep (1 or 2) remain at
// the front of cvs, and returns how many remain. An odd last CV moves up a
// level unchanged: pairing from the left that way builds BLAKE3's tree,
// whose left subtree holds the largest power of two of chunks below the
// total, so with keep 2 the two that remain are the root's children.
func reduceCVs(cvs [][8]uint32, keep int, key *[8]uint32, flags uint32) int {
	n := len(cvs)
	for n > keep {
		reduceLevel(cvs[:n&^1], key, flags)
		if n%2 == 1 {
			cvs[n/2] = cvs[n-1]
		}
		n = (n + 1) / 2
	}
	return n
}

// reduceLevel replaces the n (even) chaining values at the front of cvs by
// the n/2 parents of neighbouring pairs: whole batches of 8 through the
// in-place parents kernel where there is one, the rest maxLanes parents per
// lane-kernel call. A pair of CVs in memory is the parent's block once its
// words are stored little-endian, which they already are on little-endian
// machines; elsewhere they are rewritten in place, as this level consumes
// them. Parent k may overwrite cvs[k] because each kernel call reads all its
// inputs (cvs[2k], cvs[2k+1], k at least the batch's first parent) before it
// writes.
func reduceLevel(cvs [][8]uint32, key *[8]uint32, flags uint32) {
	parents := len(cvs) / 2
	if parents == 1 {
		// The lane set-up would cost more than it saves.
		cvs[0] = parentCV(&cvs[0], &cvs[1], key, flags)
		return
	}
	for i := parentsInPlace(cvs, key, flags); i < parents; i += maxLanes {
		var j laneJob
		for k := i; k < parents && k < i+maxLanes; k++ {
			block := unsafe.Slice((*byte)(unsafe.Pointer(&cvs[2*k])), BlockSize)
			if !littleEndian {
				wordsToBytes(cvs[2*k][:], block[:32])
				wordsToBytes(cvs[2*k+1][:], block[32:])
			}
			j.inputs[j.n] = block
			j.n++
		}
		var out [maxLanes][8]uint32
		hashParentLanes(&j, key, flags, &out)
		copy(cvs[i:i+j.n], out[:j.n])
	}
}

// littleEndian reports whether uint32 words are stored low byte first, the
// byte order BLAKE3 uses for its words.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
