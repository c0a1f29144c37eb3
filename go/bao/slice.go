package bao

import (
	"encoding/binary"
	"io"
	"math"
)

// SliceExtractor reads the slice of count bytes from start out of an
// encoding, reading only the nodes the slice holds. It verifies nothing: the
// receiver's SliceDecoder does.
type SliceExtractor struct {
	layout
	content, tree io.ReaderAt // content is nil for a combined encoding
	span          span
	err           error
	started       bool
	sel           selection
	stack         []extractNode
	buf           []byte
	out           []byte
}

// extractNode is a node to visit and where it is in the encoding (after the
// header).
type extractNode struct {
	node
	at uint64
}

// NewSliceExtractor returns a SliceExtractor from the combined encoding in
// encoded (from its offset 0).
func NewSliceExtractor(encoded io.ReaderAt, start, count uint64, groupLog int) *SliceExtractor {
	l, err := newLayout(groupLog, false)
	return &SliceExtractor{layout: l, tree: encoded, span: span{start, count}, err: err}
}

// NewOutboardSliceExtractor returns a SliceExtractor from content and its
// outboard encoding.
func NewOutboardSliceExtractor(content, outboard io.ReaderAt, start, count uint64, groupLog int) *SliceExtractor {
	l, err := newLayout(groupLog, true)
	return &SliceExtractor{layout: l, content: content, tree: outboard, span: span{start, count}, err: err}
}

// Read reads the slice into p.
func (e *SliceExtractor) Read(p []byte) (int, error) {
	for len(e.out) == 0 {
		if e.err != nil {
			return 0, e.err
		}
		if len(p) == 0 {
			return 0, nil
		}
		e.err = e.next()
	}
	n := copy(p, e.out)
	e.out = e.out[n:]
	return n, nil
}

// readAt reads len(p) bytes at off of r, a short read being a truncation at
// the node for content offset at.
func readAt(r io.ReaderAt, p []byte, off uint64, at uint64) error {
	if off > math.MaxInt64-uint64(len(p)) {
		return &OffsetError{ErrTruncated, at}
	}
	n, err := r.ReadAt(p, int64(off))
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		return &OffsetError{ErrTruncated, at}
	}
	return err
}

func (e *SliceExtractor) next() error {
	if !e.started {
		e.started = true
		e.buf = grow(e.buf, HeaderSize)
		if err := readAt(e.tree, e.buf, 0, 0); err != nil {
			return err
		}
		n := binary.LittleEndian.Uint64(e.buf)
		if _, ok := e.size(n); !ok {
			return ErrLengthOverflow
		}
		e.sel = e.span.selection(n)
		e.stack = append(e.stack, extractNode{node: node{len: n, root: true}})
		e.out = e.buf
		return nil
	}
	if len(e.stack) == 0 {
		return io.EOF
	}
	nd := e.stack[len(e.stack)-1]
	e.stack = e.stack[:len(e.stack)-1]
	if e.isLeaf(nd.len) {
		e.buf = grow(e.buf, nd.len)
		var err error
		if e.content != nil {
			err = readAt(e.content, e.buf, nd.start, nd.start)
		} else {
			err = readAt(e.tree, e.buf, HeaderSize+nd.at, nd.start)
		}
		e.out = e.buf
		return err
	}
	e.buf = grow(e.buf, ParentSize)
	if err := readAt(e.tree, e.buf, HeaderSize+nd.at, nd.start); err != nil {
		return err
	}
	e.out = e.buf
	left := split(nd.len)
	ls, _ := e.size(left)
	children := [2]extractNode{
		{node{start: nd.start + left, len: nd.len - left}, nd.at + ParentSize + ls},
		{node{start: nd.start, len: left}, nd.at + ParentSize},
	}
	for i := range children {
		if e.sel.selects(&children[i].node) {
			e.stack = append(e.stack, children[i])
		}
	}
	return nil
}

// SliceSize returns the size of the slice of count bytes from start of the
// content of n bytes.
func SliceSize(n, start, count uint64, groupLog int) (uint64, error) {
	l, err := newLayout(groupLog, false)
	if err != nil {
		return 0, err
	}
	if _, ok := l.size(n); !ok {
		return 0, ErrLengthOverflow
	}
	sel := (&span{start, count}).selection(n)
	var size func(start, n uint64) uint64
	size = func(start, n uint64) uint64 {
		if l.isLeaf(n) {
			return n
		}
		s := uint64(ParentSize)
		left := split(n)
		if sel.start < start+left {
			s += size(start, left)
		}
		if start+left < sel.end {
			s += size(start+left, n-left)
		}
		return s
	}
	return HeaderSize + size(0, n), nil
}
