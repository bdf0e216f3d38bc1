/* Basis conversion (sec. 5): the bit-level reference, the table-free BasisCvt_4/_8 on
   words, the element-level column transform (recorded once, replayed) and the Taylor levels.
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ basis conversion sec. 5 */
static inline unsigned getb(const uint32_t *f, unsigned i) { return (f[i >> 5] >> (i & 31)) & 1u; }
static inline void flipb(uint32_t *f, unsigned i) { f[i >> 5] ^= 1u << (i & 31); }

/* reference: repeated division by s_k (sec. 5.2), bit level */
static void div_s(uint32_t *f, unsigned base, unsigned k, int inverse)
{
    unsigned h = 1u << k, lower[16], nl = 0;
    for (unsigned j = 0; j < k; j++)
        if ((j & ~k) == 0) lower[nl++] = 1u << j;
    if (!inverse) {
        for (unsigned e = 2 * h; e-- > h;)
            if (getb(f, base + e))
                for (unsigned q = 0; q < nl; q++) flipb(f, base + e - h + lower[q]);
    } else {
        for (unsigned e = h; e < 2 * h; e++)
            if (getb(f, base + e))
                for (unsigned q = 0; q < nl; q++) flipb(f, base + e - h + lower[q]);
    }
}

void FAFFT_NS(basis_cvt_ref)(uint32_t *f, unsigned L)
{
    for (unsigned k = L; k-- > 0;)
        for (unsigned s = 0; s < (1u << L); s += 2u << k) div_s(f, s, k, 0);
}

void FAFFT_NS(ibasis_cvt_ref)(uint32_t *f, unsigned L)
{
    for (unsigned k = 0; k < L; k++)
        for (unsigned s = 0; s < (1u << L); s += 2u << k) div_s(f, s, k, 1);
}

/* BasisCvt_4 (resp. its inverse) on both 16-bit lanes of a word at once, table-free: only
   shifts, masks and XORs, so no memory address depends on the data (docs/fafft.md sec. 5.4).
   Forward: in-place division by s_3 = x^8+x^4+x^2+x on each 16-bit lane, then by
   s_2 = x^4+x on each byte, then by s_1 = x^2+x on each nibble (s_0 = x: nothing).  A division
   by x^h + l(x), deg l <= h/2, is w ^= D((1+N) A): A the upper halves, D the right shifts by
   h - e for the terms x^e of l, N = D restricted to the upper half; N^2 = 0 (every shift of N
   is >= h/2), so (1+N)^{-1} = 1+N.
   Inverse: the multiplications in reverse order, w ^= D(A) each. 16 resp. 8 instructions. */
static inline uint32_t bc4x2(uint32_t w)
{
#if defined(__arm__) && !defined(HOST_BUILD)
    /* the same 16 data-processing instructions, scheduled by hand (gcc spills otherwise) */
    uint32_t a, u;
    __asm__("and %[a], %[w], #0xff00ff00\n\t"
            "eor %[u], %[a], %[a], lsr #2\n\t"
            "eor %[u], %[u], %[a], lsr #3\n\t"
            "eor %[w], %[w], %[u], lsr #4\n\t"
            "and %[u], %[u], #0xf000f000\n\t"
            "eor %[w], %[w], %[u], lsr #8\n\t"
            "eor %[w], %[w], %[u], lsr #10\n\t"
            "eor %[w], %[w], %[u], lsr #11\n\t"
            "and %[a], %[w], #0xf0f0f0f0\n\t"
            "eor %[w], %[w], %[a], lsr #3\n\t"
            "and %[a], %[a], #0x80808080\n\t"
            "eor %[w], %[w], %[a], lsr #6\n\t"
            "and %[a], %[w], #0xcccccccc\n\t"
            "eor %[w], %[w], %[a], lsr #1\n\t"
            "and %[a], %[a], #0x88888888\n\t"
            "eor %[w], %[w], %[a], lsr #2"
            : [w] "+r"(w), [a] "=&r"(a), [u] "=&r"(u));
    return w;
#else
    uint32_t a, u, v;
    /* s_3, lanes of 16: D(A) = (A ^ A>>2 ^ A>>3) >> 4, N A = D(A) & 0x0f000f00 */
    a = w & 0xff00ff00u;
    u = a ^ (a >> 2) ^ (a >> 3);
    w ^= u >> 4;
    u &= 0xf000f000u;
    v = u ^ (u >> 2) ^ (u >> 3);
    w ^= v >> 8;
    /* s_2, lanes of 8: D(A) = A >> 3, N A = (A & 0x80808080) >> 3 */
    a = w & 0xf0f0f0f0u;
    w ^= a >> 3;
    w ^= (a & 0x80808080u) >> 6;
    /* s_1, lanes of 4: D(A) = A >> 1, N A = (A & 0x88888888) >> 1 */
    a = w & 0xccccccccu;
    w ^= a >> 1;
    w ^= (a & 0x88888888u) >> 2;
    return w;
#endif
}

