//go:build purego || (!amd64 && !arm64)

package field

func product(a, b Elem) [4]uint64 { return productGeneric(a, b) }
