package blake3

const (
	// BlockSize is the size of a BLAKE3 compression block in bytes.
	BlockSize = 64
	// ChunkSize is the size of a BLAKE3 chunk (a leaf of the tree) in bytes.
	ChunkSize = 1024
	// KeySize is the size of the key NewKeyed expects.
	KeySize = 32

	// maxLanes is the widest kernel (AVX-512, sixteen 32-bit lanes).
	// Narrower CPUs run a full set of lanes as two or four kernel calls.
	maxLanes = 16
	// bufChunks (a power of two, at most maxLanes) is the size of the
	// hasher's buffer: a full buffer is one kernel call, so writes of any
	// size reach the widest kernel. The buffer is most of a Hasher (20 KiB
	// in all), which New zeroes: 8 would halve that for callers who make a
	// Hasher per short message, and leave 16-lane CPUs half their width on
	// small writes.
	bufChunks = 16
	bufSize   = bufChunks * ChunkSize
	// maxSubtreeChunks bounds the subtree hashed in one piece from a large
	// write: 64 chunk CVs give two full batches of 16 parents on the first
	// level.
	maxSubtreeChunks = 64
	// Sum256 reduces each such subtree to the CVs of its groupChunks-chunk
	// subtrees and runs the parent levels above them over topChunks chunks
	// at once (see sumLong).
	groupChunks = 8
	topChunks   = 1024
	// maxDepth is the CV stack depth for 2^64 bytes of input.
	maxDepth = 54

	flagChunkStart        = 1 << 0
	flagChunkEnd          = 1 << 1
	flagParent            = 1 << 2
	flagRoot              = 1 << 3
	flagKeyedHash         = 1 << 4
	flagDeriveKeyContext  = 1 << 5
	flagDeriveKeyMaterial = 1 << 6
)

var iv = [8]uint32{
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
}

// msgPermutation is the BLAKE3 message word permutation applied between rounds.
var msgPermutation = [16]int{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}
