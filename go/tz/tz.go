// Package tz implements the Tillich-Zémor hash over GF(2^127) (modulus
// x^127 + x^63 + 1), byte-compatible with github.com/nspcc-dev/tzhash/tz.
//
// The hash of a message is the product of one 2x2 matrix per bit, so hashes
// of parts combine into the hash of the whole (Concat) and parts can be
// removed again (SubtractR, SubtractL). It is a homomorphic integrity
// checksum kept for compatibility; practical collision and preimage attacks
// are published, so it is not a secure hash.
//
// On amd64 and arm64 the hash multiplies by three-byte window matrices,
// built from precomputed one- and two-byte matrices, with a carry-less
// multiply (PCLMULQDQ, PMULL); the pure Go fallback (build tag purego, other
// architectures, CPUs without AVX2 or PMULL) works bit by bit.
package tz

import (
	"crypto/subtle"
	"errors"
	"hash"
)

// Size is the size of a Tillich-Zémor hash in bytes.
const Size = 64

const blockSize = 128

// digest is the streaming hasher.
type digest struct {
	m sl2
	// pending holds the first bytes of a window whose remaining bytes have
	// not been written yet (window kernel only).
	pending  [windowBytes - 1]byte
	npending int
}

// windowBytes is the number of bytes the window kernel consumes at once.
const windowBytes = 3

// New returns a hash.Hash computing the Tillich-Zémor hash. It also
// implements encoding.BinaryMarshaler and encoding.BinaryUnmarshaler for its
// state, in tzhash's encoding.
func New() hash.Hash {
	d := &digest{}
	d.Reset()
	return d
}

// Sum returns the Tillich-Zémor hash of data.
func Sum(data []byte) [Size]byte {
	var d digest
	d.Reset()
	d.write(data)
	return d.checkSum()
}

func (d *digest) Reset() {
	d.m = identity
	d.npending = 0
}

func (d *digest) Size() int      { return Size }
func (d *digest) BlockSize() int { return blockSize }

func (d *digest) Write(p []byte) (int, error) {
	d.write(p)
	return len(p), nil
}

func (d *digest) Sum(b []byte) []byte {
	s := d.checkSum()
	return append(b, s[:]...)
}

func (d *digest) checkSum() [Size]byte {
	m := d.m
	mulBitsGeneric(&m, d.pending[:d.npending])
	return m.bytes()
}

// MarshalBinary encodes the state like tzhash does: the matrix entries in
// column-major order (c00, c10, c01, c11), each 16 bytes big-endian.
func (d *digest) MarshalBinary() ([]byte, error) {
	m := d.m
	mulBitsGeneric(&m, d.pending[:d.npending])
	b := make([]byte, Size)
	for i, e := range [4]gf127e{m[0], m[2], m[1], m[3]} {
		put(e, b[16*i:])
	}
	return b, nil
}

// UnmarshalBinary restores a state written by MarshalBinary (or tzhash).
func (d *digest) UnmarshalBinary(b []byte) error {
	if len(b) != Size {
		return errors.New("tz: invalid hash state size")
	}
	var e [4]gf127e
	for i := range e {
		var err error
		if e[i], err = get(b[16*i:]); err != nil {
			return err
		}
	}
	d.m = sl2{e[0], e[2], e[1], e[3]}
	d.npending = 0
	return nil
}

// Concat returns the hash of the concatenation of the messages whose hashes
// are hs (the ordered matrix product).
func Concat(hs [][]byte) ([]byte, error) {
	r := identity
	for _, h := range hs {
		m, err := parseSL2(h)
		if err != nil {
			return nil, err
		}
		r = r.mul(&m)
	}
	b := r.bytes()
	return b[:], nil
}

// Validate reports whether h equals Concat(hs), compared in constant time.
func Validate(h []byte, hs [][]byte) (bool, error) {
	if len(h) != Size {
		return false, errors.New("tz: invalid hash")
	}
	if len(hs) == 0 {
		return false, errors.New("tz: empty slice")
	}
	c, err := Concat(hs)
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(h, c) == 1, nil
}

// SubtractR returns a such that Concat(a, b) == c, i.e. c·b^-1. It returns
// an error if b is not invertible (determinant 0, which no hash of a message
// has), where tzhash's SubtractR does not return.
func SubtractR(c, b []byte) ([]byte, error) {
	mc, err := parseSL2(c)
	if err != nil {
		return nil, err
	}
	mb, err := parseSL2(b)
	if err != nil {
		return nil, err
	}
	inv, err := mb.inv()
	if err != nil {
		return nil, err
	}
	r := mc.mul(&inv)
	s := r.bytes()
	return s[:], nil
}

// SubtractL returns b such that Concat(a, b) == c, i.e. a^-1·c. It returns
// an error if a is not invertible, like SubtractR.
func SubtractL(c, a []byte) ([]byte, error) {
	mc, err := parseSL2(c)
	if err != nil {
		return nil, err
	}
	ma, err := parseSL2(a)
	if err != nil {
		return nil, err
	}
	inv, err := ma.inv()
	if err != nil {
		return nil, err
	}
	r := inv.mul(&mc)
	s := r.bytes()
	return s[:], nil
}
