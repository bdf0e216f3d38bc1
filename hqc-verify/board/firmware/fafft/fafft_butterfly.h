/* Butterflies (sec. 6): the cross-group layers l..6 (layout A), the transposition A <-> B,
   and the low layers 5..1 with per-pair Karatsuba leaves (layout B).
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ butterflies sec. 6 */
/* Layer L (block 2^L points) uses c(L,k) = gamma_{l-L+1} + s0[k], k = block index (sec. 6.3).
   gamma part: XOR program / matrix on the 32 bit-planes; s0 part: bitsliced subfield product
   with per-position constants given by precomputed Karatsuba leaves. */
#define WG_F8(L) ((FAFFT_L - (L) + 1) <= 8)     /* s0 values of layer L lie in F_256 */
/* s0 values of layer L lie below 2^10 (j = l - L + 1 = 9, 10): on the board the F_2^16 product
   is two F_256 products plus the F_4 terms of bs_sub10.h; leaves: bs_leaves8 of bits 0..7, then
   bits 8, 9 and their XOR (BS_LEAVES8 + 3 words) */
#if defined(FAFFT_USE_ASM)
#define WG_F10(L) (!WG_F8(L) && (FAFFT_L - (L) + 1) <= 10)
#else
#define WG_F10(L) 0
#endif
static uint32_t wg_lv[5][NGS / 2][BS_LEAVES16]; /* layers L = 1..5 (layout B), per pair */
#if (FAFFT_L - 6 + 1) > 8
#error "cross-group s0 constants outside F_256"
#endif
#if NG > 128
#error "cross layers with k >= 64 need more bs_mulacc_s0 programs (l > 12)"
#endif

/* Layout A (after Encode, layers l..6): group b = points 32b..32b+31, bit t = point 32b+t.
   Layout B (layers 5..1, pointwise, returned by fafft_forward): within each block of 32 groups
   the 32x32 element matrix is transposed: point i = 32b + t (b = 32 bh + bl) sits in group
   32 bh + t at bit bl.  Then layers 5..1 pair whole groups too; their constants vary with the
   bit position, and are handled by per-pair precomputed leaves.
   l < 10 (NG < 32 groups): the value arrays hold one whole block of NGS = 32 groups. Encode
   fills groups 0..NG-1 (layout A) and layers l..6 use only them; the transposition then puts
   point i = 32 bl + t (bl < NG) in group t at bit bl, and bit positions NG..31 of every group
   belong to no point: layers 5..1 and the pointwise products compute them (bitsliced, they do
   not mix bit positions) and the inverse transposition returns them to groups NG..31, which
   Decode never reads. Costs: layers 5..1 on 32 groups, not NG; the pointwise product packs
   the data bits into NG groups (fafft_pointwise3). */
static inline unsigned pair_group(unsigned L, unsigned p)
{
    /* p-th group with bit (L-1) clear */
    unsigned lo = p & ((1u << (L - 1)) - 1);
    return ((p >> (L - 1)) << L) | lo;
}

static void build_leaves(void)
{
    for (unsigned L = 1; L <= 5; L++)
        for (unsigned p = 0; p < NGS / 2; p++) {
            unsigned g = pair_group(L, p), bh = g >> 5, gl = g & 31;
            uint32_t S[16] = {0};
            for (unsigned t = 0; t < 32; t++) {
                unsigned k = ((32 * bh + t) << (5 - L)) | (gl >> L);
                uint32_t s = s0_gft[k];
                for (unsigned q = 0; q < 16; q++) S[q] |= ((s >> q) & 1u) << t;
            }
            uint32_t *lv = wg_lv[L - 1][p];
            if (WG_F8(L)) bs_leaves8(lv, S);
            else if (WG_F10(L)) {
                bs_leaves8(lv, S);
                lv[BS_LEAVES8] = S[8];
                lv[BS_LEAVES8 + 1] = S[9];
                lv[BS_LEAVES8 + 2] = S[8] ^ S[9];
            } else bs_leaves16(lv, S);
        }
}

/* X ^= c * Y with c = gamma_j + s, s given by leaves (per bit position); f8: 1 = s in F_256,
   2 = s below 2^10 (board only, bs_sub10.h), 0 = s in F_2^16 */
