//go:build !purego

package tz

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd ../internal/asmgen && go run ./tz -pkg tz -out ../../tz/tz_amd64.s -stubs ../../tz/tz_stubs_amd64.go"

// useCLMUL selects the window kernel; tests switch it off to cover the
// bit-serial code on the same CPU.
var useCLMUL = cpu.X86.HasPCLMULQDQ && cpu.X86.HasAVX2
