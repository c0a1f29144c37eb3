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
	if h.counter == 0 && h.bufLen <= ChunkSize {
		return chunkOutput(h.buf[:h.bufLen], 0, &h.key, h.flags)
	}
	stack := h.stack
	n := h.stackLen
	counter := h.counter
	// Every buffered chunk but the last is full; the last (1 to ChunkSize
	// bytes) becomes the right-most leaf.
	full := (h.bufLen - 1) / ChunkSize
	if full > 0 {
		var j laneJob
		for i := 0; i < full; i++ {
			j.add(h.buf[i*ChunkSize:(i+1)*ChunkSize], counter+uint64(i))
		}
		var cvs [maxLanes][8]uint32
		hashChunkLanes(&j, &h.key, h.flags, &cvs)
		for i := 0; i < full; i++ {
			n = mergeStack(&stack, n, counter, &h.key, h.flags)
			stack[n] = cvs[i]
			n++
			counter++
		}
	}
	// Subtrees left of the last chunk must be complete before it is folded in.
	n = mergeStack(&stack, n, counter, &h.key, h.flags)
	out := chunkOutput(h.buf[full*ChunkSize:h.bufLen], counter, &h.key, h.flags)
	for n > 0 {
		n--
		cv := out.chainingValue()
		out = parentOutput(&stack[n], &cv, &h.key, h.flags)
	}
	return out
}
