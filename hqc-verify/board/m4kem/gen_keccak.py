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
# rotation left by p), known at generation time. theta, the D addition, rho and chi fold the
# differences of pending rotations into the barrel shifter, so no round but the last executes
# an explicit rotation. Every round has its own pattern, so the 24 rounds are unrolled.
#
# Registers in a round: C[X] (one half of the next round's column parities, accumulated half
# plane by half plane) in r0-r4, B[X] (one half of an output plane) in r5-r9, temporaries
# r10-r12, lr = the caller's state A (never written). FPU registers: D[x] half h in s(2x + h),
# the finished even parities in s10-s14 while the odd half planes run.
C = ["r%d" % i for i in range(5)]
B = ["r%d" % (5 + i) for i in range(5)]
T = ["r10", "r11", "r12"]
E_OFF = 0      # the second state buffer (200 bytes) on the stack
FRAME = 200

R = rho_offsets()
out = []


def emit(s):
    out.append("    " + s)


def theta_first():
    """Column parities of the input A (round 0 only): C[x][h] in r(2x + h), pending 0."""
    emit("ldm     lr, {r0-r9}")
    words = list(range(10, 50))
    for j in range(0, len(words), 3):
        chunk = words[j:j + 3]
        for t, w in zip(T, chunk):
            emit("ldr     %s, [lr, #%d]" % (t, 4 * w))
        for t, w in zip(T, chunk):
            c = w % 10
            emit("eor     r%d, r%d, %s" % (c, c, t))
    return [[0, 0] for _ in range(5)]


def d_phase(creg, pc):
    """D[x] = C[x-1] ^ rot64(C[x+1], 1) into s0-s9: De = Ce[x-1] ^ rot(Co[x+1], 1),
    Do = Co[x-1] ^ Ce[x+1]. creg(x, h) names the register of C[x] half h, pending pc[x][h].
    Returns the pending rotations pd[x][h] of the D words."""
    pd = [[0, 0] for _ in range(5)]
    pending_vmov = None
    for j in range(10):
        x, h = j // 2, j % 2
        xm, xp = (x - 1) % 5, (x + 1) % 5
        t = T[j % 3]
        if h == 0:
            a, b = pc[xm][0], pc[xp][1]
            emit("eor     %s, %s, %s%s" % (t, creg(xm, 0), creg(xp, 1), sh(b + 1 - a)))
        else:
            a, b = pc[xm][1], pc[xp][0]
            emit("eor     %s, %s, %s%s" % (t, creg(xm, 1), creg(xp, 0), sh(b - a)))
        pd[x][h] = a % 32
        # each VMOV one instruction after the EOR that made its word
        if pending_vmov:
            emit("vmov    %s, %s" % pending_vmov)
        pending_vmov = ("s%d" % j, t)
    emit("vmov    %s, %s" % pending_vmov)
    return pd


def chi(s_, dst):
    """chi on the half plane in B (pending rotations s_), in place or into dst[x]:
    out[x] = B[x] ^ (~B[x+1] & B[x+2]) with the pending rotation of B[x];
    t = B[x+2] & ~rot(B[x+1], s[x+1] - s[x+2]) carries s[x+2]."""
    def bic(t, x):
        emit("bic     %s, %s, %s%s" % (t, B[(x + 2) % 5], B[(x + 1) % 5],
                                       sh(s_[(x + 1) % 5] - s_[(x + 2) % 5])))

    def fin(x, t):
        emit("eor     %s, %s, %s%s" % (dst[x], B[x], t, sh(s_[(x + 2) % 5] - s_[x])))
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


def iota(reg, rc_word, p):
    """XOR the round-constant word (true value rc_word) into reg, whose pending rotation is p."""
    v = rotl32(rc_word, -p)
    if v == 0:
        return
    if encodable(v):
        emit("eor     %s, %s, #0x%08x" % (reg, reg, v))
    else:
        emit("movw    r10, #0x%04x" % (v & 0xFFFF))
        if v >> 16:
            emit("movt    r10, #0x%04x" % (v >> 16))
        emit("eor     %s, %s, r10" % (reg, reg))


