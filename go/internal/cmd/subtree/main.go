// Command subtree is one step of a BLAKE3 tree built in parts, the Go side
// of the cross-language test, with the arguments of the Rust example
// arborhash/examples/subtree.rs:
//
//	subtree cv FILE OFFSET LEN | parent LEFT RIGHT | root LEFT RIGHT OUT_LEN
//
// It prints the chaining value or output as hex; an error goes to standard
// error with exit status 1.
package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/arborhash/arborhash/go/blake3"
)

func main() {
	out, err := run(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "subtree:", err)
		os.Exit(1)
	}
	fmt.Println(hex.EncodeToString(out))
}

// maxOutLen bounds OUT_LEN, as the C command does.
const maxOutLen = 1 << 20

var errUsage = errors.New("usage: subtree cv FILE OFFSET LEN | parent LEFT RIGHT | root LEFT RIGHT OUT_LEN")

func run(args []string) ([]byte, error) {
	switch {
	case len(args) == 4 && args[0] == "cv":
		offset, err1 := strconv.ParseUint(args[2], 10, 64)
		n, err2 := strconv.ParseUint(args[3], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, errors.New("OFFSET and LEN are whole numbers")
		}
		data, err := os.ReadFile(args[1])
		if err != nil {
			return nil, err
		}
		if offset > uint64(len(data)) || n > uint64(len(data))-offset {
			return nil, fmt.Errorf("%s has no bytes %d..%d+%d", args[1], offset, offset, n)
		}
		cv, err := blake3.HashSubtree(blake3.HashMode(), offset, data[offset:offset+n])
		return cv[:], err
	case len(args) == 3 && args[0] == "parent", len(args) == 4 && args[0] == "root":
		left, err1 := chainingValue(args[1])
		right, err2 := chainingValue(args[2])
		if err1 != nil || err2 != nil {
			return nil, errors.New("LEFT and RIGHT are 32 bytes of hex")
		}
		if args[0] == "parent" {
			cv := blake3.MergeSubtreesNonRoot(left, right, blake3.HashMode())
			return cv[:], nil
		}
		n, err := strconv.ParseUint(args[3], 10, 64)
		if err != nil || n > maxOutLen {
			return nil, errors.New("OUT_LEN is a whole number up to 1 MiB")
		}
		out := make([]byte, n)
		_, _ = blake3.MergeSubtreesRootXOF(left, right, blake3.HashMode()).Read(out)
		return out, nil
	}
	return nil, errUsage
}

func chainingValue(s string) (blake3.ChainingValue, error) {
	var cv blake3.ChainingValue
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(cv) {
		return cv, errors.New("not 32 bytes of hex")
	}
	copy(cv[:], b)
	return cv, nil
}