static inline uint32_t ibc4x2(uint32_t w)
{
    uint32_t a;
#if defined(__arm__) && !defined(HOST_BUILD)
    __asm__("and %[a], %[w], #0xcccccccc\n\t"
            "eor %[w], %[w], %[a], lsr #1\n\t"
            "and %[a], %[w], #0xf0f0f0f0\n\t"
            "eor %[w], %[w], %[a], lsr #3\n\t"
            "and %[a], %[w], #0xff00ff00\n\t"
            "eor %[w], %[w], %[a], lsr #4\n\t"
            "eor %[w], %[w], %[a], lsr #6\n\t"
            "eor %[w], %[w], %[a], lsr #7"
            : [w] "+r"(w), [a] "=&r"(a));
#else
    a = w & 0xccccccccu;  /* times s_1 */
    w ^= a >> 1;
    a = w & 0xf0f0f0f0u;  /* times s_2 */
    w ^= a >> 3;
    a = w & 0xff00ff00u;  /* times s_3 */
    w ^= (a ^ (a >> 2) ^ (a >> 3)) >> 4;
#endif
    return w;
}

/* test hooks: the two lane transforms on n words */
void FAFFT_NS(basis_cvt4_lanes)(uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) w[i] = bc4x2(w[i]);
}

void FAFFT_NS(ibasis_cvt4_lanes)(uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) w[i] = ibc4x2(w[i]);
}

/* BasisCvt_8 of one 256-bit digit (8 words): Taylor expansion in s_4 = x^16 + x, then the
   column transform BasisCvt_4 over the 16 half-word digits, then BasisCvt_4 inside each
   half-word (bc4x2, table-free).  Every primitive step below is an involution, so ibc8 is the same
   sequence reversed. */
