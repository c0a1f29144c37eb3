package bao

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"io"
	"math"

	"github.com/arborhash/arborhash/go/blake3"
)

// Decoder reads a combined or outboard encoding and returns only verified
// content. It reads its streams in order and never seeks. After an error
// every later Read returns it too.
type Decoder struct {
	w walker
}

// NewDecoder returns a Decoder of the combined encoding read from r, for
// the content whose BLAKE3 hash is hash. An invalid group log is an error
// at the first Read.
func NewDecoder(r io.Reader, hash [32]byte, groupLog int) *Decoder {
	return &Decoder{w: newWalker(r, nil, hash, groupLog, nil)}
}

// NewOutboardDecoder returns a Decoder of content read from content and
// checked against the outboard encoding read from outboard.
func NewOutboardDecoder(content, outboard io.Reader, hash [32]byte, groupLog int) *Decoder {
	return &Decoder{w: newWalker(content, outboard, hash, groupLog, nil)}
}

// Read reads verified content into p. At the end of the content it checks
// that the streams hold nothing more (ErrTrailingData) before io.EOF.
func (d *Decoder) Read(p []byte) (int, error) { return d.w.read(p) }

// SliceDecoder reads a slice (from a SliceExtractor) and returns the
// verified bytes of the requested range, capped at the end of the content.
type SliceDecoder struct {
	w walker
}

// NewSliceDecoder returns a SliceDecoder of the slice of count bytes from
// start read from r (the same start, count and group log it was extracted
// with), checked against the whole content's hash.
func NewSliceDecoder(r io.Reader, hash [32]byte, start, count uint64, groupLog int) *SliceDecoder {
	return &SliceDecoder{w: newWalker(r, nil, hash, groupLog, &span{start, count})}
}

// Read reads verified bytes of the slice's range into p.
func (d *SliceDecoder) Read(p []byte) (int, error) { return d.w.read(p) }

// span is a slice request.
type span struct{ start, count uint64 }

// selection is the content a walk visits (start, end) and outputs
// (outStart, outEnd); see the package documentation for slices.
type selection struct{ start, end, outStart, outEnd uint64 }

func (s *span) selection(n uint64) selection {
	if s == nil {
		return selection{0, n, 0, n}
	}
	end := s.start + s.count
	if end < s.start {
		end = math.MaxUint64
	}
	sel := selection{outStart: min64(s.start, n), outEnd: min64(end, n)}
	if s.start >= n {
		sel.start, sel.end = n-min64(n, 1), n
		return sel
	}
	// s.start < n, so s.start+1 does not overflow.
	sel.start, sel.end = s.start, min64(n, max64(end, s.start+1))
	return sel
}

// selects reports whether a walk visits the node over [start, start+n).
func (s selection) selects(nd *node) bool {
	return nd.root || (nd.start < s.end && s.start < nd.start+nd.len)
}

// node is a node of the tree still to be visited: its content range, the
// chaining value it must have (the hash, for the root), and whether it
// goes node by node (after its fast check failed).
type node struct {
	start, len uint64
	cv         [32]byte
	root, slow bool
}

// walker visits the selected nodes of an encoding in pre-order, verifies
// them and keeps the verified content to be read.
type walker struct {
	layout
	hash    [32]byte
	tree    io.Reader // the parents (and the content, when combined)
	content io.Reader // nil when combined
	span    *span
	err     error // set once: every later read returns it
	started bool
	done    bool
	sel     selection
	stack   []node
	out     []byte // verified bytes not yet read
	raw     []byte // a subtree's combined encoding as read
	cbuf    []byte // content
	pbuf    []byte // parents as read
	check   []byte // parents encoded again
	t       *treeHasher
}

func newWalker(r, outboard io.Reader, hash [32]byte, groupLog int, s *span) walker {
	l, err := newLayout(groupLog, outboard != nil)
	w := walker{layout: l, hash: hash, tree: r, span: s, err: err}
	if outboard != nil {
		w.tree, w.content = outboard, r
	}
	return w
}

func (w *walker) contentReader() io.Reader {
	if w.content == nil {
		return w.tree
	}
	return w.content
}

func (w *walker) read(p []byte) (int, error) {
	for len(w.out) == 0 {
		if w.err != nil {
			return 0, w.err
		}
		if len(p) == 0 {
			return 0, nil
		}
		w.err = w.step()
	}
	n := copy(p, w.out)
	w.out = w.out[n:]
	return n, nil
}

// step visits the next node, or checks the end; it returns io.EOF at the end.
func (w *walker) step() error {
	if !w.started {
		return w.start()
	}
	if len(w.stack) == 0 {
		if w.done {
			return io.EOF
		}
		w.done = true
		for _, r := range []io.Reader{w.tree, w.content} {
			if r == nil {
				continue
			}
			var b [1]byte
			switch n, err := io.ReadFull(r, b[:]); {
			case n > 0:
				return ErrTrailingData
			case err != io.EOF:
				return err
			}
		}
		return io.EOF
	}
	nd := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	switch {
	case w.isLeaf(nd.len):
		return w.leaf(&nd)
	case !nd.slow && nd.len <= batchLen && w.sel.start <= nd.start && nd.start+nd.len <= w.sel.end:
		return w.subtree(&nd)
	default:
		return w.parent(&nd)
	}
}

func (w *walker) start() error {
	w.started = true
	var h [HeaderSize]byte
	if err := readFull(w.tree, h[:], 0); err != nil {
		return err
	}
	n := binary.LittleEndian.Uint64(h[:])
	if _, ok := w.size(n); !ok {
		return ErrLengthOverflow
	}
	w.sel = w.span.selection(n)
	w.stack = append(w.stack, node{len: n, cv: w.hash, root: true})
	return nil
}

