//go:build purego || (!amd64 && !arm64)

package blake3

func hashMany(j *laneJob, blocks int, key *[8]uint32, flags, flagsStart, flagsEnd uint32, out *[maxLanes][8]uint32) {
	hashManyGeneric(j, blocks, key, flags, flagsStart, flagsEnd, out)
}