static inline void bc8(uint32_t *p)
{
    uint32_t w0 = p[0], w1 = p[1], w2 = p[2], w3 = p[3], w4 = p[4], w5 = p[5], w6 = p[6], w7 = p[7];
    /* Taylor, h = 128, d = 8 */
    w4 ^= w7 >> 24;
    w0 ^= w4 << 8; w1 ^= (w5 << 8) | (w4 >> 24); w2 ^= (w6 << 8) | (w5 >> 24); w3 ^= (w7 << 8) | (w6 >> 24);
    /* h = 64, d = 4 */
    w2 ^= w3 >> 28; w0 ^= w2 << 4; w1 ^= (w3 << 4) | (w2 >> 28);
    w6 ^= w7 >> 28; w4 ^= w6 << 4; w5 ^= (w7 << 4) | (w6 >> 28);
    /* h = 32, d = 2 */
    w1 ^= w1 >> 30; w0 ^= w1 << 2;
    w3 ^= w3 >> 30; w2 ^= w3 << 2;
    w5 ^= w5 >> 30; w4 ^= w5 << 2;
    w7 ^= w7 >> 30; w6 ^= w7 << 2;
    /* h = 16, d = 1 (inside words) */
#define T16(w) do { w ^= (w >> 15) & 0x00010000u; w ^= (w >> 15) & 0x0000fffeu; } while (0)
    T16(w0); T16(w1); T16(w2); T16(w3); T16(w4); T16(w5); T16(w6); T16(w7);
    /* columns: BasisCvt_4 over half-word digits e_0..e_15 (e_2w = low half of w) */
    w4 ^= w7; w1 ^= w4; w2 ^= w5; w3 ^= w6;
    w2 ^= w3 >> 16; w0 ^= w2 << 16; w1 ^= (w2 >> 16) | (w3 << 16);
    w6 ^= w7 >> 16; w4 ^= w6 << 16; w5 ^= (w6 >> 16) | (w7 << 16);
    w4 ^= w6; w5 ^= w7; w2 ^= w4; w3 ^= w5;
    w1 ^= w1 >> 16; w0 ^= w1 << 16;
    w3 ^= w3 >> 16; w2 ^= w3 << 16;
    w5 ^= w5 >> 16; w4 ^= w5 << 16;
    w7 ^= w7 >> 16; w6 ^= w7 << 16;
    /* rows: BasisCvt_4 inside each half-word */
    p[0] = bc4x2(w0); p[1] = bc4x2(w1); p[2] = bc4x2(w2); p[3] = bc4x2(w3);
    p[4] = bc4x2(w4); p[5] = bc4x2(w5); p[6] = bc4x2(w6); p[7] = bc4x2(w7);
}

static inline void ibc8(uint32_t *p)
{
    uint32_t w0 = ibc4x2(p[0]), w1 = ibc4x2(p[1]), w2 = ibc4x2(p[2]), w3 = ibc4x2(p[3]);
    uint32_t w4 = ibc4x2(p[4]), w5 = ibc4x2(p[5]), w6 = ibc4x2(p[6]), w7 = ibc4x2(p[7]);
    w6 ^= w7 << 16; w7 ^= w7 >> 16;
    w4 ^= w5 << 16; w5 ^= w5 >> 16;
    w2 ^= w3 << 16; w3 ^= w3 >> 16;
    w0 ^= w1 << 16; w1 ^= w1 >> 16;
    w3 ^= w5; w2 ^= w4; w5 ^= w7; w4 ^= w6;
    w5 ^= (w6 >> 16) | (w7 << 16); w4 ^= w6 << 16; w6 ^= w7 >> 16;
    w1 ^= (w2 >> 16) | (w3 << 16); w0 ^= w2 << 16; w2 ^= w3 >> 16;
    w3 ^= w6; w2 ^= w5; w1 ^= w4; w4 ^= w7;
#define IT16(w) do { w ^= (w >> 15) & 0x0000fffeu; w ^= (w >> 15) & 0x00010000u; } while (0)
    IT16(w0); IT16(w1); IT16(w2); IT16(w3); IT16(w4); IT16(w5); IT16(w6); IT16(w7);
    w6 ^= w7 << 2; w7 ^= w7 >> 30;
    w4 ^= w5 << 2; w5 ^= w5 >> 30;
    w2 ^= w3 << 2; w3 ^= w3 >> 30;
    w0 ^= w1 << 2; w1 ^= w1 >> 30;
    w5 ^= (w7 << 4) | (w6 >> 28); w4 ^= w6 << 4; w6 ^= w7 >> 28;
    w1 ^= (w3 << 4) | (w2 >> 28); w0 ^= w2 << 4; w2 ^= w3 >> 28;
    w3 ^= (w7 << 8) | (w6 >> 24); w2 ^= (w6 << 8) | (w5 >> 24); w1 ^= (w5 << 8) | (w4 >> 24); w0 ^= w4 << 8;
    w4 ^= w7 >> 24;
    p[0] = w0; p[1] = w1; p[2] = w2; p[3] = w3; p[4] = w4; p[5] = w5; p[6] = w6; p[7] = w7;
}

