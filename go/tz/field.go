package tz

import (
	"encoding/binary"
	"errors"

	"github.com/arborhash/arborhash/go/gf127"
	"github.com/arborhash/arborhash/go/internal/field"
)

// GF127 is an element of GF(2^127), as in tzhash's tz package.
type GF127 = gf127.GF127

// gf127e is the value form of an element that the hash computes with.
type gf127e = field.Elem

func put(a gf127e, b []byte) {
	binary.BigEndian.PutUint64(b, a.Hi)
	binary.BigEndian.PutUint64(b[8:], a.Lo)
}

var errMSB = errors.New("tz: invalid hash: an element has its most significant bit set")

func get(b []byte) (gf127e, error) {
	a := gf127e{Lo: binary.BigEndian.Uint64(b[8:]), Hi: binary.BigEndian.Uint64(b)}
	if a.Hi>>63 != 0 {
		return a, errMSB
	}
	return a, nil
}
