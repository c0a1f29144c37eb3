// Command field generates the amd64 assembly of package internal/field: the
// 256-bit carry-less product of two 128-bit polynomials with PCLMULQDQ. Run
// it through go generate in package field.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego")
	TEXT("productCLMUL", NOSPLIT, "func(aLo, aHi, bLo, bHi uint64, r *[4]uint64)")
	Pragma("noescape")
	Doc("productCLMUL writes the carry-less product of a and b to r, low word first.")
	x, y := XMM(), XMM()
	for _, v := range []struct {
		x      VecVirtual
		lo, hi string
	}{{x, "aLo", "aHi"}, {y, "bLo", "bHi"}} {
		MOVQ(Load(Param(v.lo), GP64()), v.x)
		PINSRQ(U8(1), Load(Param(v.hi), GP64()), v.x)
	}
	r := Load(Param("r"), GP64())
	lo, hi, mid, t := XMM(), XMM(), XMM(), XMM()
	// imm bit 0 picks the half of x, bit 4 the half of y.
	MOVOA(x, lo)
	PCLMULQDQ(U8(0x00), y, lo)
	MOVOA(x, hi)
	PCLMULQDQ(U8(0x11), y, hi)
	MOVOA(x, mid)
	PCLMULQDQ(U8(0x01), y, mid)
	PCLMULQDQ(U8(0x10), y, x)
	PXOR(x, mid)
	// The middle product sits 64 bits up, across lo and hi.
	MOVOA(mid, t)
	PSLLDQ(U8(8), t)
	PSRLDQ(U8(8), mid)
	PXOR(t, lo)
	PXOR(mid, hi)
	MOVOU(lo, Mem{Base: r})
	MOVOU(hi, Mem{Base: r, Disp: 16})
	RET()
	Generate()
}
