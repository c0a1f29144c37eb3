// Command blake3 generates the amd64 assembly of package blake3: a
// single-block compression (SSE4.1, and AVX-512VL) and transposed many-lane
// kernels (4 lanes with SSE4.1, 8 lanes with AVX2; 4, 8 and 16 lanes with
// AVX-512) that hash one input per lane, each with its own counter; with
// -neon FILE, the arm64 4-lane kernel (NEON) instead. Run it through go
// generate in package blake3.
package main

import (
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var iv = [8]uint32{
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
}

var msgPermutation = [16]int{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}

// schedule[r][i] is the message word used at position i in round r.
var schedule [7][16]int

func init() {
	for i := range schedule[0] {
		schedule[0][i] = i
	}
	for r := 1; r < 7; r++ {
		for i := range schedule[r] {
			schedule[r][i] = schedule[r-1][msgPermutation[i]]
		}
	}
}

// gIndices lists, for the column and the diagonal step, the state words
// a, b, c, d of the four G functions run side by side.
var gIndices = [2][4][4]int{
	{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}},
	{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}},
}

var rot16, rot8, ivData Mem

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-neon" {
		writeNEON(os.Args[2])
		return
	}
	ConstraintExpr("!purego")
	rot16 = byteShuffle("rot16", [4]byte{2, 3, 0, 1})
	rot8 = byteShuffle("rot8", [4]byte{1, 2, 3, 0})
	ivData = GLOBL("iv", RODATA|NOPTR)
	for i, w := range iv {
		DATA(4*i, U32(w))
	}
	compressSSE41()
	compressCVSSE41()
	compressBlocksSSE41()
	hashManySSE41()
	hashManyAVX2()
	hashManyAVX()
	compressAVX512()
	compressCVAVX512()
	compressBlocksAVX512()
	hashManyAVX512()
	hashManyAVX512x4()
	hashManyAVX512x16()
	hashParentsAVX2()
	Generate()
}

// byteShuffle emits a 32-byte PSHUFB mask that applies perm to every 32-bit
// word (a rotation by a multiple of 8 bits).
func byteShuffle(name string, perm [4]byte) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for w := 0; w < 8; w++ {
		for i, p := range perm {
			DATA(4*w+i, U8(4*w%16+int(p)))
		}
	}
	return m
}

// rowISA selects the instruction encoding of the single-block kernels:
// legacy SSE4.1, or VEX/EVEX with AVX-512VL, whose VPRORD rotates by 12 and
// 7 in one instruction instead of three. The block is one dependency chain,
// so that rotation sets its speed: G's critical path drops from 7 to 6
// instructions per half.
type rowISA struct{ evex bool }

var (
	rowSSE41  = rowISA{}
	rowAVX512 = rowISA{evex: true}
)

func (s rowISA) add(src Op, dst VecPhysical) {
	if s.evex {
		VPADDD(src, dst, dst)
	} else {
		PADDL(src, dst)
	}
}

func (s rowISA) xor(src Op, dst VecPhysical) {
	if s.evex {
		VPXOR(src, dst, dst)
	} else {
		PXOR(src, dst)
	}
}

func (s rowISA) load(src Mem, dst VecPhysical) {
	if s.evex {
		VMOVDQU(src, dst)
	} else {
		MOVOU(src, dst)
	}
}

func (s rowISA) store(src VecPhysical, dst Mem) {
	if s.evex {
		VMOVDQU(src, dst)
	} else {
		MOVOU(src, dst)
	}
}

func (s rowISA) shufd(imm int, src, dst VecPhysical) {
	if s.evex {
		VPSHUFD(U8(imm), src, dst)
	} else {
		PSHUFD(U8(imm), src, dst)
	}
}

// blend replaces the 32-bit lanes of dst selected by mask with src's.
func (s rowISA) blend(mask int, src, dst VecPhysical) {
	if s.evex {
		VPBLENDD(U8(mask), src, dst, dst)
	} else {
		BLENDPS(U8(mask), src, dst)
	}
}

// shufps sets dst to two words of a (picked by imm) then two of b.
func (s rowISA) shufps(imm int, a, b, dst VecPhysical) {
	if s.evex {
		VSHUFPS(U8(imm), b, a, dst)
		return
	}
	if a != dst {
		MOVO(a, dst)
	}
	SHUFPS(U8(imm), b, dst)
}

// rotr rotates every word of d right by n bits. SSE uses the byte shuffle
// masks in X9 and X10 for 16 and 8, and tmp for the others.
func (s rowISA) rotr(n int, d, tmp VecPhysical) {
	switch {
	case s.evex:
		VPRORD(U8(n), d, d)
	case n == 16:
		PSHUFB(X9, d)
	case n == 8:
		PSHUFB(X10, d)
	default:
		MOVO(d, tmp)
		PSRLL(U8(n), tmp)
		PSLLL(U8(32-n), d)
		POR(tmp, d)
	}
}