/* element-level BasisCvt on digits of 8 words (the column transform in y = s_8(x)):
   Taylor expansion at element granularity (sec. 5.3), then columns and rows recursively. */
#define EW 8u
/* The element-level transform is a fixed sequence of element XORs; fafft_init records it once
   (indices of destination and source elements) and the transforms replay the list. */
#define EBC_LC (FAFFT_LBITS - 8)
/* the basis-conversion buffer of the forward transforms; fafft_mul reuses it for the
   pointwise product once both forwards are done (the same 2^l words) */
static union {
    uint32_t w[FAFFT_WORDS];
    fafft_vals_t v;
} fbuf_u;
_Static_assert(sizeof(fafft_vals_t) == NGS * 32u * sizeof(uint32_t) && NGS * 32u >= FAFFT_WORDS, "one transform = 2^l words (padded to 32 groups for l < 10)");
#define fbuf (fbuf_u.w)
#define EBC_MAXOPS 8192
/* one op = byte offsets of the destination (bits 31..16) and source (15..0) element */
static uint32_t ebc_ops[2][EBC_MAXOPS];
_Static_assert((1u << EBC_LC) * EW * 4 <= 65536, "element byte offsets fit 16 bits");
static unsigned ebc_nops[2];
static int ebc_rec = -1;
static uint32_t *ebc_base;

static inline void exor(uint32_t *dst, const uint32_t *src)
{
    if (ebc_rec >= 0) {
        unsigned n = ebc_nops[ebc_rec]++;
        ebc_ops[ebc_rec][n] = ((uint32_t)(dst - ebc_base) * 4u << 16) | ((uint32_t)(src - ebc_base) * 4u);
        return;
    }
    xor_into(dst, src, EW);
}

static void ebc(uint32_t *f, unsigned stride, unsigned Lc, int inverse)
{
    if (Lc <= 1) return;
    unsigned K = 1;
    while (2 * K < Lc) K *= 2;            /* largest power of two < Lc */
    unsigned tau = 1u << K, D = 1u << (Lc - K), n0 = 1u << Lc;
    const unsigned es = stride * EW;      /* words between consecutive elements */
    if (inverse) {
        for (unsigned j = 0; j < D; j++) ebc(f + j * tau * es, stride, K, 1);
        for (unsigned c = 0; c < tau; c++) ebc(f + c * es, stride * tau, Lc - K, 1);
    }
    for (unsigned n = inverse ? 2 * tau : n0; inverse ? n <= n0 : n > tau; n = inverse ? 2 * n : n / 2) {
        unsigned h = n / 2, d = h / tau;
        for (unsigned s = 0; s < n0; s += n) {
            uint32_t *lo = f + s * es, *up = f + (s + h) * es;
            if (!inverse)
                for (unsigned i = 0; i < d; i++) exor(up + i * es, up + (h - d + i) * es);
            for (unsigned i = d; i < h; i++) exor(lo + i * es, up + (i - d) * es);
            if (inverse)
                for (unsigned i = 0; i < d; i++) exor(up + i * es, up + (h - d + i) * es);
        }
    }
    if (!inverse) {
        for (unsigned c = 0; c < tau; c++) ebc(f + c * es, stride * tau, Lc - K, 0);
        for (unsigned j = 0; j < D; j++) ebc(f + j * tau * es, stride, K, 0);
    }
}

static void ebc_record(void)
{
    for (int inv = 0; inv < 2; inv++) {
        ebc_rec = inv;
        ebc_base = fbuf;            /* only addresses are recorded */
        ebc_nops[inv] = 0;
        ebc(fbuf, 1, EBC_LC, inv);
    }
    ebc_rec = -1;
}

