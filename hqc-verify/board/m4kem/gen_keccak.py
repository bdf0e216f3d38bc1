#!/usr/bin/env python3
"""Writes keccak_f1600.S, the bit-interleaved Keccak-f[1600] for the Cortex-M4 (docs/board.md
section 16), to stdout.  Run from this folder: python3 gen_keccak.py > keccak_f1600.S
(tests/keccak_gen.rs checks that the committed file is what this script prints).

Everything is derived here from FIPS 202: the rotation offsets from the (t+1)(t+2)/2 rule of
rho, the lane moves of pi, the round constants from the LFSR rc(t) of Algorithm 5.
"""

import itertools


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
# A round runs over half planes (output plane Y, half h). Registers: C[X] (one half of the
# next round's column parities, accumulated half plane by half plane) in r0-r4, B[X] (the half
# plane before chi) in r5-r9, r10 the temporary of chi, r11, r12 and lr a cache of D words
# (lr holds the caller's state A in round 0). FPU registers: D[x] half h in s(2x + h), the
# finished parities of the first pass in s10-s14, A's address in s15.
C = ["r%d" % i for i in range(5)]
B = ["r%d" % (5 + i) for i in range(5)]
TMP = "r10"
SLOTS = ["r11", "r12", "lr"]
BUF = (0, 200)  # the two state buffers on the stack, byte offsets from sp
FRAME = 400
INF = 1 << 30

R = rho_offsets()
out = []


def emit(s):
    out.append("    " + s)


def source(Y, h, X):
    """Where B[X] of half plane (Y, h) comes from: lane (x, X) with x = 3(Y - 3X) mod 5 (pi),
    its word hs (an odd rho offset swaps the halves), and the rotation rho adds."""
    x = (3 * (Y - 3 * X)) % 5
    assert (2 * x + 3 * X) % 5 == Y
    r = R[x][X]
    hs = h ^ (r % 2)
    return x, hs, 2 * (x + 5 * X) + hs, r // 2 + (1 if r % 2 and h == 0 else 0)


def d_uses(order):
    """The D words (x, hs) in the order the half planes of `order` add them."""
    return [source(Y, h, X)[:2] for (Y, h) in order for X in range(5)]


def cache_plan(uses, nslots):
    """Belady's rule on the D words held in nslots core registers across a round: a word
    missing from the cache is moved in from its FPU register into the slot whose word is
    needed last, or into TMP when the word itself is needed later than all cached ones.
    The cache starts with the first distinct words used (the D phase leaves them there).
    Returns (the words the D phase leaves in the slots, per use (slot index or None for TMP,
    whether the word is moved in), the number of words moved in)."""
    nxt = [INF] * len(uses)
    seen = {}
    for t in range(len(uses) - 1, -1, -1):
        nxt[t] = seen.get(uses[t], INF)
        seen[uses[t]] = t
    first = []
    for u in uses:
        if u not in first and len(first) < nslots:
            first.append(u)
    slot = list(first) + [None] * (nslots - len(first))
    when = [seen.get(w, INF) if w is not None else INF for w in slot]
    plan, misses = [], 0
    for t, u in enumerate(uses):
        moved = u not in slot
        if not moved:
            k = slot.index(u)
        else:
            misses += 1
            k = max(range(nslots), key=lambda j: when[j])
            if when[k] < nxt[t]:
                k = None
            else:
                slot[k] = u
        if k is not None:
            when[k] = nxt[t]
        plan.append((k, moved))
    return first, plan, misses


def half_plane_order():
    """The order of the ten half planes (the same in every round): a pass over the even
    halves, then over the odd ones (the other way round is the mirror image: exchanging the
    halves of every D word maps one onto the other), the planes in the order that moves the
    fewest D words in from the FPU (the first found)."""
    best = None
    for p0 in itertools.permutations(range(5)):
        for p1 in itertools.permutations(range(5)):
            order = [(Y, 0) for Y in p0] + [(Y, 1) for Y in p1]
            m = cache_plan(d_uses(order), len(SLOTS))[2]
            if best is None or m < best[0]:
                best = (m, order)
    return best[1]


def theta_first():
    """Column parities of the input A (round 0 only; base lr): C[x][h] in r(2x + h)."""
    emit("ldm     lr, {r0-r9}")
    temps = ["r10", "r11", "r12"]
    for j in range(10, 50, 3):
        chunk = list(range(j, min(j + 3, 50)))
        for t, w in zip(temps, chunk):
            emit("ldr     %s, [lr, #%d]" % (t, 4 * w))  # up to three loads in a row
        for t, w in zip(temps, chunk):
            emit("eor     r%d, r%d, %s" % (w % 10, w % 10, t))