// readFull reads len(p) bytes, a short stream being a truncation at the
// node for content offset at.
func readFull(r io.Reader, p []byte, at uint64) error {
	_, err := io.ReadFull(r, p)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &OffsetError{ErrTruncated, at}
	}
	return err
}

func mismatch(at uint64) error { return &OffsetError{ErrMismatch, at} }

func grow(b []byte, n uint64) []byte {
	if uint64(cap(b)) < n {
		return make([]byte, n)
	}
	return b[:n]
}

func (w *walker) leaf(nd *node) error {
	w.cbuf = grow(w.cbuf, nd.len)
	if err := readFull(w.contentReader(), w.cbuf, nd.start); err != nil {
		return err
	}
	var got [32]byte
	if nd.root {
		got = blake3.Sum256(w.cbuf)
	} else {
		got, _ = blake3.HashSubtree(blake3.HashMode(), nd.start, w.cbuf)
	}
	if subtle.ConstantTimeCompare(got[:], nd.cv[:]) != 1 {
		return mismatch(nd.start)
	}
	w.release(nd.start, w.cbuf)
	return nil
}

// release makes the part of the verified content at start that the walk
// outputs readable.
func (w *walker) release(start uint64, content []byte) {
	end := start + uint64(len(content))
	lo, hi := max64(start, w.sel.outStart), min64(end, w.sel.outEnd)
	if lo < hi {
		w.out = content[lo-start : hi-start]
	}
}

func (w *walker) parent(nd *node) error {
	var p [ParentSize]byte
	if err := readFull(w.tree, p[:], nd.start); err != nil {
		return err
	}
	l, r := blake3.ChainingValue(p[:32]), blake3.ChainingValue(p[32:])
	var got [32]byte
	if nd.root {
		got = blake3.MergeSubtreesRoot(l, r, blake3.HashMode())
	} else {
		got = blake3.MergeSubtreesNonRoot(l, r, blake3.HashMode())
	}
	if subtle.ConstantTimeCompare(got[:], nd.cv[:]) != 1 {
		return mismatch(nd.start)
	}
	left := split(nd.len)
	children := [2]node{
		{start: nd.start + left, len: nd.len - left, cv: r, slow: nd.slow},
		{start: nd.start, len: left, cv: l, slow: nd.slow},
	}
	for i := range children {
		if w.sel.selects(&children[i]) {
			w.stack = append(w.stack, children[i])
		}
	}
	return nil
}

// subtree reads a whole subtree of at most batchLen bytes, encodes its
// content again and compares. If anything fails, the bytes read go back in
// front of the streams and the subtree is visited node by node, which finds
// the failing node and releases the content verified before it.
func (w *walker) subtree(nd *node) error {
	if w.t == nil {
		w.t = newTreeHasher(layout{groupLen: w.groupLen, outboard: true})
	}
	psize, _ := w.t.size(nd.len)
	var err error
	var complete bool
	if w.content == nil {
		w.raw = grow(w.raw, psize+nd.len)
		var n int
		n, err = io.ReadFull(w.tree, w.raw)
		w.raw = w.raw[:n]
		if complete = err == nil; complete {
			w.gather(nd.len)
		}
	} else {
		w.pbuf = grow(w.pbuf, psize)
		w.cbuf = grow(w.cbuf, nd.len)
		var n, m int
		n, err = io.ReadFull(w.tree, w.pbuf)
		w.pbuf = w.pbuf[:n]
		if err == nil {
			m, err = io.ReadFull(w.content, w.cbuf)
		}
		w.cbuf = w.cbuf[:m]
		complete = err == nil
	}
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	if complete {
		w.check = grow(w.check, psize)
		l, r := w.t.children(w.check, nd.start, w.cbuf)
		var got [32]byte
		if nd.root {
			got = blake3.MergeSubtreesRoot(l, r, blake3.HashMode())
		} else {
			got = blake3.MergeSubtreesNonRoot(l, r, blake3.HashMode())
		}
		if bytes.Equal(w.check, w.pbuf) && subtle.ConstantTimeCompare(got[:], nd.cv[:]) == 1 {
			w.release(nd.start, w.cbuf)
			return nil
		}
	}
	// Replay what was read (a truncation is found again at its node).
	if w.content == nil {
		w.tree = io.MultiReader(bytes.NewReader(append([]byte(nil), w.raw...)), w.tree)
	} else {
		w.tree = io.MultiReader(bytes.NewReader(append([]byte(nil), w.pbuf...)), w.tree)
		w.content = io.MultiReader(bytes.NewReader(append([]byte(nil), w.cbuf...)), w.content)
	}
	nd.slow = true
	w.stack = append(w.stack, *nd)
	return nil
}

// gather splits w.raw, the combined encoding of a subtree over n bytes of
// content, into its parents in pre-order (w.pbuf) and its content (w.cbuf).
func (w *walker) gather(n uint64) {
	w.pbuf, w.cbuf = w.pbuf[:0], grow(w.cbuf, n)[:0]
	raw := w.raw
	var walk func(n uint64)
	walk = func(n uint64) {
		if w.isLeaf(n) {
			w.cbuf = append(w.cbuf, raw[:n]...)
			raw = raw[n:]
			return
		}
		w.pbuf = append(w.pbuf, raw[:ParentSize]...)
		raw = raw[ParentSize:]
		left := split(n)
		walk(left)
		walk(n - left)
	}
	walk(n)
}

func min64(a, b uint64) uint64 {
	if a < b {
		return a
	}
	return b
}

func max64(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
