#!/usr/bin/env python3
"""Writes keccak_f1600.S, the bit-interleaved Keccak-f[1600] for the Cortex-M4 (docs/board.md
section 16), to stdout.  Run from this folder: python3 gen_keccak.py > keccak_f1600.S
(tests/keccak_gen.rs checks that the committed file is what this script prints).

Everything is derived here from FIPS 202: the rotation offsets from the (t+1)(t+2)/2 rule of
rho, the lane moves of pi, the round constants from the LFSR rc(t) of Algorithm 5.
"""

def rho_offsets():
    r = [[0] * 5 for _ in range(5)]  # r[x][y]
    x, y = 1, 0
    for t in range(24):
        r[x][y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r

def rc_bit(t):
    if t % 255 == 0:
        return 1
    R = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        R = [0] + R
        R[0] ^= R[8]
        R[4] ^= R[8]
        R[5] ^= R[8]
        R[6] ^= R[8]
        R = R[:8]
    return R[0]

def round_constant(i):
    rc = 0
    for j in range(7):
        if rc_bit(j + 7 * i):
            rc |= 1 << ((1 << j) - 1)
    return rc

def interleave(v):
    e = o = 0
    for i in range(32):
        e |= ((v >> (2 * i)) & 1) << i
        o |= ((v >> (2 * i + 1)) & 1) << i
    return e, o

def encodable(v):
    """Thumb-2 modified immediate: the rule stated in docs/board.md section 16 (Immediates of
    iota), from the ARMv7-M encoding of the 12-bit modified-immediate field."""
    v &= 0xFFFFFFFF
    b = v & 0xFF
    if v < 256 or v == b * 0x00010001 or v == (b << 8) * 0x00010001 or v == b * 0x01010101:
        return True
    for r in range(8, 32):
        x = ((v << r) | (v >> (32 - r))) & 0xFFFFFFFF  # undo a rotate right by r
        if x < 256 and x & 0x80:
            return True
    return False


def rotl32(v, k):
    k %= 32
    return ((v << k) | (v >> (32 - k))) & 0xFFFFFFFF if k else v


def sh(k):
    """Operand suffix giving rot(x, k) (rotate left by k) with the barrel shifter."""
    k %= 32
    return "" if k == 0 else ", ror #%d" % (32 - k)


# Lazy rotations: every stored word w has a pending rotation p (true value = rot(w, p), a
# rotation left by p). The generator tracks p per word; theta, D, the D addition, rho and chi
# fold the differences of pending rotations into the barrel shifter, so no round executes an
# explicit rotation. Every round has its own pattern, so the 24 rounds are unrolled; a final
# pass rotates every word by its pending rotation.
D_OFF = 0      # D[x] = (De, Do) pairs, 40 bytes
E_OFF = 40     # the second state buffer, 200 bytes
FRAME = 240

R = rho_offsets()
out = []


def emit(s):
    out.append("    " + s)


def load4(ra, rb, base, off, x):
    """ra, rb = the words at base + off, + off + 4; r10, r11 = D[x]: four LDRs in a row."""
    emit("ldr     r%d, [%s, #%d]" % (ra, base, off))
    emit("ldr     r%d, [%s, #%d]" % (rb, base, off + 4))
    emit("ldr     r10, [sp, #%d]" % (D_OFF + 8 * x))
    emit("ldr     r11, [sp, #%d]" % (D_OFF + 8 * x + 4))


def round_code(i, src_is_a, pend):
    """One round; pend[w] = pending rotation of word w (0..49) of the input. Returns the
    pending rotations of the output."""
    # theta: C'[x][h] = S[x,0][h] ^ rot(S[x,y][h], p[x,y] - p[x,0]); pending pc = p[x,0][h]
    if src_is_a:
        emit("ldr     lr, [sp, #%d]" % APTR)
    else:
        emit("add     lr, sp, #%d" % E_OFF)
    emit("ldmia   lr!, {r0-r9}")
    pc = pend[0:10]
    w = 10
    while w < 50:
        n = min(3, 50 - w)
        regs = ["r10", "r11", "r12"][:n]
        emit("ldmia   lr!, {%s}" % ", ".join(regs))
        for k, rr in enumerate(regs):
            c = (w + k) % 10
            emit("eor     r%d, r%d, %s%s" % (c, c, rr, sh(pend[w + k] - pc[c])))
        w += n
    # D[x]: De = Ce[x-1] ^ rot(Co[x+1], 1), Do = Co[x-1] ^ Ce[x+1]
    pd = [0] * 10
    for x in range(5):
        xm, xp = (x - 1) % 5, (x + 1) % 5
        a, b = pc[2 * xm], pc[2 * xp + 1]
        emit("eor     r10, r%d, r%d%s" % (2 * xm, 2 * xp + 1, sh(b + 1 - a)))
        c, d = pc[2 * xm + 1], pc[2 * xp]
        emit("eor     r11, r%d, r%d%s" % (2 * xm + 1, 2 * xp, sh(d - c)))
        # two STR (1 cycle each) rather than one STRD (1 + 2)
        emit("str     r10, [sp, #%d]" % (D_OFF + 8 * x))
        emit("str     r11, [sp, #%d]" % (D_OFF + 8 * x + 4))
        pd[2 * x], pd[2 * x + 1] = a, c
    base, boff = ("lr", 0) if src_is_a else ("sp", E_OFF)
    emit("ldr     lr, [sp, #%d]" % APTR)
    newp = [0] * 50
    for Y in range(5):
        ps = [0] * 10  # pending rotation of the register r(2X + h)
        for X in range(5):
            y = X
            x = (3 * (Y - 3 * X)) % 5
            assert (2 * x + 3 * y) % 5 == Y
            r = R[x][y]
            lane = x + 5 * y
            pe, po = pend[2 * lane], pend[2 * lane + 1]
            qe, qo = pd[2 * x], pd[2 * x + 1]
            re, ro = 2 * X, 2 * X + 1
            off = boff + 8 * lane
            k = r // 2
            # four single loads, which pipeline (2 + 1 + 1 + 1 cycles), rather than two LDRD
            # (3 + 3): the lane's two words, then D[x]'s
            if r % 2 == 0:
                load4(re, ro, base, off, x)
                emit("eor     r%d, r%d, r10%s" % (re, re, sh(qe - pe)))
                emit("eor     r%d, r%d, r11%s" % (ro, ro, sh(qo - po)))
                ps[re], ps[ro] = pe + k, po + k
            else:
                # B_e = rot(T_o, k + 1), B_o = rot(T_e, k)
                load4(ro, re, base, off, x)
                emit("eor     r%d, r%d, r10%s" % (ro, ro, sh(qe - pe)))
                emit("eor     r%d, r%d, r11%s" % (re, re, sh(qo - po)))
                ps[re], ps[ro] = po + k + 1, pe + k
        # chi on each half, in place: out[x] = B[x] ^ (~B[x+1] & B[x+2]), out[x] keeps the
        # pending rotation of B[x]; t = B'[x+2] & ~rot(B'[x+1], s[x+1] - s[x+2]) has s[x+2]
        for h in range(2):
            b = [2 * j + h for j in range(5)]
            s_ = [ps[j] for j in b]

            def bic(t, x):
                emit("bic     %s, r%d, r%d%s" % (t, b[(x + 2) % 5], b[(x + 1) % 5],
                                                 sh(s_[(x + 1) % 5] - s_[(x + 2) % 5])))

            def fin(x, t):
                emit("eor     r%d, r%d, %s%s" % (b[x], b[x], t, sh(s_[(x + 2) % 5] - s_[x])))
            bic("r10", 0)
            bic("r11", 1)
            bic("r12", 2)
            fin(2, "r12")
            bic("r12", 3)
            fin(3, "r12")
            bic("r12", 4)
            fin(4, "r12")
            fin(0, "r10")
            fin(1, "r11")
        if Y == 0:
            rc = interleave(round_constant(i))
            for h in range(2):
                v = rotl32(rc[h], -ps[h])
                if v == 0:
                    continue
                if encodable(v):
                    emit("eor     r%d, r%d, #0x%08x" % (h, h, v))
                else:
                    emit("movw    r10, #0x%04x" % (v & 0xFFFF))
                    if v >> 16:
                        emit("movt    r10, #0x%04x" % (v >> 16))
                    emit("eor     r%d, r%d, r10" % (h, h))
        if src_is_a:
            emit("add     r10, sp, #%d" % (E_OFF + 40 * Y))
            emit("stm     r10, {r0-r9}")
        elif Y == 0:
            emit("stm     lr, {r0-r9}")
        else:
            emit("add     r10, lr, #%d" % (40 * Y))
            emit("stm     r10, {r0-r9}")
        for j in range(10):
            newp[10 * Y + j] = ps[j] % 32
    return newp


APTR = FRAME  # the caller's state pointer: pushed r0 (see the prologue)


def main():
    pend = [0] * 50
    for i in range(24):
        out.append("    @ ---- round %d: %s" % (i, "A -> E" if i % 2 == 0 else "E -> A"))
        pend = round_code(i, i % 2 == 0, pend)
    # final pass: rotate every word of A by its pending rotation
    out.append("    @ ---- resolve the pending rotations")
    emit("ldr     lr, [sp, #%d]" % APTR)
    for Y in range(5):
        emit("ldm     lr, {r0-r9}")
        for j in range(10):
            p = pend[10 * Y + j]
            if p:
                emit("ror     r%d, r%d, #%d" % (j, j, (32 - p) % 32))
        emit("stmia   lr!, {r0-r9}")
    n_ror = sum(1 for p in pend if p)
    print("""@ GENERATED by gen_keccak.py (do not edit; regenerate with
@     python3 gen_keccak.py > keccak_f1600.S
@ in this folder). Keccak-f[1600] (FIPS 202) on a bit-interleaved state for the Cortex-M4
@ (Thumb-2), docs/board.md section 16:
@
@   void hqc_keccak_f1600_m4(uint32_t state[50]);
@
@ Lane i = x + 5y of the state is the word pair state[2i] (its even bits: bit j of the word is
@ bit 2j of the lane) and state[2i+1] (its odd bits). A 64-bit rotation by 2k is a 32-bit
@ rotation by k of both halves; by 2k+1 it swaps the halves and rotates them by k+1 and k.
@
@ Per round: theta's column parities C (LDM of the input, 40 EOR), D (10 EOR, kept on the
@ stack by single STRs); then per output plane Y the five lanes B[X] = rot(A[x][X] ^ D[x]) with
@ x = 3(Y - 3X) mod 5 (rho and pi; four LDRs in a row for the lane and its D, which pipeline:
@ 5 cycles where two LDRD take 6; 2 EOR), chi in place on each
@ half (5 BIC, 5 EOR), iota on plane 0, one STM of the plane into the other buffer. The rounds
@ alternate between the caller's state and a second state on the stack.
@ Lazy rotations: a stored word may carry a pending rotation known at generation time; all
@ rotations (rho, theta's 1, the pending ones) are folded into the barrel-shifter operand of
@ an EOR or BIC, so the rounds execute no rotation; the 24 rounds are unrolled (each has its
@ own pattern) and a last pass applies the %d pending rotations left at the end.
@ No branch or address depends on the state. Stack: %d bytes of frame plus 40 pushed.

    .syntax unified
    .thumb
    .text

    .global hqc_keccak_f1600_m4
    .type hqc_keccak_f1600_m4, %%function
    .thumb_func
hqc_keccak_f1600_m4:
    push    {r0, r4-r11, lr}
    sub     sp, sp, #%d""" % (n_ror, FRAME, FRAME))
    print("\n".join(out))
    print("""    add     sp, sp, #%d
    pop     {r0, r4-r11, pc}
    .size hqc_keccak_f1600_m4, . - hqc_keccak_f1600_m4""" % FRAME)


main()
