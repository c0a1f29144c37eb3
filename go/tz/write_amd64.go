//go:build amd64 && !purego

package tz

func (d *digest) write(p []byte) { mulBitsGeneric(&d.m, p) }