// loadState sets row 3 to counter, blockLen and flags.
func (s rowISA) loadState(counter, blockLen, flags Register, row3 VecPhysical) {
	if s.evex {
		VMOVQ(counter, row3)
		VPINSRD(U8(2), blockLen, row3, row3)
		VPINSRD(U8(3), flags, row3, row3)
		return
	}
	MOVQ(counter, row3)
	PINSRD(U8(2), blockLen, row3)
	PINSRD(U8(3), flags, row3)
}

func compressSSE41()       { compressOne("compressSSE41", rowSSE41, false) }
func compressAVX512()      { compressOne("compressAVX512", rowAVX512, false) }
func compressCVSSE41()     { compressOne("compressCVSSE41", rowSSE41, true) }
func compressCVAVX512()    { compressOne("compressCVAVX512", rowAVX512, true) }
func compressBlocksSSE41() { compressBlocks("compressBlocksSSE41", rowSSE41) }
func compressBlocksAVX512() {
	compressBlocks("compressBlocksAVX512", rowAVX512)
}

// compressOne emits the single-block compression: the state rows are four
// XMM registers and G runs on the four columns at once. The diagonal step is
// reached by rotating rows a, c and d (not b: b's last rotation ends each
// half and would put the shuffle on the critical path), so lane i of the
// diagonal step is the G whose b is v[4+i]. Message vectors follow that lane
// order (see msgPos); the next round's vectors are derived from the current
// ones with PSHUFD and BLENDPS (see permuteVectors). With cvOnly the
// function replaces cv by the next chaining value; otherwise it writes the
// 64 output bytes (16 little-endian words) to out.
func compressOne(name string, s rowISA, cvOnly bool) {
	if cvOnly {
		TEXT(name, NOSPLIT, "func(cv *[8]uint32, block *[64]byte, counter uint64, blockLen uint32, flags uint32)")
		Doc(name + " compresses block into the chaining value cv in place.")
	} else {
		TEXT(name, NOSPLIT, "func(cv *[8]uint32, block *[64]byte, counter uint64, blockLen uint32, flags uint32, out *[64]byte)")
		Doc(name + " compresses block with the chaining value cv and writes the 64 output bytes to out.")
	}
	Pragma("noescape")
	cv := Load(Param("cv"), RAX)
	block := Load(Param("block"), RBX)
	row := [4]VecPhysical{X0, X1, X2, X3}
	s.load(Mem{Base: cv}, row[0])
	s.load(Mem{Base: cv, Disp: 16}, row[1])
	s.load(ivData, row[2])
	Load(Param("counter"), RCX)
	Load(Param("blockLen"), EDX)
	Load(Param("flags"), ESI)
	s.loadState(RCX, EDX, ESI, row[3])
	s.masks()
	compressRounds(s, row, block)
	s.xor(row[2], row[0])
	s.xor(row[3], row[1])
	if cvOnly {
		s.store(row[0], Mem{Base: cv})
		s.store(row[1], Mem{Base: cv, Disp: 16})
		RET()
		return
	}
	out := Load(Param("out"), RDX)
	tmp := X8
	s.load(Mem{Base: cv}, tmp)
	s.xor(tmp, row[2])
	s.load(Mem{Base: cv, Disp: 16}, tmp)
	s.xor(tmp, row[3])
	for i := 0; i < 4; i++ {
		s.store(row[i], Mem{Base: out, Disp: 16 * i})
	}
	RET()
}

// masks loads the byte shuffle masks of the SSE rotations.
func (s rowISA) masks() {
	if !s.evex {
		MOVOU(rot16, X9)
		MOVOU(rot8, X10)
	}
}

