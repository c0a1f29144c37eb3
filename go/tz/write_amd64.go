//go:build amd64 && !purego

package tz

import (
	"sync"

	"golang.org/x/sys/cpu"
)

//go:generate sh -c "cd ../internal/asmgen && go run ./tz -pkg tz -out ../../tz/tz_amd64.s -stubs ../../tz/tz_stubs_amd64.go"

// useCLMUL selects the window kernel; tests switch it off to cover the
// bit-serial code on the same CPU.
var useCLMUL = cpu.X86.HasPCLMULQDQ && cpu.X86.HasAVX2

var (
	pairTableOnce sync.Once
	pairTable     *[65536][4]uint32
)

func (d *digest) write(p []byte) {
	if !useCLMUL {
		if d.hasPending {
			mulBitsGeneric(&d.m, []byte{d.pending})
			d.hasPending = false
		}
		mulBitsGeneric(&d.m, p)
		return
	}
	if len(p) == 0 {
		return
	}
	pairTableOnce.Do(func() { pairTable = newPairTable() })
	var st [8]uint64
	for i, e := range d.m {
		st[2*i], st[2*i+1] = e.lo, e.hi
	}
	if d.hasPending {
		pair := [2]byte{d.pending, p[0]}
		mulPairsCLMUL(&st, pairTable, &pair[0], 1)
		d.hasPending = false
		p = p[1:]
	}
	if n := len(p) / 2; n > 0 {
		mulPairsCLMUL(&st, pairTable, &p[0], uint64(n))
	}
	if len(p)%2 == 1 {
		d.pending, d.hasPending = p[len(p)-1], true
	}
	for i := range d.m {
		d.m[i] = gf127{st[2*i], st[2*i+1]}.reduce()
	}
}
