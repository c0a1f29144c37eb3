// Command tz generates the amd64 assembly of package tz: the Tillich-Zémor
// state (a 2x2 matrix over GF(2^127)) right-multiplied by three-byte window
// matrices with PCLMULQDQ. Run it through go generate in
// package tz.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego")
	mulTriples()
	Generate()
}

// mulTriples emits the window loop over three-byte windows. The window
// matrix W = P·Q is built on the fly from the two-byte matrix P of the first
// two bytes (table16: rows as two uint32, i.e. the 64-bit polynomial
// p_i0 + p_i1·x^32) and the one-byte matrix Q of the third (table8: columns
// as q_1j + q_0j·x^32). One PCLMULQDQ of a row by a column gives
// p_i0·q_1j + (p_i0·q_0j + p_i1·q_1j)·x^32 + p_i1·q_0j·x^64; entry w_ij,
// of degree at most 24, sits alone in bits 32-56.
//
// Each state entry e (128 bits, possibly unreduced: bit 127 may be set) is
// then multiplied as e.lo·w + e.hi·w·x^64. Products of the same half are
// summed first (L from the low halves, U from the high ones); the value
// L + U·x^64 has up to 152 bits, and its part above bit 127, u1·x^128, is
// folded back with x^128 = x^64 + x: new = L + [u1<<1, u0 + u1]. Full
// reduction (clearing bit 127) is left to the caller at the end.
func mulTriples() {
	TEXT("mulTriplesCLMUL", NOSPLIT, "func(state *[8]uint64, table16 *[65536][4]uint32, table8 *[256][2]uint64, data *byte, triples uint64)")
	Pragma("noescape")
	Doc("mulTriplesCLMUL right-multiplies state (c00, c01, c10, c11, each lo, hi) by the window matrix of each three bytes of data.")
	shifts := GLOBL("foldshift", RODATA|NOPTR)
	DATA(0, U64(1))
	DATA(8, U64(0))
	mask := GLOBL("foldmask", RODATA|NOPTR)
	DATA(0, U64(0))
	DATA(8, U64(^uint64(0)))

	state := Load(Param("state"), RDI)
	table16 := Load(Param("table16"), RBX)
	table8 := Load(Param("table8"), R8)
	data := Load(Param("data"), RSI)
	n := Load(Param("triples"), RCX)
	e := [4]VecPhysical{X0, X1, X2, X3}
	for i := range e {
		VMOVDQU(Mem{Base: state, Disp: 16 * i}, e[i])
	}
	sh, mk := X14, X15
	VMOVDQU(shifts, sh)
	VMOVDQU(mask, mk)

	Label("triple")
	MOVWLZX(Mem{Base: data}, EAX)
	ROLW(U8(8), AX)
	SHLQ(U8(4), RAX)
	MOVBQZX(Mem{Base: data, Disp: 2}, RDX)
	SHLQ(U8(4), RDX)
	p, q := XMM(), XMM()
	VMOVDQU(Mem{Base: table16, Index: RAX, Scale: 1}, p)
	VMOVDQU(Mem{Base: table8, Index: RDX, Scale: 1}, q)
	var w [2]VecVirtual // rows of W as [w_i0, w_i1]
	for i := 0; i < 2; i++ {
		z0, z1 := XMM(), XMM()
		VPCLMULQDQ(U8(i), q, p, z0)
		VPCLMULQDQ(U8(i|0x10), q, p, z1)
		w[i] = XMM()
		VPUNPCKLQDQ(z1, z0, w[i])
		VPSRLQ(U8(32), w[i], w[i])
	}

	// Row i is (a, b) = (e[2i], e[2i+1]): new a = a·w00 + b·w10, new b =
	// a·w01 + b·w11. imm bit 0 picks the half of the state entry, bit 4
	// the column of the window row.
	for row := 0; row < 2; row++ {
		a, b := e[2*row], e[2*row+1]
		var next [2]VecVirtual
		for col := 0; col < 2; col++ {
			l, u, t := XMM(), XMM(), XMM()
			imm := col << 4
			VPCLMULQDQ(U8(imm), w[0], a, l)
			VPCLMULQDQ(U8(imm), w[1], b, t)
			VPXOR(t, l, l)
			VPCLMULQDQ(U8(imm|1), w[0], a, u)
			VPCLMULQDQ(U8(imm|1), w[1], b, t)
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
	ADDQ(U8(3), data)
	DECQ(n)
	JNZ(LabelRef("triple"))
	for i := range e {
		VMOVDQU(e[i], Mem{Base: state, Disp: 16 * i})
	}
	RET()
}
