// Package bao is lukechampine.com/blake3/bao's API (v1.3.0) on the
// arborhash Bao implementation (package github.com/arborhash/arborhash/go/bao):
// switching is a change of import path. Encodings are the same bytes for
// every group; only the differences below remain.
//
//   - Groups run from 0 to 16 (64 MiB leaves); beyond, EncodedSize returns
//     -1, EncodeBuf nil and a zero root, Encode an error, and the decoding
//     and verifying functions false.
//   - Encode reads the whole content into memory before it encodes.
//   - Nothing panics: a dataLen that the data does not hold is an error, a
//     buffer too small for WriteAt is the WriterAt's error.
package bao

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	ours "github.com/arborhash/arborhash/go/bao"
)

// EncodedSize returns the size of a Bao encoding of dataLen bytes with
// chunk groups of 2^group chunks, or -1 for a negative length or a group
// outside 0 to 16.
func EncodedSize(dataLen int, group int, outboard bool) int {
	if dataLen < 0 {
		return -1
	}
	size, err := ours.OutboardSize(uint64(dataLen), group)
	if !outboard && err == nil {
		size, err = ours.EncodedSize(uint64(dataLen), group)
	}
	if err != nil || size > uint64(int(^uint(0)>>1)) {
		return -1
	}
	return int(size)
}

// Encode reads dataLen bytes of data and writes their encoding (with the
// content when outboard is false) to dst, and returns the root hash.
func Encode(dst io.WriterAt, data io.Reader, dataLen int64, group int, outboard bool) ([32]byte, error) {
	if dataLen < 0 {
		return [32]byte{}, errors.New("bao: negative data length")
	}
	content, err := io.ReadAll(io.LimitReader(data, dataLen))
	if err != nil {
		return [32]byte{}, err
	}
	if int64(len(content)) != dataLen {
		return [32]byte{}, io.ErrUnexpectedEOF
	}
	enc, root, err := encode(content, group, outboard)
	if err != nil {
		return [32]byte{}, err
	}
	_, err = dst.WriteAt(enc, 0)
	return root, err
}

func encode(content []byte, group int, outboard bool) ([]byte, [32]byte, error) {
	if outboard {
		return ours.Outboard(content, group)
	}
	return ours.Encode(content, group)
}

// EncodeBuf returns the Bao encoding and root (the BLAKE3 hash) of data.
func EncodeBuf(data []byte, group int, outboard bool) ([]byte, [32]byte) {
	enc, root, err := encode(data, group, outboard)
	if err != nil {
		return nil, [32]byte{}
	}
	return enc, root
}

// result turns a decoding error into lukechampine's results: false with no
// error for data that fails verification, a truncation as
// io.ErrUnexpectedEOF.
func result(err error) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ours.ErrMismatch), errors.Is(err, ours.ErrInvalidGroupLog):
		return false, nil
	case errors.Is(err, ours.ErrTruncated), errors.Is(err, ours.ErrLengthOverflow):
		return false, io.ErrUnexpectedEOF
	}
	return false, err
}

// copyOut copies the verified bytes of r to dst; a failure to write is
// returned as such, one of r through result.
func copyOut(dst io.Writer, r io.Reader) (bool, error) {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return false, werr
			}
		}
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return result(err)
		}
	}
}

// header reads the length header from r.
func header(r io.Reader) ([]byte, uint64, error) {
	h := make([]byte, ours.HeaderSize)
	if _, err := io.ReadFull(r, h); err != nil {
		return nil, 0, err
	}
	return h, binary.LittleEndian.Uint64(h), nil
}

// Decode reads content and tree data from the provided reader(s), and
// streams the verified content to dst. It returns false if verification
// fails. If the content and tree data are interleaved, outboard should be
// nil. It reads no further than the encoding.
func Decode(dst io.Writer, data, outboard io.Reader, group int, root [32]byte) (bool, error) {
	tree := outboard
	if tree == nil {
		tree = data
	}
	h, n, err := header(tree)
	if err != nil {
		return false, err
	}
	size, err := ours.OutboardSize(n, group)
	if outboard == nil && err == nil {
		size, err = ours.EncodedSize(n, group)
	}
	if err != nil {
		return result(err)
	}
	rest := io.MultiReader(bytes.NewReader(h), io.LimitReader(tree, int64(min64(size-ours.HeaderSize, 1<<62))))
	var d io.Reader
	if outboard == nil {
		d = ours.NewDecoder(rest, root, group)
	} else {
		d = ours.NewOutboardDecoder(io.LimitReader(data, int64(min64(n, 1<<62))), rest, root, group)
	}
	return copyOut(dst, d)
}

func min64(a, b uint64) uint64 {
	if a < b {
		return a
	}
	return b
}