def half_plane(i, Y, h, src, dst, pend, pd, pc, newp, last):
    """Output plane Y, half h of round i: B[X] = rho(A[x][X] ^ D[x]) with x = 3(Y - 3X) mod 5
    (pi), chi, iota on plane 0, the parity accumulation into C (unless last), the stores."""
    ps = [0] * 5
    srcw = []
    for X in range(5):
        x = (3 * (Y - 3 * X)) % 5
        assert (2 * x + 3 * X) % 5 == Y
        r = R[x][X]
        hs = h ^ (r % 2)  # an odd rho offset swaps the halves
        w = 2 * (x + 5 * X) + hs
        srcw.append((x, hs, w))
        ps[X] = pend[w] + r // 2 + (1 if r % 2 and h == 0 else 0)
        emit("ldr     %s, [%s, #%d]" % (B[X], src, 4 * w))  # five loads in a row
    # D[x] from the FPU, each VMOV two instructions ahead of its EOR
    for X in range(6):
        if X < 5:
            x, hs, w = srcw[X]
            emit("vmov    %s, s%d" % (T[X % 3], 2 * x + hs))
        if X >= 1:
            x, hs, w = srcw[X - 1]
            emit("eor     %s, %s, %s%s" % (B[X - 1], B[X - 1], T[(X - 1) % 3],
                                           sh(pd[x][hs] - pend[w])))
    first = Y == 0 and not last
    dst_regs = C if first else B
    chi(ps, dst_regs)
    if Y == 0:
        iota(dst_regs[0], interleave(round_constant(i))[h], ps[0])
    for X in range(5):
        if last and ps[X] % 32:
            emit("ror     %s, %s, #%d" % (B[X], B[X], (32 - ps[X]) % 32))
            ps[X] = 0
        if not first and not last:
            emit("eor     %s, %s, %s%s" % (C[X], C[X], B[X], sh(ps[X] - pc[X])))
        if first:
            pc[X] = ps[X] % 32
    for X in range(5):
        w = 2 * (X + 5 * Y) + h
        emit("str     %s, [%s, #%d]" % (dst_regs[X], dst, 4 * w))
        newp[w] = ps[X] % 32


def round_code(i, pend, pd):
    """Round i from the state with pending rotations pend (50 words) and D (in s0-s9, pending
    pd); returns the output's pending rotations and the next round's pd."""
    last = i == 23
    src, dst = ("lr", "sp") if i % 2 == 0 else ("sp", "lr")
    newp = [0] * 50
    pce, pco = [0] * 5, [0] * 5
    for Y in range(5):
        half_plane(i, Y, 0, src, dst, pend, pd, pce, newp, last)
    if not last:
        for X in range(5):
            emit("vmov    s%d, %s" % (10 + X, C[X]))
    for Y in range(5):
        half_plane(i, Y, 1, src, dst, pend, pd, pco, newp, last)
    if last:
        return newp, None
    for X in range(5):
        emit("vmov    %s, s%d" % (B[X], 10 + X))
    pd = d_phase(lambda x, h: (B if h == 0 else C)[x], [[pce[x], pco[x]] for x in range(5)])
    return newp, pd


def main():
    pend = [0] * 50
    out.append("    @ ---- theta of the input")
    pc = theta_first()
    pd = d_phase(lambda x, h: "r%d" % (2 * x + h), pc)
    for i in range(24):
        out.append("    @ ---- round %d: %s" % (i, "A -> E" if i % 2 == 0 else "E -> A"))
        pend, pd = round_code(i, pend, pd)
    assert not any(pend)
    print(HEADER % (FRAME, FRAME))
    print("\n".join(out))
    print("""    add     sp, sp, #%d
    pop     {r4-r11, pc}
    .size hqc_keccak_f1600_m4, . - hqc_keccak_f1600_m4""" % FRAME)


HEADER = """@ GENERATED by gen_keccak.py (do not edit; regenerate with
@     python3 gen_keccak.py > keccak_f1600.S
@ in this folder). Keccak-f[1600] (FIPS 202) on a bit-interleaved state for the Cortex-M4F
@ (Thumb-2), docs/board.md section 16:
@
@   void hqc_keccak_f1600_m4(uint32_t state[50]);
@
@ Lane i = x + 5y of the state is the word pair state[2i] (its even bits: bit j of the word is
@ bit 2j of the lane) and state[2i+1] (its odd bits). A 64-bit rotation by 2k is a 32-bit
@ rotation by k of both halves; by 2k+1 it swaps the halves and rotates them by k+1 and k.
@
@ A round runs over half planes: output plane Y, half h, for h = 0 then 1 and Y = 0..4. Per
@ half plane: five LDRs in a row (the source words, base lr or sp, never written), five VMOVs
@ of D words from s0-s9 and five EORs (theta's D, rho and pi), chi (5 BIC, 5 EOR), iota on
@ plane 0, five EORs into the next round's column parities C (r0-r4), five STRs. After the
@ even half planes their parities wait in s10-s14; after the odd ones D of the next round is
@ formed (10 EOR) into s0-s9. So theta needs no pass over the state but the first.
@ Lazy rotations: a stored word may carry a pending rotation known at generation time; all
@ rotations (rho, theta's 1, the pending ones) are folded into the barrel-shifter operand of
@ an EOR or BIC, the 24 rounds are unrolled (each has its own pattern), and the last round
@ rotates its outputs by what is left pending before it stores them.
@ The state alternates between the caller's buffer and a second one on the stack.
@ No branch or address depends on the state. Uses s0-s14 (caller-saved under the AAPCS).
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
    mov     lr, r0"""

main()
