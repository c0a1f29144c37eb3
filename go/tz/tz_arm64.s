//go:build !purego

#include "textflag.h"

// The window kernel of tz_amd64.s (see its generator, internal/asmgen/tz,
// for the algebra) with PMULL: PMULL multiplies the low 64-bit halves of two
// registers, PMULL2 the high ones, so the window's entries are broadcast to
// both halves and a state entry e = (lo, hi) times w gives e.lo·w and e.hi·w.

// ENTRY sets out to a·wa + b·wb (a, b: 128-bit state entries, wa, wb:
// window entries in both halves), folding the product's bits from 128 up
// back with x^128 = x^64 + x; bit 127 may stay set. V31 is zero; clobbers
// V15-V18.
#define ENTRY(a, wa, b, wb, out) \
	VPMULL wa.D1, a.D1, out.Q1; \
	VPMULL wb.D1, b.D1, V15.Q1; \
	VEOR V15.B16, out.B16, out.B16; \
	VPMULL2 wa.D2, a.D2, V16.Q1; \
	VPMULL2 wb.D2, b.D2, V15.Q1; \
	VEOR V15.B16, V16.B16, V16.B16; \
	VEXT $8, V31.B16, V16.B16, V17.B16; \
	VEOR V17.B16, V16.B16, V18.B16; \
	VEXT $8, V18.B16, V31.B16, V18.B16; \
	VSHL $1, V17.D2, V17.D2; \
	VEOR V18.B16, out.B16, out.B16; \
	VEOR V17.B16, out.B16, out.B16

// WINDOW broadcasts entry w_ij of the window matrix, which a carry-less
// product of row i of the two-byte matrix by column j of the one-byte one
// leaves alone in bits 32-56 of its low half.
#define WINDOW(prod, w) \
	VUSHR $32, prod.D2, prod.D2; \
	VDUP prod.D[0], w.D2

// func mulTriplesCLMUL(state *[8]uint64, table16 *[65536][4]uint32, table8 *[256][2]uint64, data *byte, triples uint64)
TEXT ·mulTriplesCLMUL(SB), NOSPLIT, $0-40
	MOVD state+0(FP), R0
	MOVD table16+8(FP), R1
	MOVD table8+16(FP), R2
	MOVD data+24(FP), R3
	MOVD triples+32(FP), R4
	VLD1 (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VEOR V31.B16, V31.B16, V31.B16

triple:
	// The two-byte matrix's rows (first byte << 8 | second byte) and the
	// one-byte matrix's columns (third byte).
	MOVBU (R3), R5
	MOVBU 1(R3), R6
	MOVBU 2(R3), R7
	ADD $3, R3
	ORR R5<<8, R6, R5
	ADD R5<<4, R1, R8
	VLD1 (R8), [V4.D2]
	ADD R7<<4, R2, R9
	VLD1 (R9), [V5.D2]
	VEXT $8, V5.B16, V5.B16, V6.B16
	VPMULL V5.D1, V4.D1, V7.Q1
	VPMULL V6.D1, V4.D1, V8.Q1
	VPMULL2 V6.D2, V4.D2, V9.Q1
	VPMULL2 V5.D2, V4.D2, V10.Q1
	WINDOW(V7, V7)
	WINDOW(V8, V8)
	WINDOW(V9, V9)
	WINDOW(V10, V10)

	// The state times the window: c00 = c00·w00 + c01·w10, and so on.
	ENTRY(V0, V7, V1, V9, V11)
	ENTRY(V0, V8, V1, V10, V12)
	ENTRY(V2, V7, V3, V9, V13)
	ENTRY(V2, V8, V3, V10, V14)
	VMOV V11.B16, V0.B16
	VMOV V12.B16, V1.B16
	VMOV V13.B16, V2.B16
	VMOV V14.B16, V3.B16
	SUBS $1, R4
	BNE triple
	VST1 [V0.D2, V1.D2, V2.D2, V3.D2], (R0)
	RET
