package blake3

// The assembly is generated on any machine, for both architectures.
//go:generate sh -c "cd ../internal/asmgen && go run ./blake3 -pkg blake3 -out ../../blake3/blake3_amd64.s -stubs ../../blake3/blake3_stubs_amd64.go"
//go:generate sh -c "cd ../internal/asmgen && go run ./blake3 -neon ../../blake3/blake3_arm64.s"
