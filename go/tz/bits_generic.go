package tz

// mulBitsGeneric right-multiplies m by the matrix of every bit of data,
// most significant bit first: bit 0 by A = [[x,1],[1,0]], bit 1 by
// B = [[x,x+1],[1,1]]. For a row (a, b): t = a·x + b, then A gives (t, a)
// and B gives (t, t + a).
func mulBitsGeneric(m *sl2, data []byte) {
	a0, b0, a1, b1 := m[0], m[1], m[2], m[3]
	for _, c := range data {
		for i := 7; i >= 0; i-- {
			bit := -uint64(c >> uint(i) & 1)
			t0 := a0.MulX().Add(b0)
			t1 := a1.MulX().Add(b1)
			b0 = gf127e{Lo: a0.Lo ^ t0.Lo&bit, Hi: a0.Hi ^ t0.Hi&bit}
			b1 = gf127e{Lo: a1.Lo ^ t1.Lo&bit, Hi: a1.Hi ^ t1.Hi&bit}
			a0, a1 = t0, t1
		}
	}
	m[0], m[1], m[2], m[3] = a0, b0, a1, b1
}
