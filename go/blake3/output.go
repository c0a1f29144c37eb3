package blake3

import "encoding/binary"

// output is a compression whose flags and counter are not yet final: the
// root node's output is expanded into any number of bytes by compressing it
// with flagRoot and an output block counter.
type output struct {
	cv       [8]uint32
	block    [BlockSize]byte
	counter  uint64
	blockLen uint32
	flags    uint32
}

func (o *output) chainingValue() [8]uint32 {
	cv := o.cv
	compressCV(&cv, &o.block, o.counter, o.blockLen, o.flags)
	return cv
}

// rootBlock writes the 64 output bytes at output block index n.
func (o *output) rootBlock(n uint64, dst *[BlockSize]byte) {
	compress(&o.cv, &o.block, n, o.blockLen, o.flags|flagRoot, dst)
}

func wordsToBytes(w []uint32, b []byte) {
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
}

func bytesToWords(b []byte, w []uint32) {
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
}