// compressBlocks emits the sequential compression of the full blocks of
// one chunk (all but its last block) into cv, keeping the chaining value in
// registers between blocks.
func compressBlocks(name string, s rowISA) {
	TEXT(name, NOSPLIT, "func(cv *[8]uint32, blocks *byte, n uint64, counter uint64, flags uint32, flagsStart uint32)")
	Pragma("noescape")
	Doc(name + " compresses n full 64-byte blocks into cv; the first gets flags|flagsStart.")
	cv := Load(Param("cv"), RAX)
	block := Load(Param("blocks"), RBX)
	n := Load(Param("n"), RSI)
	ctr := Load(Param("counter"), RDI)
	flags := Load(Param("flags"), EDX)
	cur := Load(Param("flagsStart"), ECX)
	ORL(flags, cur)
	row := [4]VecPhysical{X0, X1, X2, X3}
	s.load(Mem{Base: cv}, row[0])
	s.load(Mem{Base: cv, Disp: 16}, row[1])
	s.masks()
	MOVL(U32(64), R8L)
	Label(name + "_loop")
	s.load(ivData, row[2])
	s.loadState(ctr, R8L, cur, row[3])
	compressRounds(s, row, block)
	s.xor(row[2], row[0])
	s.xor(row[3], row[1])
	MOVL(flags, cur)
	ADDQ(U8(64), block)
	DECQ(n)
	JNZ(LabelRef(name + "_loop"))
	s.store(row[0], Mem{Base: cv})
	s.store(row[1], Mem{Base: cv, Disp: 16})
	RET()
}

// compressRounds runs the seven rounds on row (X0-X3) for the block at
// block. It uses X4-X8 and X11-X15, and (SSE) the rotation masks in X9 and
// X10.
func compressRounds(s rowISA, row [4]VecPhysical, block Register) {
	tmp, scratch := X8, X15
	sets := [2][4]VecPhysical{{X4, X5, X6, X7}, {X11, X12, X13, X14}}
	msg := sets[0]
	// Round 0 uses the words in order: split even and odd words.
	for half := 0; half < 2; half++ {
		s.load(Mem{Base: block, Disp: 32 * half}, msg[2*half])
		s.load(Mem{Base: block, Disp: 32*half + 16}, scratch)
		s.shufps(0xDD, msg[2*half], scratch, msg[2*half+1])
		s.shufps(0x88, msg[2*half], scratch, msg[2*half])
		if half == 1 {
			s.shufd(0x93, msg[2], msg[2])
			s.shufd(0x93, msg[3], msg[3])
		}
	}
	for r := 0; r < 7; r++ {
		msg = sets[r%2]
		if r < 6 {
			permuteVectors(s, msg, sets[(r+1)%2], scratch)
		}
		rowG(s, row, msg[0], msg[1], tmp)
		s.shufd(0x93, row[0], row[0])
		s.shufd(0x39, row[2], row[2])
		s.shufd(0x4E, row[3], row[3])
		rowG(s, row, msg[2], msg[3], tmp)
		s.shufd(0x39, row[0], row[0])
		s.shufd(0x93, row[2], row[2])
		s.shufd(0x4E, row[3], row[3])
	}
}

// permuteVectors computes the next round's message vectors dst from src:
// word i of the next round is word msgPermutation[i] of this one. Each
// target gathers its lanes from up to four sources, one PSHUFD per source,
// merged with BLENDPS.
func permuteVectors(s rowISA, src, dst [4]VecPhysical, scratch VecPhysical) {
	for v := 0; v < 4; v++ {
		var imm [4]int   // per source vector: PSHUFD immediate
		var blend [4]int // per source vector: lanes it supplies
		var order []int  // source vectors in first-use order
		for e := 0; e < 4; e++ {
			sv, sl := msgLoc(msgPermutation[msgPos(v, e)])
			if blend[sv] == 0 {
				order = append(order, sv)
			}
			imm[sv] |= sl << (2 * e)
			blend[sv] |= 1 << e
		}
		for k, sv := range order {
			if k == 0 {
				s.shufd(imm[sv], src[sv], dst[v])
				continue
			}
			s.shufd(imm[sv], src[sv], scratch)
			s.blend(blend[sv], scratch, dst[v])
		}
	}
}

// msgPos returns the schedule position held in lane e of message vector v of
// the single-block compression: even and odd words of the column step, then
// of the diagonal step, whose lane e is the G with b = v[4+e].
func msgPos(v, e int) int {
	if v < 2 {
		return 2*e + v
	}
	return 8 + 2*((e+3)%4) + v - 2
}

// msgLoc is the inverse of msgPos.
func msgLoc(i int) (v, e int) {
	if i < 8 {
		return i % 2, i / 2
	}
	return 2 + i%2, ((i-8)/2 + 1) % 4
}

// rowG runs G on the four columns held in row (a, b, c, d).
func rowG(s rowISA, row [4]VecPhysical, mx, my, tmp VecPhysical) {
	a, b, c, d := row[0], row[1], row[2], row[3]
	for _, h := range [2]struct {
		m          VecPhysical
		dRot, bRot int
	}{{mx, 16, 12}, {my, 8, 7}} {
		s.add(h.m, a)
		s.add(b, a)
		s.xor(a, d)
		s.rotr(h.dRot, d, tmp)
		s.add(d, c)
		s.xor(c, b)
		s.rotr(h.bRot, b, tmp)
	}
}

