package blake3

import "math/bits"

// hasher is the incremental tree hasher. Input is buffered up to bufChunks
// chunks so that every full buffer is hashed by the widest kernel; large
// writes bypass the buffer and are hashed as aligned subtrees of up to
// maxSubtreeChunks chunks.
type hasher struct {
	tree
	// pending holds the CVs of the chunks counter .. counter+npending-1,
	// hashed from full buffers but not yet in the tree: their parents are
	// computed maxLanes at a time once a whole aligned subtree is pending.
	pending  [maxSubtreeChunks][8]uint32
	npending int
	buf      [bufSize]byte
	bufLen   int
}

// tree holds the chaining values of the complete subtrees hashed so far.
type tree struct {
	key   [8]uint32
	flags uint32
	// counter is the number of chunks already folded into stack.
	counter  uint64
	stack    [maxDepth][8]uint32
	stackLen int
}

func (h *hasher) reset() {
	h.counter = 0
	h.stackLen = 0
	h.npending = 0
	h.bufLen = 0
}

func (h *hasher) update(p []byte) {
	for len(p) > 0 {
		if h.bufLen == 0 && len(p) > bufSize {
			h.flushPending()
			// At least one byte must stay behind: the last chunk may be the root.
			for len(p) > bufSize {
				n := subtreeChunks(h.counter, len(p))
				cv := subtreeCV(p[:n*ChunkSize], h.counter, &h.key, h.flags)
				h.pushSubtree(&cv, n)
				p = p[n*ChunkSize:]
			}
		}
		c := copy(h.buf[h.bufLen:], p)
		h.bufLen += c
		p = p[c:]
		if h.bufLen == bufSize && len(p) > 0 {
			h.hashBuffer()
		}
	}
}

// hashBuffer hashes the full buffer (more input follows) into pending CVs.
func (h *hasher) hashBuffer() {
	var j laneJob
	for i := 0; i < bufChunks; i++ {
		j.inputs[i], j.counters[i] = h.buf[i*ChunkSize:(i+1)*ChunkSize], h.counter+uint64(h.npending+i)
	}
	j.n = bufChunks
	var out [maxLanes][8]uint32
	hashChunkLanes(&j, &h.key, h.flags, &out)
	h.npending += copy(h.pending[h.npending:], out[:bufChunks])
	h.bufLen = 0
	// The pending chunks form one aligned subtree once they reach the
	// largest power of two (up to maxSubtreeChunks) that divides counter.
	target := maxSubtreeChunks
	for h.counter%uint64(target) != 0 {
		target /= 2
	}
	if h.npending == target {
		h.flushPending()
	}
}

// flushPending moves the pending CVs into the tree as aligned subtrees of
// power-of-two sizes. More input always follows them.
func (h *hasher) flushPending() {
	done := 0
	for done < h.npending {
		n := maxSubtreeChunks
		for n > h.npending-done || h.counter%uint64(n) != 0 {
			n /= 2
		}
		reduceCVs(h.pending[done:done+n], 1, &h.key, h.flags)
		h.pushSubtree(&h.pending[done], n)
		done += n
	}
	h.npending = 0
}

// subtreeChunks picks the largest power-of-two chunk count n with
// bufChunks <= n <= maxSubtreeChunks that keeps the subtree aligned (counter
// is a multiple of n) and leaves at least one byte of remaining input after
// it.
func subtreeChunks(counter uint64, remaining int) int {
	n := maxSubtreeChunks
	for n > bufChunks && (counter%uint64(n) != 0 || n*ChunkSize >= remaining) {
		n /= 2
	}
	return n
}

// pushSubtree adds the CV of a complete subtree of n chunks and merges
// completed subtrees eagerly: a push only happens when more input follows,
// so no merge can be the root. Afterwards the stack holds one CV per set
// bit of the counter, largest first, each of at least bufChunks chunks.
func (h *tree) pushSubtree(cv *[8]uint32, n int) {
	h.stack[h.stackLen] = *cv
	h.stackLen++
	h.counter += uint64(n)
	h.stackLen = mergeStack(&h.stack, h.stackLen, h.counter, &h.key, h.flags)
}

