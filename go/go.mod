module github.com/arborhash/arborhash/go

go 1.26.8

require (
	github.com/zeebo/blake3 v0.2.4
	golang.org/x/sys v0.49.0
)

require (
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/nspcc-dev/tzhash v1.8.0 // indirect
	lukechampine.com/blake3 v1.4.1 // indirect
)
