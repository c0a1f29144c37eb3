package blake3

import "github.com/arborhash/arborhash/go/internal/digestpos"

func init() {
	digestpos.Set = func(d any, pos uint64) { d.(*Digest).setPos(pos) }
}