// vecOps abstracts the instruction sets of the transposed kernels:
// destructive two-operand SSE on XMM and three-operand VEX on XMM or YMM.
type vecOps struct {
	width int // bytes per register: 16 or 32
	vex   bool
	// evex kernels rotate with AVX-512VL's VPRORD, one instruction that
	// needs neither a shuffle mask nor a temporary register.
	evex  bool
	regs  [16]VecPhysical
	add   func(src Op, dst VecPhysical)
	xor   func(src Op, dst VecPhysical)
	shufb func(mask Op, dst VecPhysical)
	// rotr rotates dst right by n bits using tmp.
	rotr  func(n int, dst, tmp VecPhysical)
	load  func(src Mem, dst VecPhysical) // any alignment
	store func(src VecPhysical, dst Mem) // any alignment
	// bcast fills dst with the 32-bit value of a general register.
	bcast func(src GPPhysical, dst VecPhysical)
}

var sse = vecOps{
	width: 16,
	regs:  [16]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15},
	add:   func(s Op, d VecPhysical) { PADDL(s, d) },
	xor:   func(s Op, d VecPhysical) { PXOR(s, d) },
	shufb: func(m Op, d VecPhysical) { PSHUFB(m, d) },
	rotr: func(n int, d, t VecPhysical) {
		MOVO(d, t)
		PSRLL(U8(n), t)
		PSLLL(U8(32-n), d)
		POR(t, d)
	},
	load:  func(s Mem, d VecPhysical) { MOVOU(s, d) },
	store: func(s VecPhysical, d Mem) { MOVOU(s, d) },
	bcast: func(s GPPhysical, d VecPhysical) {
		MOVD(s.As32(), d)
		PSHUFD(U8(0), d, d)
	},
}

var avx2 = vexOps(32, [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15})

// avx is the 4-lane kernel in VEX encoding: no register copies for the
// rotations and transposes, for CPUs with AVX2.
var avx = vexOps(16, [16]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15})

// avx512 and avx512x4 are the 8- and 4-lane kernels with AVX-512VL
// rotations on YMM and XMM registers: a third fewer instructions per G.
var (
	avx512   = evexOps(vexOps(32, [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}))
	avx512x4 = evexOps(vexOps(16, [16]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}))
)

// avx512x16 is the 16-lane kernel on ZMM registers (AVX-512F). Its
// transposes use ZMM16-ZMM31 as temporaries.
var avx512x16 = vecOps{
	width: 64,
	vex:   true,
	evex:  true,
	regs:  [16]VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15},
	add:   func(s Op, d VecPhysical) { VPADDD(s, d, d) },
	xor:   func(s Op, d VecPhysical) { VPXORD(s, d, d) },
	rotr:  func(n int, d, _ VecPhysical) { VPRORD(U8(n), d, d) },
	load:  func(s Mem, d VecPhysical) { VMOVDQU32(s, d) },
	store: func(s VecPhysical, d Mem) { VMOVDQU32(s, d) },
	bcast: func(s GPPhysical, d VecPhysical) { VPBROADCASTD(s.As32(), d) },
}

var zmmHigh = []VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}

func evexOps(ops vecOps) vecOps {
	ops.evex = true
	ops.rotr = func(n int, d, _ VecPhysical) { VPRORD(U8(n), d, d) }
	return ops
}

func vexOps(width int, regs [16]VecPhysical) vecOps {
	return vecOps{
		width: width,
		vex:   true,
		regs:  regs,
		add:   func(s Op, d VecPhysical) { VPADDD(s, d, d) },
		xor:   func(s Op, d VecPhysical) { VPXOR(s, d, d) },
		shufb: func(m Op, d VecPhysical) { VPSHUFB(m, d, d) },
		rotr: func(n int, d, t VecPhysical) {
			VPSRLD(U8(n), d, t)
			VPSLLD(U8(32-n), d, d)
			VPOR(t, d, d)
		},
		load:  func(s Mem, d VecPhysical) { VMOVDQU(s, d) },
		store: func(s VecPhysical, d Mem) { VMOVDQU(s, d) },
		bcast: func(s GPPhysical, d VecPhysical) {
			VMOVD(s.As32(), d.AsX())
			VPBROADCASTD(d.AsX(), d)
		},
	}
}

// frame is the kernels' stack scratch area; SSE memory operands must be
// 16-byte aligned, so it is addressed through an aligned base register.
type frame struct {
	base  GPPhysical
	width int
}

