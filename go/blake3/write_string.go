package blake3

import "unsafe"

// updateString hashes s in place: the kernels only read their input.
func (h *hasher) updateString(s string) {
	h.update(unsafe.Slice(unsafe.StringData(s), len(s)))
}