def d_phase(creg, pc, temps, keep, need_s):
    """D[x] = C[x-1] ^ rot64(C[x+1], 1): De = Ce[x-1] ^ rot(Co[x+1], 1), Do = Co[x-1] ^
    Ce[x+1]. creg(x, h) names the register of C[x] half h, whose pending rotation is pc[x][h].
    A word goes to s(2x + h) when need_s holds it; the words of keep (word -> slot register)
    are formed last, into their slots, where the next round's first half planes find them.
    Returns the pending rotations pd[x][h] of the D words."""
    pd = [[0, 0] for _ in range(5)]
    words = [(x, h) for x in range(5) for h in range(2) if (x, h) not in keep]
    words += [w for w in keep]
    pending = None  # (S register, core register): each VMOV one instruction after its EOR
    for j, (x, h) in enumerate(words):
        xm, xp = (x - 1) % 5, (x + 1) % 5
        t = keep.get((x, h)) or temps[j % len(temps)]
        if pending and pending[1] == t:
            emit("vmov    %s, %s" % pending)
            pending = None
        a, b = pc[xm][h], pc[xp][1 - h]
        emit("eor     %s, %s, %s%s" % (t, creg(xm, h), creg(xp, 1 - h),
                                       sh(b + (1 if h == 0 else 0) - a)))
        pd[x][h] = a % 32
        if pending:
            emit("vmov    %s, %s" % pending)
        pending = ("s%d" % (2 * x + h), t) if (x, h) in need_s else None
    if pending:
        emit("vmov    %s, %s" % pending)
    return pd


def last_round_choice(ps, pe, pdw):
    """Last round: B[X] may carry the pending rotation of its source word (ps[X] + rho) or of
    its D word (pdw[X] + rho), and chi's output that of B[x] or of B[x+2]; the choice (first
    found) that leaves the fewest words to rotate before they are stored. Returns the choice
    per X (True: the D word's) and the pending rotations of B."""
    best = None
    for mask in range(32):
        s_ = [((pdw[X] if mask >> X & 1 else ps[X]) + pe[X]) % 32 for X in range(5)]
        n = sum(1 for x in range(5) if s_[x] and s_[(x + 2) % 5])
        if best is None or n < best[0]:
            best = (n, mask, s_)
    return [bool(best[1] >> X & 1) for X in range(5)], best[2]


def add_d(Y, h, src, pend, pd, cache, slots, plan, last):
    """Loads B[X] (five LDRs in a row, base never written) and adds D[x] from the cache or
    the FPU (theta, pi and rho). Returns the pending rotations of B."""
    base, off = src
    ps, pe, pdw, dreg = [0] * 5, [0] * 5, [0] * 5, []
    for X in range(5):
        x, hs, w, extra = source(Y, h, X)
        emit("ldr     %s, [%s, #%d]" % (B[X], base, off + 4 * w))
        ps[X], pe[X], pdw[X] = pend[w], extra, pd[x][hs]
    use_d = [False] * 5
    if last:
        use_d, s_ = last_round_choice(ps, pe, pdw)
    held = None  # the EOR of the previous X, emitted after the next VMOV when they don't clash
    for X in range(5):
        x, hs, w, extra = source(Y, h, X)
        k, moved = next(plan)
        reg = TMP if k is None else slots[k]
        if moved:
            if held and reg in held[1]:
                emit(held[0])
                held = None
            emit("vmov    %s, s%d" % (reg, 2 * x + hs))
            if k is not None:
                cache[k] = (x, hs)
        assert cache[k] == (x, hs) if k is not None else moved
        if held:
            emit(held[0])
        if use_d[X]:
            held = ("eor     %s, %s, %s%s" % (B[X], reg, B[X], sh(ps[X] - pdw[X])), (reg,))
            ps[X] = pdw[X] + pe[X]
        else:
            held = ("eor     %s, %s, %s%s" % (B[X], B[X], reg, sh(pdw[X] - ps[X])), (reg,))
            ps[X] += pe[X]
    emit(held[0])
    return [p % 32 for p in ps]


def half_plane(i, Y, h, src, dst, pend, pd, pc, newp, first, last, cache, slots, plan):
    """Output plane Y, half h of round i: B = rho(pi(A ^ D)), then per x (0 last) chi out of
    place, iota on plane 0, the parity C[x] (set by the first half plane of a pass, then
    accumulated; none in the last round), the store."""
    s_ = add_d(Y, h, src, pend, pd, cache, slots, plan, last)
    for x in (1, 2, 3, 4, 0):
        a, b = (x + 1) % 5, (x + 2) % 5
        emit("bic     %s, %s, %s%s" % (TMP, B[b], B[a], sh(s_[a] - s_[b])))
        o = C[x] if first else TMP
        if last and s_[x] and not s_[b]:
            emit("eor     %s, %s, %s%s" % (o, TMP, B[x], sh(s_[x] - s_[b])))
            p = s_[b]
        else:
            emit("eor     %s, %s, %s%s" % (o, B[x], TMP, sh(s_[b] - s_[x])))
            p = s_[x]
        if x == 0 and Y == 0:
            iota(o, interleave(round_constant(i))[h], p, B[4])
        if last and p:
            emit("ror     %s, %s, #%d" % (o, o, 32 - p))
            p = 0
        if first:
            pc[x] = p
        elif not last:
            emit("eor     %s, %s, %s%s" % (C[x], C[x], o, sh(p - pc[x])))
        base, off = dst
        w = 2 * (x + 5 * Y) + h
        emit("str     %s, [%s, #%d]" % (o, base, off + 4 * w))
        newp[w] = p


