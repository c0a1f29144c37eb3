//go:build purego || (!amd64 && !arm64)

package tz

func (d *digest) write(p []byte) { mulBitsGeneric(&d.m, p) }
