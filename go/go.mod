module github.com/arborhash/arborhash/go

go 1.20

require (
	github.com/nspcc-dev/tzhash v1.8.0
	github.com/zeebo/blake3 v0.2.4
	golang.org/x/sys v0.30.0
	lukechampine.com/blake3 v1.3.0
)

require github.com/klauspost/cpuid/v2 v2.0.12 // indirect
