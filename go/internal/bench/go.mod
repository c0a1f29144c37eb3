module github.com/arborhash/arborhash/go/internal/bench

go 1.22

require (
	github.com/arborhash/arborhash/go v0.0.0
	github.com/zeebo/blake3 v0.2.4
	lukechampine.com/blake3 v1.4.1
)

require (
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	golang.org/x/sys v0.30.0 // indirect
)

replace github.com/arborhash/arborhash/go => ../..