static inline void bfly(uint32_t *X, uint32_t *Y, unsigned j, const uint32_t *lv, int f8, int inverse)
{
#if defined(FAFFT_USE_ASM)
    const int sub9 = j <= 9;  /* f8 == 2: j = 9 means s below 2^9 (bit 9 clear) */
    /* t = gamma_j * Y + s * Y, then X ^= t (and, forward, Y ^= X in the same pass) */
    uint32_t t[32];
    if (inverse) xor32(Y, X);
    gamma_asm[j](t, Y);
    /* all blocks in one call (the leaves are the same): bs_mulacc8x4 / bs_mulacc16x2 */
    if (f8) {
        bs_mulacc8x4(t, Y, lv);
        if (f8 == 2) {  /* s below 2^10: the s_hi terms of both 16-word blocks */
            if (sub9) bs_mulacc9_hi2(t, Y, lv + BS_LEAVES8);
            else bs_mulacc10_hi2(t, Y, lv + BS_LEAVES8);
        }
    } else bs_mulacc16x2(t, Y, lv);
    if (inverse) xor32(X, t);
    else xor32_fused(X, Y, t);
#else
    if (inverse) xor_into(Y, X, 32);
    gamma_acc(j, X, Y);
    if (f8) {
        bs_mulacc8(X, Y, lv); bs_mulacc8(X + 8, Y + 8, lv);
        bs_mulacc8(X + 16, Y + 16, lv); bs_mulacc8(X + 24, Y + 24, lv);
    } else {
        bs_mulacc16(X, Y, lv); bs_mulacc16(X + 16, Y + 16, lv);
    }
    if (!inverse) xor_into(Y, X, 32);
#endif
}

/* cross layers: c = gamma_j + s0[k] with a uniform s0[k] (k < 16, in V_5): generated
   beta-independent programs bs_mulacc_s0_<k> (acc ^= s0[k] * y) */
#define S0P(a) bs_mulacc_s0_##a
static void (*const s0prog[64])(uint32_t *, const uint32_t *) = {
    0, S0P(1), S0P(2), S0P(3), S0P(4), S0P(5), S0P(6), S0P(7), S0P(8), S0P(9), S0P(10), S0P(11), S0P(12),
    S0P(13), S0P(14), S0P(15), S0P(16), S0P(17), S0P(18), S0P(19), S0P(20), S0P(21), S0P(22), S0P(23),
    S0P(24), S0P(25), S0P(26), S0P(27), S0P(28), S0P(29), S0P(30), S0P(31), S0P(32), S0P(33), S0P(34),
    S0P(35), S0P(36), S0P(37), S0P(38), S0P(39), S0P(40), S0P(41), S0P(42), S0P(43), S0P(44), S0P(45),
    S0P(46), S0P(47), S0P(48), S0P(49), S0P(50), S0P(51), S0P(52), S0P(53), S0P(54), S0P(55), S0P(56),
    S0P(57), S0P(58), S0P(59), S0P(60), S0P(61), S0P(62), S0P(63)};

static inline void bfly_u(uint32_t *X, uint32_t *Y, unsigned j, unsigned k, int inverse)
{
#if defined(FAFFT_USE_ASM)
    uint32_t t[32];
    if (inverse) xor32(Y, X);
    gamma_asm[j](t, Y);
    if (k) s0prog[k](t, Y);
    if (inverse) xor32(X, t);
    else xor32_fused(X, Y, t);
#else
    if (inverse) xor_into(Y, X, 32);
    gamma_acc(j, X, Y);
    if (k) s0prog[k](X, Y);
    if (!inverse) xor_into(Y, X, 32);
#endif
}

static void btfy_cross(fafft_vals_t *v, unsigned L, int inverse)
{
    FP_FRAME();
    unsigned hg = 1u << (L - 6), j = FAFFT_L - L + 1;
    for (unsigned k = 0; k < (NG >> (L - 5)); k++)
        for (unsigned b = 2 * hg * k; b < 2 * hg * k + hg; b++)
            bfly_u(v->g[b], v->g[b + hg], j, k, inverse);
}

static void btfy_low(fafft_vals_t *v, unsigned L, int inverse)
{
    FP_FRAME();
    unsigned h = 1u << (L - 1), j = FAFFT_L - L + 1;
    for (unsigned p = 0; p < NGS / 2; p++) {
        unsigned g = pair_group(L, p);
        bfly(v->g[g], v->g[g + h], j, wg_lv[L - 1][p], WG_F8(L) ? 1 : WG_F10(L) ? 2 : 0, inverse);
    }
}

