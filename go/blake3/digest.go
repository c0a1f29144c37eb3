package blake3

import (
	"errors"
	"io"
)

// Digest reads the extended output of a finished hash. It implements
// io.Reader and io.Seeker (from the start or the current position).
type Digest struct {
	out   output
	pos   uint64 // absolute byte position of the next Read
	block [BlockSize]byte
	// have is true when block holds output block pos/BlockSize.
	have bool
}

// Read fills p with the next len(p) bytes of output. It never fails; the
// output wraps around after 2^64 bytes.
func (d *Digest) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		off := int(d.pos % BlockSize)
		if off == 0 && len(p) >= BlockSize {
			d.out.rootBlock(d.pos/BlockSize, (*[BlockSize]byte)(p))
			p = p[BlockSize:]
			d.pos += BlockSize
			d.have = false
			continue
		}
		if !d.have {
			d.out.rootBlock(d.pos/BlockSize, &d.block)
			d.have = true
		}
		c := copy(p, d.block[off:])
		p = p[c:]
		d.pos += uint64(c)
		if d.pos%BlockSize == 0 {
			d.have = false
		}
	}
	return n, nil
}

// Seek moves the read position. io.SeekEnd is not supported (the output has
// no end).
func (d *Digest) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += int64(d.pos)
	case io.SeekEnd:
		return 0, errors.New("blake3: seek from end not supported")
	default:
		return 0, errors.New("blake3: invalid whence")
	}
	if offset < 0 {
		return 0, errors.New("blake3: seek before start")
	}
	d.setPos(uint64(offset))
	return offset, nil
}

// setPos moves the read position to byte pos of the output.
func (d *Digest) setPos(pos uint64) {
	if pos/BlockSize != d.pos/BlockSize {
		d.have = false
	}
	d.pos = pos
}