func (f frame) msg(i int) Mem { return Mem{Base: f.base, Disp: f.width * i} }
func (f frame) cv(i int) Mem  { return Mem{Base: f.base, Disp: f.width * (16 + i)} }
func (f frame) ctrLo() Mem    { return Mem{Base: f.base, Disp: f.width * 24} }
func (f frame) ctrHi() Mem    { return Mem{Base: f.base, Disp: f.width * 25} }
func (f frame) spill() Mem    { return Mem{Base: f.base, Disp: f.width * 26} }
func (f frame) rot16() Mem    { return Mem{Base: f.base, Disp: f.width * 27} }
func (f frame) rot8() Mem     { return Mem{Base: f.base, Disp: f.width * 28} }
func (f frame) iv(i int) Mem  { return Mem{Base: f.base, Disp: f.width * (29 + i)} }
func (f frame) blockLen() Mem { return Mem{Base: f.base, Disp: f.width * 33} }
func frameSize(width int) int { return width*34 + frameAlign(width) }

// frameAlign keeps full-width stack accesses within one cache line.
func frameAlign(width int) int { return max(width, 32) }
func hashManySSE41()           { hashMany("hashManySSE41", sse, 4) }
func hashManyAVX2()            { hashMany("hashManyAVX2", avx2, 8) }
func hashManyAVX()             { hashMany("hashManyAVX", avx, 4) }
func hashManyAVX512()          { hashMany("hashManyAVX512", avx512, 8) }
func hashManyAVX512x4()        { hashMany("hashManyAVX512x4", avx512x4, 4) }
func hashManyAVX512x16()       { hashMany("hashManyAVX512x16", avx512x16, 16) }
func hashParentsAVX2()         { hashParents("hashParentsAVX2", avx2) }
func lanesOf(ops vecOps) int   { return ops.width / 4 }
func laneReg(i int) GPPhysical { return []GPPhysical{R8, R9, R10, R11, R12, R13, R14, R15}[i] }
func sigName(lanes int) string {
	return fmt.Sprintf("func(inputs *[%d]*byte, blocks uint64, key *[8]uint32, ctrLo *[%d]uint32, ctrHi *[%d]uint32, flags uint32, flagsStart uint32, flagsEnd uint32, out *[%d][8]uint32)", lanes, lanes, lanes, lanes)
}

// hashMany emits a transposed kernel: register i holds state word i of every
// lane. Each lane hashes `blocks` 64-byte blocks of its own input with its
// own counter (low words in ctrLo, high words in ctrHi); the first block
// gets flagsStart, the last flagsEnd, and the lane-major chaining values are
// written to out.
func hashMany(name string, ops vecOps, lanes int) {
	TEXT(name, 0, sigName(lanes))
	Pragma("noescape")
	Doc(name + " hashes one input per lane; see hashMany in the generator.")
	f := newFrame(ops)

	// Up to eight lanes keep their input pointers in R8-R15, advanced
	// block by block. Sixteen lanes have too few registers: they load each
	// pointer from inputs (kept in R8) and add the offset in R9; R14 holds
	// a lane's length and R11 fifteen of them, for the prefetch.
	wide := lanes > 8
	if wide {
		Load(Param("inputs"), R8)
		XORQ(R9, R9)
		Load(Param("blocks"), R14)
		SHLQ(U8(6), R14)
		IMUL3Q(U8(15), R14, R11)
	} else {
		inputs := Load(Param("inputs"), RAX)
		for l := 0; l < lanes; l++ {
			MOVQ(Mem{Base: inputs, Disp: 8 * l}, laneReg(l))
		}
	}
	Load(Param("blocks"), RBX)
	v := ops.regs
	storeConstants(ops, f)
	ops.load(Mem{Base: Load(Param("ctrLo"), RAX)}, v[0])
	ops.store(v[0], f.ctrLo())
	ops.load(Mem{Base: Load(Param("ctrHi"), RAX)}, v[0])
	ops.store(v[0], f.ctrHi())
	Load(Param("flags"), ECX)
	Load(Param("flagsStart"), EDX)
	ORL(ECX, EDX)
	Load(Param("flagsEnd"), ESI)

	Label(name + "_block")
	CMPQ(RBX, U8(1))
	JNE(LabelRef(name + "_notlast"))
	ORL(ESI, EDX)
	Label(name + "_notlast")

	// Transpose the message: word k of every lane into f.msg(k).
	if wide {
		// Each lane's next block is prefetched, after its last block the
		// first of the chunk 16 lanes on, where a caller hashing one long
		// input puts the next group (a prefetch never faults): without it
		// the 16 streams 1 KiB apart wait for memory at every block of an
		// input out of cache (BenchmarkCPUSum256/16777216 in package blake3).
		LEAQ(Mem{Base: R9, Disp: 64}, R12)
		LEAQ(Mem{Base: R12, Index: R11, Scale: 1}, R13)
		CMPQ(R12, R14)
		CMOVQCC(R13, R12)
		wordsPerLoad := ops.width / 4
		for part := 0; part < 16/wordsPerLoad; part++ {
			for l := 0; l < lanes; l++ {
				MOVQ(Mem{Base: R8, Disp: 8 * l}, R10)
				ops.load(Mem{Base: R10, Index: R9, Scale: 1}, v[l])
				PREFETCHT0(Mem{Base: R10, Index: R12, Scale: 1})
			}
			for k, r := range transpose16(v[:], zmmHigh) {
				ops.store(r, f.msg(part*wordsPerLoad+k))
			}
		}
	} else {
		transposeMessage(ops, f, lanes, func(l int) Mem { return Mem{Base: laneReg(l)} })
	}

	for i := 0; i < 8; i++ {
		ops.load(f.cv(i), v[i])
	}
	ops.load(f.ctrLo(), v[12])
	ops.load(f.ctrHi(), v[13])
	compressLanes(ops, f, RDX)
	for i := 0; i < 8; i++ {
		ops.store(v[i], f.cv(i))
	}
	if wide {
		ADDQ(U8(64), R9)
	} else {
		for l := 0; l < lanes; l++ {
			ADDQ(U8(64), laneReg(l))
		}
	}
	MOVL(ECX, EDX)
	DECQ(RBX)
	JNZ(LabelRef(name + "_block"))

	// v[0..7] hold the final chaining values, word-major: transpose to lanes.
	out := Load(Param("out"), RAX)
	if wide {
		storeLanes16(v[:8], out)
		VZEROUPPER()
		RET()
		return
	}
	storeLanes(ops, out)
	if ops.width == 32 {
		VZEROUPPER()
	}
	RET()
}