def iota(reg, rc_word, p, tmp):
    """XOR the round-constant word (true value rc_word) into reg, whose pending rotation is p;
    tmp is free for a constant that is no modified immediate."""
    v = rotl32(rc_word, -p)
    if v == 0:
        return
    if encodable(v):
        emit("eor     %s, %s, #0x%08x" % (reg, reg, v))
    else:
        emit("movw    %s, #0x%04x" % (tmp, v & 0xFFFF))
        if v >> 16:
            emit("movt    %s, #0x%04x" % (tmp, v >> 16))
        emit("eor     %s, %s, %s" % (reg, reg, tmp))


def buffers(i):
    """(source, destination) of round i as (base register, byte offset): A (base lr) to the
    stack in round 0, stack to stack, stack to A (base r0, loaded from s15) in round 23."""
    src = ("lr", 0) if i == 0 else ("sp", BUF[(i + 1) % 2])
    dst = ("r0", 0) if i == 23 else ("sp", BUF[i % 2])
    return src, dst


def round_code(i, pend, pd, order, plans):
    """Round i from the state with pending rotations pend (50 words) and D (s0-s9 and the
    cache, pending pd); returns the output's pending rotations and the next round's pd."""
    last = i == 23
    src, dst = buffers(i)
    slots = SLOTS[:2] if i == 0 else SLOTS
    first_words, plan = plans[len(slots)][:2]
    cache = list(first_words)
    plan = iter(plan)
    if last:
        emit("vmov    r0, s15")
    newp = [0] * 50
    pc = {0: [0] * 5, 1: [0] * 5}
    for j, (Y, h) in enumerate(order):
        if j == 5 and not last:
            for X in range(5):  # the first pass's parities wait in the FPU
                emit("vmov    s%d, %s" % (10 + X, C[X]))
        half_plane(i, Y, h, src, dst, pend, pd, pc[h], newp, j % 5 == 0 and not last, last,
                   cache, slots, plan)
    if last:
        return newp, None
    h0 = order[0][1]
    for X in range(5):
        emit("vmov    %s, s%d" % (B[X], 10 + X))
    creg = lambda x, h: (B if h == h0 else C)[x]
    pd = d_phase(creg, [[pc[0][x], pc[1][x]] for x in range(5)], ["r10", "r11", "r12", "lr"],
                 *keep_and_need(plans[len(SLOTS)]))
    return newp, pd


def keep_and_need(plan3):
    """The words the D phase leaves in the slots, and those the round moves in from the FPU."""
    first_words, plan, _ = plan3
    keep = {w: SLOTS[j] for j, w in enumerate(first_words)}
    uses = d_uses(ORDER)
    need = {u for u, (k, moved) in zip(uses, plan) if moved}
    return keep, need


ORDER = half_plane_order()


def main():
    plans = {n: cache_plan(d_uses(ORDER), n) for n in (2, 3)}
    out.append("    @ ---- theta of the input; half planes in the order (Y, h) %s" % (
        " ".join("%d%d" % yh for yh in ORDER)))
    theta_first()
    first2, plan2, _ = plans[2]
    need2 = {u for u, (k, moved) in zip(d_uses(ORDER), plan2) if moved}
    pd = d_phase(lambda x, h: "r%d" % (2 * x + h), [[0, 0] for _ in range(5)],
                 ["r10", "r11", "r12"], {w: SLOTS[j] for j, w in enumerate(first2)}, need2)
    pend = [0] * 50
    for i in range(24):
        out.append("    @ ---- round %d" % i)
        pend, pd = round_code(i, pend, pd, ORDER, plans)
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
@ A round runs over half planes (output plane Y, one half): a pass over the even halves, then
@ one over the odd halves. Per half plane: five LDRs in a row (the source words; base sp, or
@ lr in round 0, never written), five EORs of D words (theta, with rho and pi), each from a
@ cache of three core registers or moved in by VMOV from s0-s9; chi out of place (5 BIC,
@ 5 EOR), iota on plane 0, five EORs into the next round's column parities C (r0-r4), five
@ STRs. The even parities wait in s10-s14 during the odd pass; then D of the next round is
@ formed (10 EOR) into s0-s9 and the cache. Only round 0 reads the state for theta.
@ Lazy rotations: a stored word may carry a pending rotation known at generation time; all
@ rotations (rho, theta's 1, the pending ones) are folded into the barrel-shifter operand of
@ an EOR or BIC, the 24 rounds are unrolled (each has its own pattern), and the last round
@ rotates what is left pending before it stores into the caller's state.
@ No branch or address depends on the state. Uses s0-s15 (caller-saved under the AAPCS).
@ Stack: %d bytes of frame (two state buffers) plus 36 pushed.

    .syntax unified
    .thumb
    .text

    .global hqc_keccak_f1600_m4
    .type hqc_keccak_f1600_m4, %%function
    .thumb_func
hqc_keccak_f1600_m4:
    push    {r4-r11, lr}
    mov     lr, r0
    sub     sp, sp, #%d
    vmov    s15, r0"""

main()
