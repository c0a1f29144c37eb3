//go:build amd64 && !purego

package blake3

import "golang.org/x/sys/cpu"

// The kernels in use; tests switch them to cover every path on one CPU.
// Each level implies the ones before it.
var (
	useSSE41 = cpu.X86.HasSSE41
	useAVX2  = cpu.X86.HasAVX2 && cpu.X86.HasSSE41
	// AVX-512VL gives the XMM and YMM kernels a one-instruction rotation,
	// AVX-512F the 16-lane ZMM kernel (cpu checks that the OS saves ZMM).
	useAVX512 = useAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL
	// On AMD family 1Ah (Zen 5) every vector integer instruction takes two
	// cycles in a dependent chain and a scalar one one, so a chain of
	// compressions (a chunk's blocks) runs faster in general-purpose
	// registers: Sum256 of 1 KiB took 1102-1136 ns there through the scalar
	// rounds against 1278-1300 ns through compressBlocksAVX512. Single blocks
	// and the many-lane kernels keep their vectors.
	useScalarChains = amdFamily() == 0x1a
)

// cpuid returns the registers that CPUID leaf leaf (sub-leaf 0) sets.
//
//go:noescape
func cpuid(leaf uint32) (eax, ebx, ecx, edx uint32)

// amdFamily returns the CPU family (base plus extended) on AMD CPUs and 0
// on others.
func amdFamily() uint32 {
	_, b, c, d := cpuid(0)
	// "AuthenticAMD" in EBX, EDX, ECX.
	if b != 0x68747541 || d != 0x69746e65 || c != 0x444d4163 {
		return 0
	}
	version, _, _, _ := cpuid(1)
	family := version >> 8 & 0xf
	if family == 0xf {
		family += version >> 20 & 0xff
	}
	return family
}

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
	case useScalarChains:
		compressBlocksGeneric(cv, data, counter, flags, flagsStart)
	case useAVX512:
		compressBlocksAVX512(cv, &data[0], uint64(len(data)/BlockSize), counter, flags, flagsStart)
	case useSSE41:
		compressBlocksSSE41(cv, &data[0], uint64(len(data)/BlockSize), counter, flags, flagsStart)
	default:
		compressBlocksGeneric(cv, data, counter, flags, flagsStart)
	}
}

// parentsInPlace replaces the first 16k chaining values of cvs by the 8k
// parents of neighbouring pairs, in place, through the AVX2 parents kernel,
// which needs no lane pointers, counters or output copy; k is len(cvs)/16
// on CPUs whose widest kernel is AVX2, else 0. It returns 8k, the parents
// done.
func parentsInPlace(cvs [][8]uint32, key *[8]uint32, flags uint32) int {
	k := len(cvs) / 16
	if !useAVX2 || useAVX512 || k == 0 {
		return 0
	}
	hashParentsAVX2(&cvs[0], uint64(k), key, flags|flagParent)
	return 8 * k
}

// hashMany hashes j's lanes in groups, each through the widest kernel that
// is not mostly idle: 16 ZMM lanes (AVX-512) for more than eight lanes, 8
// YMM lanes for more than four, 4 XMM lanes for more than one (AVX-512VL
// before AVX2/AVX before SSE4.1), and a single lane through the
// sequential-block loop (hashLane). A group starts at a multiple of its
// width, so it fits in out; the entries of out after the first j.n are
// scratch (idle lanes rehash lane 0).
func hashMany(j *laneJob, blocks int, key *[8]uint32, flags, flagsStart, flagsEnd uint32, out *[maxLanes][8]uint32) {
	in, lo, hi := j.kernelArgs()
	nb := uint64(blocks)
	for first := 0; first < j.n; {
		switch n := j.n - first; {
		case useAVX512 && n > 8:
			hashManyAVX512x16((*[16]*byte)(in[first:]), nb, key, (*[16]uint32)(lo[first:]), (*[16]uint32)(hi[first:]),
				flags, flagsStart, flagsEnd, (*[16][8]uint32)(out[first:]))
			first += 16
		case useAVX2 && n > 4:
			in, lo, hi, o := (*[8]*byte)(in[first:]), (*[8]uint32)(lo[first:]), (*[8]uint32)(hi[first:]), (*[8][8]uint32)(out[first:])
			if useAVX512 {
				hashManyAVX512(in, nb, key, lo, hi, flags, flagsStart, flagsEnd, o)
			} else {
				hashManyAVX2(in, nb, key, lo, hi, flags, flagsStart, flagsEnd, o)
			}
			first += 8
		case useSSE41 && n > 1:
			in, lo, hi, o := (*[4]*byte)(in[first:]), (*[4]uint32)(lo[first:]), (*[4]uint32)(hi[first:]), (*[4][8]uint32)(out[first:])
			switch {
			case useAVX512:
				hashManyAVX512x4(in, nb, key, lo, hi, flags, flagsStart, flagsEnd, o)
			case useAVX2:
				hashManyAVX(in, nb, key, lo, hi, flags, flagsStart, flagsEnd, o)
			default:
				hashManySSE41(in, nb, key, lo, hi, flags, flagsStart, flagsEnd, o)
			}
			first += 4
		default:
			out[first] = hashLane(j.inputs[first], j.counters[first], blocks, key, flags, flagsStart, flagsEnd)
			first++
		}
	}
}
