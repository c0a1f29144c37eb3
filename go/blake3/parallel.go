package blake3

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

const (
	// ParallelMin is the smallest write that SetParallel spreads over
	// goroutines: below it, starting and joining them takes a growing share
	// of what a second core saves (measured, see the module's README).
	ParallelMin = 512 << 10
	// pieceMaxChunks bounds one goroutine's unit of work (1 MiB): a few
	// units per goroutine keep them busy to the end, and the unit's CVs fit
	// on the stack.
	pieceMaxChunks = 1024
	// piecesPerWorker: see pieceChunks.
	piecesPerWorker = 4
	// maxBatch bounds the pieces hashed between two joins of the goroutines.
	maxBatch = 64
)

// SetParallel lets Write and WriteString hash inputs of at least
// ParallelMin bytes on up to n goroutines (the caller's among them); n <= 1,
// the default, keeps all hashing on the caller's goroutine, as
// github.com/zeebo/blake3 does. The output is the same either way. The
// setting survives Reset and is copied by Clone.
func (h *Hasher) SetParallel(n int) {
	h.workers = n
}

// piece is one aligned subtree of a parallel write.
type piece struct {
	data    []byte
	counter uint64
	chunks  int
	cv      [8]uint32
}

// updateParallel is update for a large p, with its aligned subtrees hashed
// on up to workers goroutines and pushed in order.
func (h *hasher) updateParallel(p []byte, workers int) {
	if h.bufLen > 0 {
		// Complete the buffer, then hash it: more input follows.
		k := copy(h.buf[h.bufLen:], p)
		h.bufLen += k
		p = p[k:]
		h.hashBuffer()
	}
	h.flushPending()
	// Every whole buffer before the last byte goes into pieces (the last
	// chunk may be the root); counter and chunks are multiples of bufChunks,
	// so every piece is at least that (smaller than size only where the
	// counter's alignment or the end needs it).
	chunks := (len(p) - 1) / bufSize * bufChunks
	size := pieceChunks(chunks, workers)
	// The goroutines share the batch, so it is on the heap: sized to the
	// pieces (those that align the counter to size among them), not to
	// maxBatch; a batch too short only means one more join.
	nb := chunks/size + 2*bits.Len(uint(size))
	if nb > maxBatch {
		nb = maxBatch
	}
	batch := make([]piece, nb)
	for chunks > 0 {
		n, counter := 0, h.counter
		for n < len(batch) && chunks > 0 {
			c := size
			for c > chunks || counter%uint64(c) != 0 {
				c /= 2
			}
			batch[n] = piece{data: p[:c*ChunkSize], counter: counter, chunks: c}
			counter += uint64(c)
			chunks -= c
			p = p[c*ChunkSize:]
			n++
		}
		hashPieces(batch[:n], workers, &h.key, h.flags)
		for i := range batch[:n] {
			h.pushSubtree(&batch[i].cv, batch[i].chunks)
		}
	}
	h.update(p)
}

// pieceChunks picks the subtree size (a power of two of chunks, from
// maxSubtreeChunks to pieceMaxChunks) that gives each of workers goroutines
// piecesPerWorker to twice that many pieces of chunks chunks: enough that
// the caller, which takes pieces until the others wake up, keeps them busy
// to the end, and no smaller than the subtrees the serial path hashes.
func pieceChunks(chunks, workers int) int {
	c := maxSubtreeChunks
	for c < pieceMaxChunks && 2*c*piecesPerWorker*workers <= chunks {
		c *= 2
	}
	return c
}

// hashPieces sets the CV of every piece, on up to workers goroutines that
// take the pieces in turn.
func hashPieces(ps []piece, workers int, key *[8]uint32, flags uint32) {
	if workers > len(ps) {
		workers = len(ps)
	}
	if workers <= 1 {
		for i := range ps {
			ps[i].cv = pieceCV(ps[i].data, ps[i].counter, key, flags)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(ps) {
				return
			}
			ps[i].cv = pieceCV(ps[i].data, ps[i].counter, key, flags)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// pieceCV returns the CV of the aligned subtree of len(data)/ChunkSize full
// chunks (a power of two, at most pieceMaxChunks) starting at chunk counter.
func pieceCV(data []byte, counter uint64, key *[8]uint32, flags uint32) [8]uint32 {
	if len(data) <= maxSubtreeChunks*ChunkSize {
		return subtreeCV(data, counter, key, flags)
	}
	const sub = maxSubtreeChunks * ChunkSize
	var cvs [pieceMaxChunks / maxSubtreeChunks][8]uint32
	n := len(data) / sub
	for i := 0; i < n; i++ {
		cvs[i] = subtreeCV(data[i*sub:(i+1)*sub], counter+uint64(i*maxSubtreeChunks), key, flags)
	}
	reduceCVs(cvs[:n], 1, key, flags)
	return cvs[0]
}
