//go:build arm64 && !purego

package blake3

// useNEON selects the 4-lane kernel. Advanced SIMD is part of every arm64
// CPU; tests switch it off to cover the generic code.
var useNEON = true

// hashManyNEON hashes one input per lane, four lanes; see hashManyNEON in
// the generator.
//
//go:noescape
func hashManyNEON(inputs *[4]*byte, blocks uint64, key *[8]uint32, ctrLo *[4]uint32, ctrHi *[4]uint32, flags uint32, flagsStart uint32, flagsEnd uint32, out *[4][8]uint32)

// hashMany hashes j's lanes four at a time through the NEON kernel (idle
// lanes rehash lane 0, and the entries of out after the first j.n are
// scratch), and a single lane through the generic rounds.
func hashMany(j *laneJob, blocks int, key *[8]uint32, flags, flagsStart, flagsEnd uint32, out *[maxLanes][8]uint32) {
	if !useNEON {
		hashManyGeneric(j, blocks, key, flags, flagsStart, flagsEnd, out)
		return
	}
	in, lo, hi := j.kernelArgs()
	for first := 0; first < j.n; first += 4 {
		if j.n-first == 1 {
			out[first] = hashLane(j.inputs[first], j.counters[first], blocks, key, flags, flagsStart, flagsEnd)
			break
		}
		hashManyNEON((*[4]*byte)(in[first:]), uint64(blocks), key, (*[4]uint32)(lo[first:]), (*[4]uint32)(hi[first:]),
			flags, flagsStart, flagsEnd, (*[4][8]uint32)(out[first:]))
	}
}
