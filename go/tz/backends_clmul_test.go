//go:build (amd64 || arm64) && !purego

package tz

import "testing"

// forEachBackend runs f with the bit-serial code and, where the CPU has it,
// the carry-less multiply window kernel (PCLMULQDQ, PMULL).
func forEachBackend(t *testing.T, f func(t *testing.T)) {
	saved := useCLMUL
	defer func() { useCLMUL = saved }()
	useCLMUL = false
	t.Run("generic", f)
	if saved {
		useCLMUL = true
		t.Run("clmul", f)
	}
}