func mergeStack(stack *[maxDepth][8]uint32, n int, counter uint64, key *[8]uint32, flags uint32) int {
	for n > bits.OnesCount64(counter) {
		stack[n-2] = parentCV(&stack[n-2], &stack[n-1], key, flags)
		n--
	}
	return n
}

// rootOutput sets o to the root node's output; the input hashed so far
// stays the same.
func (h *hasher) rootOutput(o *output) {
	if h.npending == 0 {
		finish(o, h.buf[:h.bufLen], h.stack[:h.stackLen], h.counter, &h.key, h.flags)
		return
	}
	// The pending chunks and the buffered tail (not empty: a buffer is only
	// hashed when more input follows) form one subtree: the pending chunks
	// are fewer than the largest power of two dividing counter, and both
	// are whole buffers but the tail. Its parent levels are reduced in one
	// go, on a copy, as the Hasher may be written to further.
	var cvs [maxSubtreeChunks + maxLanes][8]uint32
	n := copy(cvs[:], h.pending[:h.npending])
	n += tailCVs(h.buf[:h.bufLen], h.counter+uint64(n), &h.key, h.flags, cvs[n:])
	reduceCVs(cvs[:n], 2, &h.key, h.flags)
	o.setParent(&cvs[0], &cvs[1], &h.key, h.flags)
	foldStack(o, h.stack[:h.stackLen], &h.key, h.flags)
}

// finish hashes the tail of the input (at most bufChunks chunks, empty
// only for an empty message) that follows counter chunks summarised by the
// merged subtree CVs in stack, and sets o to the root output. Every stack
// entry covers at least bufChunks chunks, so the tail is a subtree of its
// own.
func finish(o *output, tail []byte, stack [][8]uint32, counter uint64, key *[8]uint32, flags uint32) {
	var cvs [maxLanes][8]uint32
	tailOutput(o, tail, counter, key, flags, cvs[:])
	foldStack(o, stack, key, flags)
}

// foldStack turns o, the output of the subtree that follows the subtrees
// of the stack entries (none smaller than it), into the root output by
// merging it with the entries from the top.
func foldStack(o *output, stack [][8]uint32, key *[8]uint32, flags uint32) {
	for i := len(stack) - 1; i >= 0; i-- {
		cv := o.chainingValue()
		o.setParent(&stack[i], &cv, key, flags)
	}
}

// tailOutput sets o to the output of the subtree over the chunks of tail
// (1 to maxSubtreeChunks chunks, all full but maybe the last) starting at
// chunk counter. cvs is scratch for the chunk CVs, at least the chunk count
// rounded up to maxLanes long.
func tailOutput(o *output, tail []byte, counter uint64, key *[8]uint32, flags uint32, cvs [][8]uint32) {
	if len(tail) <= ChunkSize {
		o.setChunk(tail, counter, key, flags)
		return
	}
	reduceCVs(cvs[:tailCVs(tail, counter, key, flags, cvs)], 2, key, flags)
	o.setParent(&cvs[0], &cvs[1], key, flags)
}

// tailCVs writes the chaining values of the chunks of tail (all full but
// maybe the last), the first at chunk counter, to the front of cvs (see
// chunkCVs) and returns their number.
func tailCVs(tail []byte, counter uint64, key *[8]uint32, flags uint32, cvs [][8]uint32) int {
	k := chunkCVs(tail, counter, key, flags, cvs)
	if rest := tail[k*ChunkSize:]; len(rest) > 0 {
		var o output
		o.setChunk(rest, counter+uint64(k), key, flags)
		cvs[k] = o.chainingValue()
		k++
	}
	return k
}