// VerifyBuf verifies the Bao encoding and root (the BLAKE3 hash) of data,
// and that nothing follows the encoding. If the content and tree data are
// interleaved, outboard should be nil.
func VerifyBuf(data, outboard []byte, group int, root [32]byte) bool {
	var d io.Reader
	if outboard == nil {
		d = ours.NewDecoder(bytes.NewReader(data), root, group)
	} else {
		d = ours.NewOutboardDecoder(bytes.NewReader(data), bytes.NewReader(outboard), root, group)
	}
	ok, _ := copyOut(io.Discard, d)
	return ok
}

// forward is an io.ReaderAt over a stream read once, in order, whose first
// byte is at offset base: the extractor asks for its nodes in order.
type forward struct {
	r    io.Reader
	next int64 // the offset of the stream's next byte
}

func (f *forward) ReadAt(p []byte, off int64) (int, error) {
	if off < f.next {
		return 0, errors.New("bao: the slice's nodes are out of order")
	}
	if _, err := io.CopyN(io.Discard, f.r, off-f.next); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(f.r, p)
	f.next = off + int64(n)
	return n, err
}

// ExtractSlice writes the slice encoding for the given offset and length
// to dst. When extracting from an outboard encoding, data should contain
// only the chunk groups that the slice holds.
func ExtractSlice(dst io.Writer, data, outboard io.Reader, group int, offset uint64, length uint64) error {
	if _, err := ours.OutboardSize(0, group); err != nil {
		return err
	}
	tree := outboard
	if tree == nil {
		tree = data
	}
	h, n, err := header(tree)
	if err != nil {
		return err
	}
	if _, err := dst.Write(h); err != nil {
		return err
	}
	if n < offset+length || offset+length < offset {
		return errors.New("invalid slice length")
	}
	if length == 0 {
		return nil // no node overlaps an empty range
	}
	treeAt := &forward{r: io.MultiReader(bytes.NewReader(h), tree)}
	var e io.Reader
	if outboard == nil {
		e = ours.NewSliceExtractor(treeAt, offset, length, group)
	} else {
		groupLen := uint64(1024) << group
		base := int64(offset / groupLen * groupLen)
		e = ours.NewOutboardSliceExtractor(&forward{r: data, next: base}, treeAt, offset, length, group)
	}
	// The header is written already.
	_, err = io.CopyN(io.Discard, e, ours.HeaderSize)
	if err == nil {
		_, err = io.Copy(dst, e)
	}
	if errors.Is(err, ours.ErrTruncated) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// DecodeSlice reads from data, which must contain a slice encoding for the
// given offset and length, and streams verified content to dst. It returns
// false if verification fails. It reads no further than the slice.
func DecodeSlice(dst io.Writer, data io.Reader, group int, offset, length uint64, root [32]byte) (bool, error) {
	h, n, err := header(data)
	if err != nil {
		return false, err
	}
	if n < offset+length || offset+length < offset {
		return false, errors.New("invalid slice length")
	}
	if length == 0 {
		return true, nil // nothing to verify or write
	}
	size, err := ours.SliceSize(n, offset, length, group)
	if err != nil {
		return result(err)
	}
	rest := io.MultiReader(bytes.NewReader(h), io.LimitReader(data, int64(min64(size-ours.HeaderSize, 1<<62))))
	return copyOut(dst, ours.NewSliceDecoder(rest, root, offset, length, group))
}

// VerifySlice verifies the Bao slice encoding in data, returning the
// verified bytes.
func VerifySlice(data []byte, group int, offset uint64, length uint64, root [32]byte) ([]byte, bool) {
	r := bytes.NewReader(data)
	var buf bytes.Buffer
	if ok, _ := DecodeSlice(&buf, r, group, offset, length, root); !ok || r.Len() > 0 {
		return nil, false
	}
	return buf.Bytes(), true
}

// VerifyChunk verifies the chunk groups in chunks, which start at offset,
// with a full outboard encoding. As lukechampine's, it is false for empty
// content.
func VerifyChunk(chunks, outboard []byte, group int, offset uint64, root [32]byte) bool {
	if len(outboard) < ours.HeaderSize {
		return false
	}
	n := binary.LittleEndian.Uint64(outboard)
	size, err := ours.OutboardSize(n, group)
	length := uint64(len(chunks))
	if err != nil || n == 0 || size != uint64(len(outboard)) || n < offset+length || offset+length < offset {
		return false
	}
	if length == 0 {
		return true // no node overlaps an empty range
	}
	var slice bytes.Buffer
	if ExtractSlice(&slice, bytes.NewReader(chunks), bytes.NewReader(outboard), group, offset, length) != nil {
		return false
	}
	_, ok := VerifySlice(slice.Bytes(), group, offset, length, root)
	return ok
}