/* layout A <-> B (an involution): per block of 32 groups and word k, the 32x32 bit transpose
   of the words g[32bh + b][k] (b = 0..31), five SWAPMOVE levels
   (x[r] bit c <-> x[c] bit r; t = ((x[r] >> s) ^ x[r+s]) & m, x[r+s] ^= t, x[r] ^= t << s for
   s = 16, 8, 4, 2, 1) in two register-blocked passes: levels 16 and 8 on the rows
   {i, i+8, i+16, i+24} straight from the groups, levels 4, 2, 1 on rows 8j..8j+7 and back.
   Fully unrolled; every address is fixed. */
#define SWAPMOVE(a, b, s, m)                     \
    do {                                         \
        uint32_t t_ = (((a) >> (s)) ^ (b)) & (m); \
        (b) ^= t_;                               \
        (a) ^= t_ << (s);                        \
    } while (0)
#define SWAP16(a, b)                                   \
    do {                                               \
        uint32_t a_ = ((a) & 0xffffu) | ((b) << 16);   \
        (b) = ((b) & 0xffff0000u) | ((a) >> 16);       \
        (a) = a_;                                      \
    } while (0)

static inline __attribute__((always_inline)) void transpose32_strided(uint32_t *p)
{
    uint32_t x[32];
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++) {
        uint32_t a0 = p[32 * i], a1 = p[32 * (i + 8)], a2 = p[32 * (i + 16)], a3 = p[32 * (i + 24)];
        SWAP16(a0, a2);
        SWAP16(a1, a3);
        SWAPMOVE(a0, a1, 8, 0x00ff00ffu);
        SWAPMOVE(a2, a3, 8, 0x00ff00ffu);
        x[i] = a0; x[i + 8] = a1; x[i + 16] = a2; x[i + 24] = a3;
    }
#pragma GCC unroll 4
    for (unsigned j = 0; j < 4; j++) {
        uint32_t *y = x + 8 * j;
        uint32_t y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3], y4 = y[4], y5 = y[5], y6 = y[6], y7 = y[7];
        SWAPMOVE(y0, y4, 4, 0x0f0f0f0fu); SWAPMOVE(y1, y5, 4, 0x0f0f0f0fu);
        SWAPMOVE(y2, y6, 4, 0x0f0f0f0fu); SWAPMOVE(y3, y7, 4, 0x0f0f0f0fu);
        SWAPMOVE(y0, y2, 2, 0x33333333u); SWAPMOVE(y1, y3, 2, 0x33333333u);
        SWAPMOVE(y4, y6, 2, 0x33333333u); SWAPMOVE(y5, y7, 2, 0x33333333u);
        SWAPMOVE(y0, y1, 1, 0x55555555u); SWAPMOVE(y2, y3, 1, 0x55555555u);
        SWAPMOVE(y4, y5, 1, 0x55555555u); SWAPMOVE(y6, y7, 1, 0x55555555u);
        uint32_t *q = p + 32 * 8 * j;
        q[0] = y0; q[32] = y1; q[64] = y2; q[96] = y3; q[128] = y4; q[160] = y5; q[192] = y6; q[224] = y7;
    }
}

#if defined(__arm__) && !defined(HOST_BUILD)
/* the same transposition in Thumb-2 (transpose_m4.S): PKHBT/PKHTB for level 16, no spills */
void transpose32_m4(uint32_t *p, uint32_t count);
#endif

static void vals_transpose(fafft_vals_t *v)
{
    for (unsigned bh = 0; bh < NGS / 32; bh++) {
#if defined(__arm__) && !defined(HOST_BUILD)
        transpose32_m4(&v->g[32 * bh][0], 32);
#else
        for (unsigned k = 0; k < 32; k++) transpose32_strided(&v->g[32 * bh][k]);
#endif
    }
}

void FAFFT_NS(fafft_vals_transpose)(fafft_vals_t *v) { vals_transpose(v); }

/* stage regions: btfy.low / ibtfy.low = layers 5..1 on the NGS stored groups (layout B) */
void FAFFT_NS(fafft_btfy)(fafft_vals_t *v)
{
    for (unsigned L = FAFFT_L; L >= 6; L--) btfy_cross(v, L, 0);
    vals_transpose(v);
    STAGE_START();
    for (unsigned L = 5; L >= 1; L--) btfy_low(v, L, 0);
    STAGE_STOP("btfy.low");
}

void FAFFT_NS(fafft_ibtfy)(fafft_vals_t *v)
{
    STAGE_START();
    for (unsigned L = 1; L <= 5; L++) btfy_low(v, L, 1);
    STAGE_STOP("ibtfy.low");
    vals_transpose(v);
    for (unsigned L = 6; L <= FAFFT_L; L++) btfy_cross(v, L, 1);
}