// newFrame allocates the kernels' stack scratch area and points RDI, its
// base, at its aligned start.
func newFrame(ops vecOps) frame {
	local := AllocLocal(frameSize(ops.width))
	f := frame{base: RDI, width: ops.width}
	LEAQ(local, RDI)
	ADDQ(U8(frameAlign(ops.width)-1), RDI)
	ANDQ(I8(-frameAlign(ops.width)), RDI)
	return f
}

// storeConstants fills the frame with what every block uses: the key
// broadcast word by word as the first chaining values, the rotation masks
// (without VPRORD), the first four IV words and the block length. It
// uses RAX, RCX and v[0..7].
func storeConstants(ops vecOps, f frame) {
	v := ops.regs
	key := Load(Param("key"), RAX)
	for i := 0; i < 8; i++ {
		MOVL(Mem{Base: key, Disp: 4 * i}, ECX)
		ops.bcast(RCX, v[i])
		ops.store(v[i], f.cv(i))
	}
	if !ops.evex {
		ops.load(rot16, v[0])
		ops.store(v[0], f.rot16())
		ops.load(rot8, v[0])
		ops.store(v[0], f.rot8())
	}
	for i := 0; i < 4; i++ {
		MOVL(U32(iv[i]), EAX)
		ops.bcast(RAX, v[0])
		ops.store(v[0], f.iv(i))
	}
	MOVL(U32(64), EAX)
	ops.bcast(RAX, v[0])
	ops.store(v[0], f.blockLen())
}

// transposeMessage loads the 64-byte block of each lane (row(l) addresses
// lane l's block) and stores word k of every lane to f.msg(k).
func transposeMessage(ops vecOps, f frame, lanes int, row func(l int) Mem) {
	v := ops.regs
	wordsPerLoad := ops.width / 4
	for part := 0; part < 16/wordsPerLoad; part++ {
		for l := 0; l < lanes; l++ {
			m := row(l)
			m.Disp += ops.width * part
			ops.load(m, v[l])
		}
		for k, r := range transpose(ops, v[:lanes], v[lanes:2*lanes]) {
			ops.store(r, f.msg(part*wordsPerLoad+k))
		}
	}
}

// compressLanes runs the seven rounds on the transposed message in f.msg
// with the chaining values in v[0..7] and the counter words in v[12] and
// v[13], the flags in the general register flags, and leaves the next
// chaining values in v[0..7].
func compressLanes(ops vecOps, f frame, flags GPPhysical) {
	v := ops.regs
	for i := 0; i < 4; i++ {
		ops.load(f.iv(i), v[8+i])
	}
	ops.load(f.blockLen(), v[14])
	ops.bcast(flags, v[15])
	for r := 0; r < 7; r++ {
		for step := 0; step < 2; step++ {
			var a, b, c, d [4]VecPhysical
			var mx, my [4]int
			for i, g := range gIndices[step] {
				a[i], b[i], c[i], d[i] = v[g[0]], v[g[1]], v[g[2]], v[g[3]]
				mx[i] = schedule[r][8*step+2*i]
				my[i] = schedule[r][8*step+2*i+1]
			}
			halfG(ops, f, a, b, c, d, mx, 16, f.rot16(), 12, v[8])
			halfG(ops, f, a, b, c, d, my, 8, f.rot8(), 7, v[8])
		}
	}
	for i := 0; i < 8; i++ {
		ops.xor(v[i+8], v[i])
	}
}

