//go:build !purego

package field

import "golang.org/x/sys/cpu"

// useCLMUL selects PMULL for products.
var useCLMUL = cpu.ARM64.HasPMULL

// productCLMUL writes the carry-less product of a and b to r, low word
// first; see field_arm64.s.
//
//go:noescape
func productCLMUL(aLo, aHi, bLo, bHi uint64, r *[4]uint64)
