//go:build !purego

package field

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd ../asmgen && go run ./field -pkg field -out ../field/field_amd64.s -stubs ../field/field_stubs_amd64.go"

// useCLMUL selects PCLMULQDQ for products.
var useCLMUL = cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSE41
