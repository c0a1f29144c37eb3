package blake3

import "math/bits"

// hasher is the incremental tree hasher. Input is buffered up to maxLanes
// chunks so that every full buffer is hashed by the widest kernel; large
// writes bypass the buffer and are hashed as aligned subtrees of up to
// maxSubtreeChunks chunks.
type hasher struct {
	key   [8]uint32
	flags uint32
	// counter is the number of chunks already folded into stack.
	counter  uint64
	stack    [maxDepth][8]uint32
	stackLen int
	buf      [bufSize]byte
	bufLen   int
}

func (h *hasher) reset() {
	h.counter = 0
	h.stackLen = 0
	h.bufLen = 0
}

func (h *hasher) update(p []byte) {
	for len(p) > 0 {
		if h.bufLen == 0 {
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
			cv := subtreeCV(h.buf[:], h.counter, &h.key, h.flags)
			h.pushSubtree(&cv, maxLanes)
			h.bufLen = 0
		}
	}
}

// subtreeChunks picks the largest power-of-two chunk count n with
// maxLanes <= n <= maxSubtreeChunks that keeps the subtree aligned (counter is
// a multiple of n) and leaves at least one byte of remaining input after it.
func subtreeChunks(counter uint64, remaining int) int {
	n := maxSubtreeChunks
	for n > maxLanes && (counter%uint64(n) != 0 || n*ChunkSize >= remaining) {
		n /= 2
	}
	return n
}

// pushSubtree adds the CV of a complete subtree of n chunks. Entries are
// merged lazily, before a push, so the root is never compressed as a parent
// too early: afterwards the stack holds one CV per set bit of the counter.
func (h *hasher) pushSubtree(cv *[8]uint32, n int) {
	h.stackLen = mergeStack(&h.stack, h.stackLen, h.counter, &h.key, h.flags)
	h.stack[h.stackLen] = *cv
	h.stackLen++
	h.counter += uint64(n)
}

func mergeStack(stack *[maxDepth][8]uint32, n int, counter uint64, key *[8]uint32, flags uint32) int {
	for n > bits.OnesCount64(counter) {
		stack[n-2] = parentCV(&stack[n-2], &stack[n-1], key, flags)
		n--
	}
	return n
}

// rootOutput returns the root node's output without changing the hasher.
func (h *hasher) rootOutput() output {
	stack := h.stack
	return finish(h.buf[:h.bufLen], &stack, h.stackLen, h.counter, &h.key, h.flags)
}

// finish hashes the final tail of the input (at most bufSize bytes, empty
// only for an empty message) that follows counter chunks summarised by the n
// CVs on stack, and returns the root output. stack is used as scratch.
func finish(tail []byte, stack *[maxDepth][8]uint32, n int, counter uint64, key *[8]uint32, flags uint32) output {
	if counter == 0 && len(tail) <= ChunkSize {
		return chunkOutput(tail, 0, key, flags)
	}
	// Every chunk of the tail is full but the last (1 to ChunkSize bytes).
	// No chunk is the root here, so a full last chunk joins the lanes too.
	lastLen := len(tail) % ChunkSize
	full := len(tail) / ChunkSize
	if full > 0 {
		var j laneJob
		for i := 0; i < full; i++ {
			j.inputs[j.n], j.counters[j.n] = tail[i*ChunkSize:(i+1)*ChunkSize], counter+uint64(i)
			j.n++
		}
		var cvs [maxLanes][8]uint32
		hashChunkLanes(&j, key, flags, &cvs)
		for i := 0; i < full; i++ {
			n = mergeStack(stack, n, counter, key, flags)
			stack[n] = cvs[i]
			n++
			counter++
		}
	}
	// The subtrees left of the last chunk must be complete before it is
	// folded in; when the last chunk is full, its CV is the top entry.
	var out output
	if lastLen > 0 {
		n = mergeStack(stack, n, counter, key, flags)
		out = chunkOutput(tail[full*ChunkSize:], counter, key, flags)
	} else {
		n = mergeStack(stack, n-1, counter-1, key, flags)
		out = parentOutput(&stack[n-1], &stack[n], key, flags)
		n--
	}
	for n > 0 {
		n--
		cv := out.chainingValue()
		out = parentOutput(&stack[n], &cv, key, flags)
	}
	return out
}
