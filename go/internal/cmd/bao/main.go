// Command bao encodes and decodes Bao with the go/bao package, the Go side
// of the cross-language Bao test (js/test/bao-cross-language.test.js):
//
//	bao encode G INPUT OUTPUT | outboard G INPUT OUTPUT
//	bao decode G HASH ENCODING OUTPUT | decode-outboard G HASH CONTENT OUTBOARD OUTPUT
//
// G is the group log (leaves of 2^G chunks). Encoding prints the hash as
// hex; decoding writes the verified content. An error goes to standard
// error with exit status 1; a rejected encoding leaves OUTPUT holding only
// the bytes verified before it.
package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/arborhash/arborhash/go/bao"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bao:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage: bao encode|outboard G INPUT OUTPUT | decode G HASH ENCODING OUTPUT | decode-outboard G HASH CONTENT OUTBOARD OUTPUT")

func run(args []string) error {
	if len(args) < 2 {
		return errUsage
	}
	g, err := strconv.Atoi(args[1])
	if err != nil {
		return errors.New("G is a whole number")
	}
	switch {
	case len(args) == 4 && (args[0] == "encode" || args[0] == "outboard"):
		content, err := os.ReadFile(args[2])
		if err != nil {
			return err
		}
		encode := bao.Encode
		if args[0] == "outboard" {
			encode = bao.Outboard
		}
		encoding, hash, err := encode(content, g)
		if err != nil {
			return err
		}
		if err := os.WriteFile(args[3], encoding, 0o644); err != nil {
			return err
		}
		fmt.Println(hex.EncodeToString(hash[:]))
		return nil
	case len(args) == 5 && args[0] == "decode", len(args) == 6 && args[0] == "decode-outboard":
		var hash [32]byte
		b, err := hex.DecodeString(args[2])
		if err != nil || len(b) != len(hash) {
			return errors.New("HASH is 32 bytes of hex")
		}
		copy(hash[:], b)
		files := make([]*os.File, 0, 2)
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
		for _, name := range args[3 : len(args)-1] {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			files = append(files, f)
		}
		var d *bao.Decoder
		if len(files) == 1 {
			d = bao.NewDecoder(files[0], hash, g)
		} else {
			d = bao.NewOutboardDecoder(files[0], files[1], hash, g)
		}
		out, err := os.Create(args[len(args)-1])
		if err != nil {
			return err
		}
		_, err = io.Copy(out, d)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return errUsage
}