// storeLanes writes the word-major chaining values in v[0..7] (at most 8
// lanes) to out lane by lane, 32 bytes per lane.
func storeLanes(ops vecOps, out Register) {
	v := ops.regs
	perLoad := ops.width / 4
	for part := 0; part < 8/perLoad; part++ {
		res := transpose(ops, v[part*perLoad:(part+1)*perLoad], v[8:8+perLoad])
		for l, r := range res {
			ops.store(r, Mem{Base: out, Disp: 32*l + ops.width*part})
		}
	}
}

// hashParents emits a kernel for one level of the tree over 8*batches
// parents (8 lanes): the chaining values at cvs, neighbours paired, are the
// parents' blocks (words little-endian), and the kernel replaces them by the
// parents' CVs in place, batch b reading cvs[16b..16b+16) and writing
// cvs[8b..8b+8), which only it and the batches before it read. Counters are
// zero; every block is full and gets flags.
func hashParents(name string, ops vecOps) {
	TEXT(name, 0, "func(cvs *[8]uint32, batches uint64, key *[8]uint32, flags uint32)")
	Pragma("noescape")
	Doc(name + " replaces 16*batches chaining values by the 8*batches parents of neighbouring pairs, in place; see hashParents in the generator.")
	f := newFrame(ops)
	in := Load(Param("cvs"), RSI)
	out := R8
	MOVQ(in, out)
	Load(Param("batches"), RBX)
	v := ops.regs
	// f.cv keeps the key: every parent starts from it.
	storeConstants(ops, f)
	flags := Load(Param("flags"), EDX)

	Label(name + "_batch")
	transposeMessage(ops, f, 8, func(l int) Mem { return Mem{Base: in, Disp: 64 * l} })
	for i := 0; i < 8; i++ {
		ops.load(f.cv(i), v[i])
	}
	ops.xor(v[12], v[12])
	ops.xor(v[13], v[13])
	compressLanes(ops, f, flags.(GPPhysical))
	storeLanes(ops, out)
	ADDQ(U32(512), in)
	ADDQ(U32(256), out)
	DECQ(RBX)
	JNZ(LabelRef(name + "_batch"))
	VZEROUPPER()
	RET()
}

// halfG runs one half of G (add message word, rotate d by 16 or 8, rotate
// b by 12 or 7) on four columns at once. All 16 registers hold state, so
// without VPRORD the c register v[8] is spilled while it serves as the
// rotation temporary, and d is rotated by a byte shuffle with mask dMask.
func halfG(ops vecOps, f frame, a, b, c, d [4]VecPhysical, m [4]int, dRot int, dMask Mem, bRot int, tmp VecPhysical) {
	for i := range a {
		ops.add(f.msg(m[i]), a[i])
	}
	for i := range a {
		ops.add(b[i], a[i])
	}
	for i := range a {
		ops.xor(a[i], d[i])
	}
	for i := range a {
		if ops.evex {
			ops.rotr(dRot, d[i], tmp)
		} else {
			ops.shufb(dMask, d[i])
		}
	}
	for i := range a {
		ops.add(d[i], c[i])
	}
	for i := range a {
		ops.xor(c[i], b[i])
	}
	if !ops.evex {
		ops.store(tmp, f.spill())
	}
	for i := range a {
		ops.rotr(bRot, b[i], tmp)
	}
	if !ops.evex {
		ops.load(f.spill(), tmp)
	}
}

