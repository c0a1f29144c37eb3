//go:build (amd64 || arm64) && !purego

package field

func product(a, b Elem) [4]uint64 {
	if !useCLMUL {
		return productGeneric(a, b)
	}
	var r [4]uint64
	productCLMUL(a.Lo, a.Hi, b.Lo, b.Hi, &r)
	return r
}
