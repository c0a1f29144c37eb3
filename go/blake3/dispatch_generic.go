//go:build purego || !amd64

package blake3

func compress(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32, out *[BlockSize]byte) {
	compressGeneric(cv, block, counter, blockLen, flags, out)
}

func compressCV(cv *[8]uint32, block *[BlockSize]byte, counter uint64, blockLen, flags uint32) {
	compressCVGeneric(cv, block, counter, blockLen, flags)
}

func compressBlocks(cv *[8]uint32, data []byte, counter uint64, flags, flagsStart uint32) {
	compressBlocksGeneric(cv, data, counter, flags, flagsStart)
}

// parentsInPlace has no kernel here: reduceLevel does all the parents.
func parentsInPlace(cvs [][8]uint32, key *[8]uint32, flags uint32) int { return 0 }
