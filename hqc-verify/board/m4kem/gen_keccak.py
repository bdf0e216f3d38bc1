#!/usr/bin/env python3
"""Writes keccak_f1600.S, the bit-interleaved Keccak-f[1600] for the Cortex-M4 (docs/board.md
section 16), to stdout.  Run from this folder: python3 gen_keccak.py > keccak_f1600.S
(tests/keccak_asm.rs checks that the committed file is what this script prints).

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

# Frame on the stack (offsets from sp)
D_OFF = 0      # D[x] = (De, Do) pairs, 40 bytes
APTR = 40      # caller's state pointer
RCPTR = 44     # next round constant pair
CNT = 48       # remaining double rounds
E_OFF = 56     # the second state buffer, 200 bytes
FRAME = E_OFF + 200  # 256; with the 36 pushed bytes: 292 -> pad to 296 below
FRAME += 4

R = rho_offsets()

def reg(i):
    return "lr" if i == 14 else "r%d" % i

out = []
def emit(s):
    out.append("    " + s)

def theta(src_is_a):
    # lr walks the 50 input words: C regs r0..r9 (Ce[x] = r(2x), Co[x] = r(2x+1))
    if src_is_a:
        emit("ldr     lr, [sp, #%d]" % APTR)
    else:
        emit("add     lr, sp, #%d" % E_OFF)
    emit("ldmia   lr!, {r0-r9}")
    w = 10
    while w < 50:
        n = min(3, 50 - w)
        regs = ["r10", "r11", "r12"][:n]
        emit("ldmia   lr!, {%s}" % ", ".join(regs))
        for k, rr in enumerate(regs):
            c = (w + k) % 10
            emit("eor     r%d, r%d, %s" % (c, c, rr))
        w += n
    # D[x]: De = Ce[x-1] ^ rol(Co[x+1], 1), Do = Co[x-1] ^ Ce[x+1]
    for x in range(5):
        xm, xp = (x - 1) % 5, (x + 1) % 5
        emit("eor     r10, r%d, r%d, ror #31" % (2 * xm, 2 * xp + 1))
        emit("eor     r11, r%d, r%d" % (2 * xm + 1, 2 * xp))
        emit("strd    r10, r11, [sp, #%d]" % (D_OFF + 8 * x))

def planes(src_is_a):
    # Loads from the input buffer: lr = A (round type 1) or sp + E_OFF (round type 2).
    if src_is_a:
        emit("ldr     lr, [sp, #%d]" % APTR)
        base, boff = "lr", 0
    else:
        emit("ldr     lr, [sp, #%d]" % APTR)
        base, boff = "sp", E_OFF
    for Y in range(5):
        # output lane (X, Y) <- source (x, y) with y = X, x = 3 (Y - 3X) mod 5
        for X in range(5):
            y = X
            x = (3 * (Y - 3 * X)) % 5
            assert (2 * x + 3 * y) % 5 == Y
            r = R[x][y]
            re, ro = 2 * X, 2 * X + 1
            off = boff + 8 * (x + 5 * y)
            if r % 2 == 0:
                k = r // 2
                emit("ldrd    r%d, r%d, [%s, #%d]" % (re, ro, base, off))
                emit("ldrd    r10, r11, [sp, #%d]" % (D_OFF + 8 * x))
                emit("eor     r%d, r%d, r10" % (re, re))
                emit("eor     r%d, r%d, r11" % (ro, ro))
                if k % 32:
                    emit("ror     r%d, r%d, #%d" % (re, re, (32 - k) % 32))
                    emit("ror     r%d, r%d, #%d" % (ro, ro, (32 - k) % 32))
            else:
                k = r // 2
                # B_e = rol(A_o ^ D_o, k + 1), B_o = rol(A_e ^ D_e, k)
                emit("ldrd    r%d, r%d, [%s, #%d]" % (ro, re, base, off))
                emit("ldrd    r10, r11, [sp, #%d]" % (D_OFF + 8 * x))
                emit("eor     r%d, r%d, r10" % (ro, ro))
                emit("eor     r%d, r%d, r11" % (re, re))
                if (k + 1) % 32:
                    emit("ror     r%d, r%d, #%d" % (re, re, (32 - (k + 1)) % 32))
                if k % 32:
                    emit("ror     r%d, r%d, #%d" % (ro, ro, (32 - k) % 32))
        # chi on each half: out[x] = B[x] ^ (~B[x+1] & B[x+2]), in place, temps r10-r12
        for h in range(2):
            b = [2 * i + h for i in range(5)]
            emit("bic     r10, r%d, r%d" % (b[2], b[1]))
            emit("bic     r11, r%d, r%d" % (b[3], b[2]))
            emit("bic     r12, r%d, r%d" % (b[4], b[3]))
            emit("eor     r%d, r%d, r12" % (b[2], b[2]))
            emit("bic     r12, r%d, r%d" % (b[0], b[4]))
            emit("eor     r%d, r%d, r12" % (b[3], b[3]))
            emit("bic     r12, r%d, r%d" % (b[1], b[0]))
            emit("eor     r%d, r%d, r12" % (b[4], b[4]))
            emit("eor     r%d, r%d, r10" % (b[0], b[0]))
            emit("eor     r%d, r%d, r11" % (b[1], b[1]))
        if Y == 0:
            # iota
            emit("ldr     r12, [sp, #%d]" % RCPTR)
            emit("ldrd    r10, r11, [r12], #8")
            emit("str     r12, [sp, #%d]" % RCPTR)
            emit("eor     r0, r0, r10")
            emit("eor     r1, r1, r11")
        # store the output plane to the other buffer
        if src_is_a:
            emit("add     r10, sp, #%d" % (E_OFF + 40 * Y))
            emit("stm     r10, {r0-r9}")
        else:
            if Y == 0:
                emit("stm     lr, {r0-r9}")
            else:
                emit("add     r10, lr, #%d" % (40 * Y))
                emit("stm     r10, {r0-r9}")

rcs = [interleave(round_constant(i)) for i in range(24)]

hdr = """@ GENERATED by gen_keccak.py (do not edit; regenerate with
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
@ stack); then per output plane Y the five lanes B[X] = rot(A[x][X] ^ D[x]) with
@ x = 3(Y - 3X) mod 5 (rho and pi; LDRD of a lane and of its D), chi in place on each half,
@ iota on plane 0, one STM of the plane into the other buffer. The rounds alternate between
@ the caller's state and a second state on the stack, so 24 rounds end in the caller's state.
@ No branch or address depends on the state; the loop runs 12 double rounds.
@ Stack: %d bytes of frame plus 36 pushed.

    .syntax unified
    .thumb
    .text

    .global hqc_keccak_f1600_m4
    .type hqc_keccak_f1600_m4, %%function
    .thumb_func
hqc_keccak_f1600_m4:
    push    {r4-r11, lr}
    sub     sp, sp, #%d
    str     r0, [sp, #%d]
    adr     r1, .Lrc
    str     r1, [sp, #%d]
    movs    r1, #12
    str     r1, [sp, #%d]
.Lloop:""" % (FRAME, FRAME, APTR, RCPTR, CNT)

print(hdr)
out.append("    @ ---- round A -> E")
theta(True)
planes(True)
out.append("    @ ---- round E -> A")
theta(False)
planes(False)
print("\n".join(out))
print("""    ldr     r0, [sp, #%d]
    subs    r0, r0, #1
    str     r0, [sp, #%d]
    bne     .Lloop
    add     sp, sp, #%d
    pop     {r4-r11, pc}
    .size hqc_keccak_f1600_m4, . - hqc_keccak_f1600_m4

    .align 3
.Lrc:   @ round constants, interleaved (even half, odd half)""" % (CNT, CNT, FRAME))
for i, (e, o) in enumerate(rcs):
    print("    .word 0x%08x, 0x%08x  @ round %d: 0x%016x" % (e, o, i, round_constant(i)))