static void ebc_replay(uint32_t *f, unsigned Lc, int inverse)
{
    if (Lc != EBC_LC) {
        ebc(f, 1, Lc, inverse);
        return;
    }
    const uint32_t *op = ebc_ops[inverse], *end = op + ebc_nops[inverse];
#if defined(__arm__) && !defined(HOST_BUILD)
    /* per op: the two addresses from one word (ADD with LSR, UXTAH), an unrolled 8-word XOR;
       two ops per loop pass (one compare and branch for both), an odd first op before it */
    if ((end - op) & 1) {
        xor8((uint32_t *)((char *)f + (*op >> 16)), (const uint32_t *)((char *)f + (*op & 0xffffu)));
        op++;
    }
    if (op != end) {
        uint32_t *pd, *ps;
#define EBC_OP_ASM                                  \
            "ldr %[d], [%[op]], #4\n\t"            \
            "uxtah %[s], %[f], %[d]\n\t"           \
            "add %[d], %[f], %[d], lsr #16\n\t"    \
            "ldmia %[s]!, {r4, r5, r6, r7}\n\t"    \
            "ldmia %[d], {r8, r9, r10, r11}\n\t"   \
            "eor r8, r8, r4\n\t"                   \
            "eor r9, r9, r5\n\t"                   \
            "eor r10, r10, r6\n\t"                 \
            "eor r11, r11, r7\n\t"                 \
            "stmia %[d]!, {r8, r9, r10, r11}\n\t"  \
            "ldmia %[s], {r4, r5, r6, r7}\n\t"     \
            "ldmia %[d], {r8, r9, r10, r11}\n\t"   \
            "eor r8, r8, r4\n\t"                   \
            "eor r9, r9, r5\n\t"                   \
            "eor r10, r10, r6\n\t"                 \
            "eor r11, r11, r7\n\t"                 \
            "stmia %[d], {r8, r9, r10, r11}\n\t"
        __asm__ volatile(
            "1:\n\t"
            EBC_OP_ASM
            EBC_OP_ASM
            "cmp %[op], %[e]\n\t"
            "bne 1b\n\t"
            : [op] "+r"(op), [d] "=&r"(pd), [s] "=&r"(ps)
            : [f] "r"(f), [e] "r"(end)
            : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "cc", "memory");
#undef EBC_OP_ASM
    }
#else
    for (; op != end; op++) xor8((uint32_t *)((char *)f + (*op >> 16)), (const uint32_t *)((char *)f + (*op & 0xffffu)));
#endif
}

/* one Taylor level on words: segment of 2H words, divide by x^h + x^d (h = 32H bits);
   only the first `un` words of the upper half can be nonzero */
/* lo[w] ^= up[w] << d | up[w-1] >> (32-d) for w = 0 .. n-1, with up[-1] = prev (d = 1 .. 31) */
#if defined(__arm__) && !defined(HOST_BUILD)
#define TAY_ASM(D)                                                                   \
    __asm__ volatile("1:\n\t"                                                        \
                     "ldmia %[u]!, {r4, r5, r6, r7}\n\t"                             \
                     "ldmia %[l], {r8, r9, r10, r11}\n\t"                            \
                     "eor r8, r8, r4, lsl %[d]\n\t"                                  \
                     "eor r8, r8, %[p], lsr %[r]\n\t"                                \
                     "eor r9, r9, r5, lsl %[d]\n\t"                                  \
                     "eor r9, r9, r4, lsr %[r]\n\t"                                  \
                     "eor r10, r10, r6, lsl %[d]\n\t"                                \
                     "eor r10, r10, r5, lsr %[r]\n\t"                                \
                     "eor r11, r11, r7, lsl %[d]\n\t"                                \
                     "eor r11, r11, r6, lsr %[r]\n\t"                                \
                     "mov %[p], r7\n\t"                                              \
                     "stmia %[l]!, {r8, r9, r10, r11}\n\t"                           \
                     "subs %[n], %[n], #1\n\t"                                       \
                     "bne 1b\n\t"                                                    \
                     : [u] "+r"(up), [l] "+r"(lo), [p] "+r"(prev), [n] "+r"(q)        \
                     : [d] "i"(D), [r] "i"(32 - (D))                                   \
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "cc", "memory")
#endif
static inline void taylor_shift_xor(uint32_t *lo, const uint32_t *up, unsigned n, uint32_t prev, unsigned d)
{
#if defined(__arm__) && !defined(HOST_BUILD)
    unsigned q = n / 4;
    if (q) {
        switch (d) {   /* d is public (the level), a power of two below 32 */
        case 1: TAY_ASM(1); break;
        case 2: TAY_ASM(2); break;
        case 4: TAY_ASM(4); break;
        case 8: TAY_ASM(8); break;
        case 16: TAY_ASM(16); break;
        default: goto generic;
        }
        n &= 3;
    }
generic:
#endif
    for (unsigned w = 0; w < n; w++) {
        uint32_t cur = up[w];
        lo[w] ^= (cur << d) | (prev >> (32 - d));
        prev = cur;
    }
}

