package blake3

// SumMany writes the 32-byte BLAKE3 hash of inputs[i] to outputs[i]. The full
// chunks of all messages are hashed together, maxLanes at a time across the
// SIMD lanes, each lane with its own chunk counter: four 4 KiB messages fill
// the sixteen AVX-512 lanes. It panics if the slices differ in length.
func SumMany(inputs [][]byte, outputs [][32]byte) {
	if len(inputs) != len(outputs) {
		panic("blake3: SumMany needs len(outputs) == len(inputs)")
	}
	// Chunk CVs of every message longer than one chunk, message after message.
	total := 0
	for _, in := range inputs {
		if len(in) > ChunkSize {
			total += (len(in) + ChunkSize - 1) / ChunkSize
		}
	}
	cvs := make([][8]uint32, total)
	var j laneJob
	var dst [maxLanes]int
	flush := func() {
		var out [maxLanes][8]uint32
		hashChunkLanes(&j, &iv, 0, &out)
		for l := 0; l < j.n; l++ {
			cvs[dst[l]] = out[l]
		}
		j.n = 0
	}
	next := 0
	for i, in := range inputs {
		if len(in) <= ChunkSize {
			outputs[i] = Sum256(in)
			continue
		}
		// No chunk of a multi-chunk message is the root, so full chunks,
		// the last one included, can go to the lanes.
		for c := uint64(0); len(in) > 0; c++ {
			if len(in) >= ChunkSize {
				dst[j.n] = next
				j.inputs[j.n], j.counters[j.n] = in[:ChunkSize], c
				j.n++
				in = in[ChunkSize:]
				if j.n == maxLanes {
					flush()
				}
			} else {
				var o output
				o.setChunk(in, c, &iv, 0)
				cvs[next] = o.chainingValue()
				in = nil
			}
			next++
		}
	}
	if j.n > 0 {
		flush()
	}
	next = 0
	for i, in := range inputs {
		if len(in) <= ChunkSize {
			continue
		}
		n := (len(in) + ChunkSize - 1) / ChunkSize
		m := cvs[next : next+n]
		next += n
		reduceCVs(m, 2, &iv, 0)
		var out output
		out.setParent(&m[0], &m[1], &iv, 0)
		var block [BlockSize]byte
		out.rootBlock(0, &block)
		copy(outputs[i][:], block[:])
	}
}
