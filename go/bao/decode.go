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
	sel     selection
	stack   []node
	out     []byte // verified bytes not yet read
	// dst is the caller's buffer during a read: a node that fits is read
	// and verified there (io.Reader lets Read use all of p as scratch), and
	// direct is then the number of verified bytes in it.
	dst    []byte
	direct int
	cbuf   []byte // content
	pbuf   []byte // parents as read
	check  []byte // parents encoded again
	t      *treeHasher
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
		w.dst = p
		w.err = w.step()
		w.dst = nil
		if n := w.direct; n > 0 {
			w.direct = 0
			return n, nil
		}
	}
	n := copy(p, w.out)
	w.out = w.out[n:]
	return n, nil
}

// step visits the next node, or checks that the streams end; it returns
// io.EOF at the end.
func (w *walker) step() error {
	if !w.started {
		return w.start()
	}
	if len(w.stack) == 0 {
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
	content, direct := w.target(nd)
	if err := readFull(w.contentReader(), content, nd.start); err != nil {
		return err
	}
	var got [32]byte
	if nd.root {
		got = blake3.Sum256(content)
	} else {
		got, _ = blake3.HashSubtree(blake3.HashMode(), nd.start, content)
	}
	if subtle.ConstantTimeCompare(got[:], nd.cv[:]) != 1 {
		return mismatch(nd.start)
	}
	w.deliver(nd.start, content, direct)
	return nil
}

// target returns where the content of nd is to be read: the caller's
// buffer if all of it goes there, else the walker's.
func (w *walker) target(nd *node) ([]byte, bool) {
	if uint64(len(w.dst)) >= nd.len && w.sel.outStart <= nd.start && nd.start+nd.len <= w.sel.outEnd {
		return w.dst[:nd.len], true
	}
	w.cbuf = grow(w.cbuf, nd.len)
	return w.cbuf, false
}

// deliver hands over verified content read into target.
func (w *walker) deliver(start uint64, content []byte, direct bool) {
	if direct {
		w.direct = len(content)
		return
	}
	w.release(start, content)
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
	w.pbuf = grow(w.pbuf, psize)
	content, direct := w.target(nd)
	var pn, cn int
	var err error
	if w.content == nil {
		pn, cn, err = w.readCombined(nd.len, content)
	} else {
		pn, err = io.ReadFull(w.tree, w.pbuf)
		if err == nil {
			cn, err = io.ReadFull(w.content, content)
		}
	}
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	if err == nil {
		w.check = grow(w.check, psize)
		l, r := w.t.children(w.check, nd.start, content)
		var got [32]byte
		if nd.root {
			got = blake3.MergeSubtreesRoot(l, r, blake3.HashMode())
		} else {
			got = blake3.MergeSubtreesNonRoot(l, r, blake3.HashMode())
		}
		if bytes.Equal(w.check, w.pbuf) && subtle.ConstantTimeCompare(got[:], nd.cv[:]) == 1 {
			w.deliver(nd.start, content, direct)
			return nil
		}
	}
	// Replay what was read (a truncation is found again at its node).
	parents, content := append([]byte(nil), w.pbuf[:pn]...), append([]byte(nil), content[:cn]...)
	if w.content == nil {
		w.tree = io.MultiReader(bytes.NewReader(w.interleave(nd.len, parents, content)), w.tree)
	} else {
		w.tree = io.MultiReader(bytes.NewReader(parents), w.tree)
		w.content = io.MultiReader(bytes.NewReader(content), w.content)
	}
	nd.slow = true
	w.stack = append(w.stack, *nd)
	return nil
}

// readCombined reads the combined encoding of a subtree over n bytes of
// content, its parents in pre-order into w.pbuf and its content into
// content, and returns how many bytes of each it read.
func (w *walker) readCombined(n uint64, content []byte) (pn, cn int, err error) {
	var walk func(n uint64)
	walk = func(n uint64) {
		if err != nil {
			return
		}
		var k int
		if w.isLeaf(n) {
			k, err = io.ReadFull(w.tree, content[cn:cn+int(n)])
			cn += k
			return
		}
		k, err = io.ReadFull(w.tree, w.pbuf[pn:pn+ParentSize])
		pn += k
		left := split(n)
		walk(left)
		walk(n - left)
	}
	walk(n)
	return pn, cn, err
}

// interleave puts parents and content, read from the combined encoding of a
// subtree over n bytes, back in the encoding's order, up to where either
// runs out.
func (w *walker) interleave(n uint64, parents, content []byte) []byte {
	var out []byte
	var walk func(n uint64) bool
	walk = func(n uint64) bool {
		take := func(b *[]byte, k int) bool {
			k2 := k
			if k2 > len(*b) {
				k2 = len(*b)
			}
			out = append(out, (*b)[:k2]...)
			*b = (*b)[k2:]
			return k2 == k
		}
		if w.isLeaf(n) {
			return take(&content, int(n))
		}
		if !take(&parents, ParentSize) {
			return false
		}
		left := split(n)
		return walk(left) && walk(n-left)
	}
	walk(n)
	return out
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