static inline void taylor_level(uint32_t *lo, unsigned H, unsigned d, unsigned un, int inverse)
{
    uint32_t *up = lo + H;
    if (d >= 32) {
        unsigned a = d / 32, wend = un + a < H ? un + a : H;
        if (!inverse)
            for (unsigned i = 0; i < a; i++) up[i] ^= up[H - a + i];
        if (wend > a) xor_into(lo + a, up, wend - a);
        if (inverse)
            for (unsigned i = 0; i < a; i++) up[i] ^= up[H - a + i];
    } else {
        unsigned wend = un + 1 < H ? un + 1 : H, r = 32 - d;
        if (!inverse) up[0] ^= up[H - 1] >> r;
        lo[0] ^= up[0] << d;
        if (wend > 1) taylor_shift_xor(lo + 1, up + 1, wend - 1, up[0], d);
        if (inverse) up[0] ^= up[H - 1] >> r;
    }
}

/* BasisCvt of 2^L bits (L >= 9): Taylor in y = s_8(x) = x^256 + x (digits of 256 bits), the
   column transform BasisCvt_{L-8} on digits, then BasisCvt_8 inside each digit (sec. 5.3).
   top = number of low words that may be nonzero. */
static void basis_cvt_top(uint32_t *f, unsigned L, unsigned top)
{
    unsigned W = 1u << (L - 5);
    STAGE_START();
    for (unsigned lg = L; lg >= 9; lg--) {
        unsigned H = 1u << (lg - 6), d = 1u << (lg - 9);
        for (unsigned s = 0; s + H < top && s < W; s += 2 * H) {
            unsigned un = top - (s + H);
            taylor_level(f + s, H, d, un < H ? un : H, 0);
        }
    }
    STAGE_STOP("bc.taylor");
    STAGE_START();
    ebc_replay(f, L - 8, 0);
    STAGE_STOP("bc.columns");
    STAGE_START();
    for (unsigned s = 0; s < W; s += 8) bc8(f + s);
    STAGE_STOP("bc.rows");
}

void FAFFT_NS(basis_cvt)(uint32_t *f, unsigned L) { basis_cvt_top(f, L, 1u << (L - 5)); }

void FAFFT_NS(ibasis_cvt)(uint32_t *f, unsigned L)
{
    unsigned W = 1u << (L - 5);
    for (unsigned s = 0; s < W; s += 8) ibc8(f + s);
    ebc_replay(f, L - 8, 1);
    for (unsigned lg = 9; lg <= L; lg++) {
        unsigned H = 1u << (lg - 6), d = 1u << (lg - 9);
        for (unsigned s = 0; s < W; s += 2 * H) taylor_level(f + s, H, d, H, 1);
    }
}
