//go:build amd64 && !purego

package blake3

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd ../internal/asmgen && go run ./blake3 -pkg blake3 -out ../../blake3/blake3_amd64.s -stubs ../../blake3/blake3_stubs_amd64.go"

// The kernels in use; tests switch them to cover every path on one CPU.
// Each level implies the ones before it.
var (
	useSSE41 = cpu.X86.HasSSE41
	useAVX2  = cpu.X86.HasAVX2 && cpu.X86.HasSSE41
	// AVX-512VL gives the XMM and YMM kernels a one-instruction rotation;
	// no ZMM register is used.
	useAVX512 = useAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL
)

// compress compresses block with the chaining value cv and writes the 64
// output bytes to out.
func compress(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32, out *[BlockSize]byte) {
	switch {
	case useAVX512:
		compressAVX512(cv, block, counter, blockLen, flags, out)
	case useSSE41:
		compressSSE41(cv, block, counter, blockLen, flags, out)
	default:
		compressGeneric(cv, block, counter, blockLen, flags, out)
	}
}

// compressCV replaces cv by the chaining value of block.
func compressCV(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32) {
	switch {
	case useAVX512:
		compressCVAVX512(cv, block, counter, blockLen, flags)
	case useSSE41:
		compressCVSSE41(cv, block, counter, blockLen, flags)
	default:
		compressCVGeneric(cv, block, counter, blockLen, flags)
	}
}

// compressBlocks compresses the full blocks of data (a non-empty multiple of
// BlockSize) into cv in sequence; the first block gets flags|flagsStart.
func compressBlocks(cv *[8]uint32, data []byte, counter uint64, flags, flagsStart uint32) {
	switch {
	case useAVX512:
		compressBlocksAVX512(cv, &data[0], uint64(len(data)/BlockSize), counter, flags, flagsStart)
		return
	case useSSE41:
		compressBlocksSSE41(cv, &data[0], uint64(len(data)/BlockSize), counter, flags, flagsStart)
		return
	}
	compressBlocksGeneric(cv, data, counter, flags, flagsStart)
}

// hashMany runs j's lanes through the widest kernel that is not mostly idle:
// eight YMM lanes for five to eight lanes, four XMM lanes below, and the
// single compression for one lane. The AVX-512VL kernels take precedence
// over AVX2/AVX (VEX) over SSE4.1.
func hashMany(j *laneJob, blocks int, key *[8]uint32, flags, flagsStart, flagsEnd uint32, out *[maxLanes][8]uint32) {
	switch {
	case useAVX2 && j.n > 4:
		var in [8]*byte
		var ctr [16]uint32
		for l := 0; l < 8; l++ {
			// Idle lanes rehash lane 0; their output is ignored.
			src := l
			if l >= j.n {
				src = 0
			}
			in[l] = &j.inputs[src][0]
			ctr[l] = uint32(j.counters[src])
			ctr[8+l] = uint32(j.counters[src] >> 32)
		}
		if useAVX512 {
			hashManyAVX512(&in, uint64(blocks), key, &ctr, flags, flagsStart, flagsEnd, out)
		} else {
			hashManyAVX2(&in, uint64(blocks), key, &ctr, flags, flagsStart, flagsEnd, out)
		}
	case useSSE41 && j.n > 1:
		for first := 0; first < j.n; first += 4 {
			var in [4]*byte
			var ctr [8]uint32
			for l := 0; l < 4; l++ {
				src := first + l
				if src >= j.n {
					src = first
				}
				in[l] = &j.inputs[src][0]
				ctr[l] = uint32(j.counters[src])
				ctr[4+l] = uint32(j.counters[src] >> 32)
			}
			var o [4][8]uint32
			switch {
			case useAVX512:
				hashManyAVX512x4(&in, uint64(blocks), key, &ctr, flags, flagsStart, flagsEnd, &o)
			case useAVX2:
				hashManyAVX(&in, uint64(blocks), key, &ctr, flags, flagsStart, flagsEnd, &o)
			default:
				hashManySSE41(&in, uint64(blocks), key, &ctr, flags, flagsStart, flagsEnd, &o)
			}
			for l := 0; l < 4 && first+l < j.n; l++ {
				out[first+l] = o[l]
			}
		}
	default:
		hashManyGeneric(j, blocks, key, flags, flagsStart, flagsEnd, out)
	}
}