// transpose16 transposes the 16x16 matrix of 32-bit words in rows (ZMM)
// with the 16 temporaries tmp, in place: afterwards rows[k] holds word k of
// every input row. First a 4x4 transpose inside each 128-bit lane of each
// group of four rows, then a 4x4 transpose of 128-bit lanes across the
// groups.
func transpose16(rows, tmp []VecPhysical) []VecPhysical {
	for g := 0; g < 4; g++ {
		transpose(avx512x16, rows[4*g:4*g+4], tmp[4*g:4*g+4])
	}
	// rows[4g+i] lane j now holds word 4j+i of rows 4g..4g+3.
	const even, odd = 0x88, 0xDD // 128-bit lanes 0,2 / 1,3 of each source
	for i := 0; i < 4; i++ {
		a, b, c, d := rows[i], rows[4+i], rows[8+i], rows[12+i]
		abLo, abHi, cdLo, cdHi := tmp[4*i], tmp[4*i+1], tmp[4*i+2], tmp[4*i+3]
		VSHUFI32X4(U8(even), b, a, abLo) // a0 a2 b0 b2
		VSHUFI32X4(U8(odd), b, a, abHi)  // a1 a3 b1 b3
		VSHUFI32X4(U8(even), d, c, cdLo)
		VSHUFI32X4(U8(odd), d, c, cdHi)
		VSHUFI32X4(U8(even), cdLo, abLo, a) // a0 b0 c0 d0: word i
		VSHUFI32X4(U8(even), cdHi, abHi, b) // word 4+i
		VSHUFI32X4(U8(odd), cdLo, abLo, c)  // word 8+i
		VSHUFI32X4(U8(odd), cdHi, abHi, d)  // word 12+i
	}
	return rows
}

// storeLanes16 writes the 16 lanes of the word-major chaining values cv
// (8 ZMM registers) to out lane by lane: a 4x4 transpose inside each
// 128-bit lane of words 0-3 and of words 4-7, then 16-byte stores.
func storeLanes16(cv []VecPhysical, out Register) {
	transpose(avx512x16, cv[0:4], zmmHigh[0:4])
	transpose(avx512x16, cv[4:8], zmmHigh[4:8])
	// cv[i] lane j holds words 0-3 of lane 4j+i, cv[4+i] its words 4-7.
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			VEXTRACTI32X4(U8(j), cv[i], Mem{Base: out, Disp: 32 * (4*j + i)})
			VEXTRACTI32X4(U8(j), cv[4+i], Mem{Base: out, Disp: 32*(4*j+i) + 16})
		}
	}
}

// transpose transposes the square matrix of 32-bit words held in rows (4 or
// 8 registers) using as many temporaries, and returns the registers that
// hold the transposed rows.
func transpose(ops vecOps, rows, tmp []VecPhysical) []VecPhysical {
	if len(rows) == 4 && ops.vex {
		r, t := rows, tmp
		for i := 0; i < 2; i++ {
			VPUNPCKLDQ(r[2*i+1], r[2*i], t[2*i])
			VPUNPCKHDQ(r[2*i+1], r[2*i], t[2*i+1])
		}
		for i := 0; i < 2; i++ {
			VPUNPCKLQDQ(t[i+2], t[i], r[2*i])
			VPUNPCKHQDQ(t[i+2], t[i], r[2*i+1])
		}
		return rows
	}
	if len(rows) == 4 {
		t := tmp
		for i := 0; i < 2; i++ {
			MOVO(rows[2*i], t[2*i])
			PUNPCKLLQ(rows[2*i+1], t[2*i])
			MOVO(rows[2*i], t[2*i+1])
			PUNPCKHLQ(rows[2*i+1], t[2*i+1])
		}
		// t0 = r0[0] r1[0] r0[1] r1[1], t1 = r0[2] r1[2] r0[3] r1[3], t2/t3 likewise.
		for i := 0; i < 2; i++ {
			MOVO(t[i], rows[2*i])
			PUNPCKLQDQ(t[i+2], rows[2*i])
			MOVO(t[i], rows[2*i+1])
			PUNPCKHQDQ(t[i+2], rows[2*i+1])
		}
		return rows
	}
	r, t := rows, tmp
	for i := 0; i < 4; i++ {
		VPUNPCKLDQ(r[2*i+1], r[2*i], t[2*i])
		VPUNPCKHDQ(r[2*i+1], r[2*i], t[2*i+1])
	}
	// t0 = words 0,1 of rows 0,1 (and 4,5 in the high half), t1 = words 2,3; ...
	for i := 0; i < 2; i++ {
		VPUNPCKLQDQ(t[4*i+2], t[4*i], r[4*i])
		VPUNPCKHQDQ(t[4*i+2], t[4*i], r[4*i+1])
		VPUNPCKLQDQ(t[4*i+3], t[4*i+1], r[4*i+2])
		VPUNPCKHQDQ(t[4*i+3], t[4*i+1], r[4*i+3])
	}
	// r[k] (k < 4) = column k of rows 0-3 | column k+4 of rows 0-3; r[4+k] the same for rows 4-7.
	out := make([]VecPhysical, 8)
	for k := 0; k < 4; k++ {
		VPERM2I128(U8(0x20), r[4+k], r[k], t[k])
		VPERM2I128(U8(0x31), r[4+k], r[k], t[4+k])
		out[k], out[4+k] = t[k], t[4+k]
	}
	return out
}
