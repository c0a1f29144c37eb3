//go:build (amd64 || arm64) && !purego

package tz

import "sync"

var (
	tablesOnce sync.Once
	pairTable  *[65536][4]uint32
	byteTable  *[256][2]uint64
)

func (d *digest) write(p []byte) {
	if !useCLMUL {
		mulBitsGeneric(&d.m, d.pending[:d.npending])
		d.npending = 0
		mulBitsGeneric(&d.m, p)
		return
	}
	if d.npending+len(p) < windowBytes {
		d.npending += copy(d.pending[d.npending:], p)
		return
	}
	tablesOnce.Do(func() { pairTable, byteTable = newPairTable(), newByteColumnTable() })
	var st [8]uint64
	for i, e := range d.m {
		st[2*i], st[2*i+1] = e.Lo, e.Hi
	}
	if d.npending > 0 {
		var w [windowBytes]byte
		k := copy(w[:], d.pending[:d.npending])
		p = p[copy(w[k:], p):]
		mulTriplesCLMUL(&st, pairTable, byteTable, &w[0], 1)
	}
	if n := len(p) / windowBytes; n > 0 {
		mulTriplesCLMUL(&st, pairTable, byteTable, &p[0], uint64(n))
	}
	d.npending = copy(d.pending[:], p[len(p)/windowBytes*windowBytes:])
	for i := range d.m {
		d.m[i] = gf127e{Lo: st[2*i], Hi: st[2*i+1]}.Reduce()
	}
}
