//go:build !purego

#include "textflag.h"

// func productCLMUL(aLo, aHi, bLo, bHi uint64, r *[4]uint64)
TEXT ·productCLMUL(SB), NOSPLIT, $0-40
	MOVD aLo+0(FP), R0
	VMOV R0, V0.D[0]
	MOVD aHi+8(FP), R0
	VMOV R0, V0.D[1]
	MOVD bLo+16(FP), R0
	VMOV R0, V1.D[0]
	MOVD bHi+24(FP), R0
	VMOV R0, V1.D[1]
	MOVD r+32(FP), R2
	VEOR V31.B16, V31.B16, V31.B16
	// lo·lo, hi·hi, and the middle lo·hi + hi·lo (b's halves swapped).
	VPMULL V1.D1, V0.D1, V2.Q1
	VPMULL2 V1.D2, V0.D2, V3.Q1
	VEXT $8, V1.B16, V1.B16, V4.B16
	VPMULL V4.D1, V0.D1, V5.Q1
	VPMULL2 V4.D2, V0.D2, V6.Q1
	VEOR V6.B16, V5.B16, V5.B16
	// The middle product sits 64 bits up, across the two halves.
	VEXT $8, V5.B16, V31.B16, V6.B16
	VEXT $8, V31.B16, V5.B16, V7.B16
	VEOR V6.B16, V2.B16, V2.B16
	VEOR V7.B16, V3.B16, V3.B16
	VST1 [V2.D2, V3.D2], (R2)
	RET
