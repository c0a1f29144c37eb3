// Command tz generates the amd64 assembly of package tz: the Tillich-Zémor
// state (a 2x2 matrix over GF(2^127)) right-multiplied by precomputed
// two-byte window matrices with PCLMULQDQ. Run it through go generate in
// package tz.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego")
	mulPairs()
	Generate()
}

// mulPairs emits the window loop. Window matrix entries are polynomials of
// degree at most 16, stored as four uint32 (r00, r01, r10, r11), so that
// VPMOVZXDQ loads a row as two 64-bit lanes ready for PCLMULQDQ.
//
// Each state entry e (128 bits, possibly unreduced: bit 127 may be set) is
// multiplied as e.lo·r + e.hi·r·x^64. Products of the same half are summed
// first (L from the low halves, U from the high ones); the value L + U·x^64
// has up to 144 bits, and its part above bit 127, u1·x^128, is folded back
// with x^128 = x^64 + x: new = L + [u1<<1, u0 + u1]. Full reduction
// (clearing bit 127) is left to the caller at the end.
func mulPairs() {
	TEXT("mulPairsCLMUL", NOSPLIT, "func(state *[8]uint64, table *[65536][4]uint32, data *byte, pairs uint64)")
	Pragma("noescape")
	Doc("mulPairsCLMUL right-multiplies state (c00, c01, c10, c11, each lo, hi) by the window matrix of each big-endian byte pair of data.")
	shifts := GLOBL("foldshift", RODATA|NOPTR)
	DATA(0, U64(1))
	DATA(8, U64(0))
	mask := GLOBL("foldmask", RODATA|NOPTR)
	DATA(0, U64(0))
	DATA(8, U64(^uint64(0)))

	state := Load(Param("state"), RDI)
	table := Load(Param("table"), RBX)
	data := Load(Param("data"), RSI)
	pairs := Load(Param("pairs"), RCX)
	e := [4]VecPhysical{X0, X1, X2, X3}
	for i := range e {
		VMOVDQU(Mem{Base: state, Disp: 16 * i}, e[i])
	}
	sh, mk := X14, X15
	VMOVDQU(shifts, sh)
	VMOVDQU(mask, mk)

	Label("pair")
	MOVWLZX(Mem{Base: data}, EAX)
	ROLW(U8(8), AX)
	SHLQ(U8(4), RAX)
	r0, r1 := X4, X5
	VPMOVZXDQ(Mem{Base: table, Index: RAX, Scale: 1}, r0)
	VPMOVZXDQ(Mem{Base: table, Index: RAX, Scale: 1, Disp: 8}, r1)

	// Row i is (a, b) = (e[2i], e[2i+1]): new a = a·r00 + b·r10, new b =
	// a·r01 + b·r11. imm bit 0 picks the half of the state entry, bit 4
	// the column of the window row.
	for row := 0; row < 2; row++ {
		a, b := e[2*row], e[2*row+1]
		var next [2]VecVirtual
		for col := 0; col < 2; col++ {
			l, u, t := XMM(), XMM(), XMM()
			imm := col << 4
			VPCLMULQDQ(U8(imm), r0, a, l)
			VPCLMULQDQ(U8(imm), r1, b, t)
			VPXOR(t, l, l)
			VPCLMULQDQ(U8(imm|1), r0, a, u)
			VPCLMULQDQ(U8(imm|1), r1, b, t)
			VPXOR(t, u, u)
			// l + [u1<<1, u0 + u1]
			VPSHUFD(U8(0x4E), u, t)
			VPSLLVQ(sh, t, t)
			VPAND(mk, u, u)
			VPXOR(t, l, l)
			VPXOR(u, l, l)
			next[col] = l
		}
		VMOVDQA(next[0], a)
		VMOVDQA(next[1], b)
	}
	ADDQ(U8(2), data)
	DECQ(pairs)
	JNZ(LabelRef("pair"))
	for i := range e {
		VMOVDQU(e[i], Mem{Base: state, Disp: 16 * i})
	}
	RET()
}
