//go:build !purego

package tz

import "golang.org/x/sys/cpu"

// useCLMUL selects the window kernel (PMULL, the crypto extension's
// carry-less multiply); tests switch it off to cover the bit-serial code.
var useCLMUL = cpu.ARM64.HasPMULL

// mulTriplesCLMUL right-multiplies state (c00, c01, c10, c11, each lo, hi)
// by the window matrix of each three bytes of data; see tz_arm64.s.
//
//go:noescape
func mulTriplesCLMUL(state *[8]uint64, table16 *[65536][4]uint32, table8 *[256][2]uint64, data *byte, triples uint64)
