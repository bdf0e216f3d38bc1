/* FAFFT + CRT multiplier (see fafft.h).  Tables from the exporter's headers; the rest is
 * beta-independent.  Section numbers ("sec.") refer to docs/fafft.md. */
#include <stddef.h>
#include <string.h>
#include "fafft.h"
#include "minpoly_mods_defs.h"
#include "encode_matrix_defs.h"
#include "gft_mul_s_inv_i_beta_matrix_defs.h"
#include "btfy_consts_gft.h"
#if CRT_C
#include "IL_defs.h"
#endif
#if defined(__has_include)
#if __has_include("gen_xor_programs.h") && !defined(FAFFT_NO_GEN_XOR)
#include "gen_xor_programs.h"
#endif
#endif
/* The board's transform saves s16-s31 once per layer (FP_FRAME below), so the tower kernels
   it calls leave out their own save (docs/board.md section 17.3). */
#if defined(FAFFT_ASM_ROUTINES) && !defined(HOST_BUILD)
#define FAFFT_FP_SAVED 1
#endif
#include "bs_tower_gen.h"
#include "bs_sub10.h"
/* FAFFT_STAGE_PREFIX: a string literal put before every stage label (the second instance of a
   two-moduli build is compiled with "m2."; Makefile) */
#ifndef FAFFT_STAGE_PREFIX
#define FAFFT_STAGE_PREFIX ""
#endif
#ifdef FAFFT_BENCH_STAGES
#include "platform.h"
#define STAGE_START() bench_start()
#define STAGE_STOP(s) BENCH_STOP(FAFFT_STAGE_PREFIX s)
#else
#define STAGE_START() ((void)0)
#define STAGE_STOP(s) ((void)0)
#endif

#define NG FAFFT_NGROUPS
#define NGS FAFFT_NGSTORE   /* stored groups (= NG for l >= 10) */

/* ------------------------------------------------------------------ word helpers */
/* dst[0..n) ^= src[0..n); on the M4 eight words per iteration with LDM/STM */
static inline void xor_into(uint32_t *dst, const uint32_t *src, unsigned n)
{
#if defined(__arm__) && !defined(HOST_BUILD)
    unsigned q = n >> 3;
    if (q) {
        __asm__ volatile(
            "1:\n\t"
            "ldmia %[s]!, {r4, r5, r6, r7}\n\t"
            "ldmia %[d], {r8, r9, r10, r11}\n\t"
            "eor r8, r8, r4\n\t"
            "eor r9, r9, r5\n\t"
            "eor r10, r10, r6\n\t"
            "eor r11, r11, r7\n\t"
            "stmia %[d]!, {r8, r9, r10, r11}\n\t"
            "ldmia %[s]!, {r4, r5, r6, r7}\n\t"
            "ldmia %[d], {r8, r9, r10, r11}\n\t"
            "eor r8, r8, r4\n\t"
            "eor r9, r9, r5\n\t"
            "eor r10, r10, r6\n\t"
            "eor r11, r11, r7\n\t"
            "stmia %[d]!, {r8, r9, r10, r11}\n\t"
            "subs %[q], %[q], #1\n\t"
            "bne 1b\n\t"
            : [s] "+r"(src), [d] "+r"(dst), [q] "+r"(q)
            :
            : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "cc", "memory");
    }
    n &= 7;
#endif
    for (unsigned i = 0; i < n; i++) dst[i] ^= src[i];
}

/* fixed sizes, unrolled (no loop, no size dispatch): dst[0..8) ^= src[0..8) and
   dst[0..32) ^= src[0..32); on the M4 LDM/EOR/STM with four words per LDM */
#if defined(__arm__) && !defined(HOST_BUILD)
#define XOR4_STEP                                   \
    "ldmia %[s]!, {r4, r5, r6, r7}\n\t"             \
    "ldmia %[d], {r8, r9, r10, r11}\n\t"            \
    "eor r8, r8, r4\n\t"                            \
    "eor r9, r9, r5\n\t"                            \
    "eor r10, r10, r6\n\t"                          \
    "eor r11, r11, r7\n\t"                          \
    "stmia %[d]!, {r8, r9, r10, r11}\n\t"
static inline void xor8(uint32_t *dst, const uint32_t *src)
{
    __asm__ volatile(XOR4_STEP XOR4_STEP
                     : [s] "+r"(src), [d] "+r"(dst)
                     :
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "memory");
}
static inline void xor32(uint32_t *dst, const uint32_t *src)
{
    __asm__ volatile(XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP
                     : [s] "+r"(src), [d] "+r"(dst)
                     :
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "memory");
}
/* the forward butterfly's two passes in one: X ^= t, then Y ^= X (32 words each) */
#define XOR2_STEP                                   \
    "ldmia %[t]!, {r4, r5, r6, r7}\n\t"             \
    "ldmia %[x], {r8, r9, r10, r11}\n\t"            \
    "eor r8, r8, r4\n\t"                            \
    "eor r9, r9, r5\n\t"                            \
    "eor r10, r10, r6\n\t"                          \
    "eor r11, r11, r7\n\t"                          \
    "stmia %[x]!, {r8, r9, r10, r11}\n\t"           \
    "ldmia %[y], {r4, r5, r6, r7}\n\t"              \
    "eor r4, r4, r8\n\t"                            \
    "eor r5, r5, r9\n\t"                            \
    "eor r6, r6, r10\n\t"                           \
    "eor r7, r7, r11\n\t"                           \
    "stmia %[y]!, {r4, r5, r6, r7}\n\t"
static inline void xor32_fused(uint32_t *x, uint32_t *y, const uint32_t *t)
{
    __asm__ volatile(XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP
                     : [t] "+r"(t), [x] "+r"(x), [y] "+r"(y)
                     :
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "memory");
}
#else
static inline void xor8(uint32_t *dst, const uint32_t *src) { xor_into(dst, src, 8); }
static inline void xor32(uint32_t *dst, const uint32_t *src) { xor_into(dst, src, 32); }
static inline void xor32_fused(uint32_t *x, uint32_t *y, const uint32_t *t)
{
    for (unsigned i = 0; i < 32; i++) {
        x[i] ^= t[i];
        y[i] ^= x[i];
    }
}
#endif

/* ------------------------------------------------------------------ scalar tower field sec. 2.1 */
static uint32_t tmul(uint32_t a, uint32_t b, unsigned k)
{
    if (k == 1) return a & b;
    unsigned h = k / 2;
    uint32_t m = (1u << h) - 1;
    static const uint32_t C[17] = {0, 1, 2, 0, 8, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x8000};
    uint32_t a0 = a & m, a1 = a >> h, b0 = b & m, b1 = b >> h;
    uint32_t p00 = tmul(a0, b0, h), p11 = tmul(a1, b1, h), pmx = tmul(a0 ^ a1, b0 ^ b1, h);
    return (p00 ^ tmul(p11, C[h], h)) | ((pmx ^ p00) << h);
}

uint32_t gf_mul(uint32_t a, uint32_t b) { return tmul(a, b, 32); }

uint32_t gf_pow(uint32_t a, uint32_t e)
{
    uint32_t r = 1;
    while (e) {
        if (e & 1) r = gf_mul(r, a);
        a = gf_mul(a, a);
        e >>= 1;
    }
    return r;
}

/* ------------------------------------------------------------------ generic 32x32 bit matrices */
/* row masks: bit j of rows[i] = M[i][j]; apply: out[i] = XOR_{j in rows[i]} in[j] (in place) */
static void mat_rows(uint32_t rows[32], const uint8_t m[32][32])
{
    for (int i = 0; i < 32; i++) {
        uint32_t r = 0;
        for (int j = 0; j < 32; j++) r |= (uint32_t)(m[i][j] & 1) << j;
        rows[i] = r;
    }
}

__attribute__((unused)) static void mat_apply(const uint32_t rows[32], uint32_t *x)
{
    uint32_t in[32];
    memcpy(in, x, sizeof in);
    for (int i = 0; i < 32; i++) {
        uint32_t m = rows[i], acc = 0;
        while (m) {
            acc ^= in[__builtin_ctz(m)];
            m &= m - 1;
        }
        x[i] = acc;
    }
}

static uint32_t enc_rows[32], dec_rows[32];
static uint32_t gam_rows[FAFFT_L + 1][32];

/* GEN_XOR_INOUT: the exporter's call form encode_xor(in, out) / decode_xor(in, out) (in == out
   allowed); the fixture and tools/gen_xor_board.py emit the in-place form encode_xor(x). */
#if defined(FAFFT_ASM_ROUTINES) && !defined(HOST_BUILD)
/* The exported Thumb-2 routines (search export: NAME.S), void NAME(uint32_t *out, const uint32_t *in)
   on 32-word bitsliced arrays, out and in never aliased. */
/* Each routine is also linked as NAME_nosave (the Makefile assembles the same file with its
   vpush/vpop {s16-s31} turned into sp -/+ 64): it leaves s16-s31 changed. The transform calls
   only the _nosave forms, from functions that name FP_FRAME(): the compiler then saves s16-s31
   once in their prologue instead of once per routine call (docs/board.md section 17.3). */
#define FAFFT_ROUTINE(name) void name(uint32_t *out, const uint32_t *in); \
    void name##_nosave(uint32_t *out, const uint32_t *in);
#define R_(name) name##_nosave
#define FP_FRAME()                                                                               \
    __asm__ volatile("" ::: "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", \
                     "s26", "s27", "s28", "s29", "s30", "s31")
FAFFT_ROUTINE(encode_to_gft_full_length)
FAFFT_ROUTINE(decode_from_gft_full_length)
FAFFT_ROUTINE(gft_mul_s_inv_1_beta) FAFFT_ROUTINE(gft_mul_s_inv_2_beta) FAFFT_ROUTINE(gft_mul_s_inv_3_beta)
FAFFT_ROUTINE(gft_mul_s_inv_4_beta) FAFFT_ROUTINE(gft_mul_s_inv_5_beta) FAFFT_ROUTINE(gft_mul_s_inv_6_beta)
FAFFT_ROUTINE(gft_mul_s_inv_7_beta) FAFFT_ROUTINE(gft_mul_s_inv_8_beta) FAFFT_ROUTINE(gft_mul_s_inv_9_beta)
FAFFT_ROUTINE(gft_mul_s_inv_10_beta) FAFFT_ROUTINE(gft_mul_s_inv_11_beta) FAFFT_ROUTINE(gft_mul_s_inv_12_beta)
FAFFT_ROUTINE(gft_mul_s_inv_13_beta)
static void (*const gamma_asm[16])(uint32_t *, const uint32_t *) = {
    0, R_(gft_mul_s_inv_1_beta), R_(gft_mul_s_inv_2_beta), R_(gft_mul_s_inv_3_beta), R_(gft_mul_s_inv_4_beta),
    R_(gft_mul_s_inv_5_beta),
#if FAFFT_L >= 6
    R_(gft_mul_s_inv_6_beta),
#endif
#if FAFFT_L >= 7
    R_(gft_mul_s_inv_7_beta),
#endif
#if FAFFT_L >= 8
    R_(gft_mul_s_inv_8_beta),
#endif
#if FAFFT_L >= 9
    R_(gft_mul_s_inv_9_beta),
#endif
#if FAFFT_L >= 10
    R_(gft_mul_s_inv_10_beta),
#endif
#if FAFFT_L >= 11
    R_(gft_mul_s_inv_11_beta),
#endif
#if FAFFT_L >= 12
    R_(gft_mul_s_inv_12_beta),
#endif
#if FAFFT_L >= 13
    R_(gft_mul_s_inv_13_beta),
#endif
};
#define FAFFT_USE_ASM 1
#else
#define FP_FRAME() ((void)0)
#endif

__attribute__((unused)) static void encode_apply(uint32_t *x)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    R_(encode_to_gft_full_length)(t, x);
    memcpy(x, t, sizeof t);
#elif defined(HAVE_GEN_XOR) && defined(GEN_XOR_INOUT)
    encode_xor(x, x);
#elif defined(HAVE_GEN_XOR)
    encode_xor(x);
#else
    mat_apply(enc_rows, x);
#endif
}

__attribute__((unused)) static void decode_apply(uint32_t *x)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    R_(decode_from_gft_full_length)(t, x);
    memcpy(x, t, sizeof t);
#elif defined(HAVE_GEN_XOR) && defined(GEN_XOR_INOUT)
    decode_xor(x, x);
#elif defined(HAVE_GEN_XOR)
    decode_xor(x);
#else
    mat_apply(dec_rows, x);
#endif
}

#if defined(HAVE_GEN_XOR) && !defined(FAFFT_USE_ASM)
typedef void (*xorprog_t)(uint32_t *);
static void (*const gamma_prog[16])(uint32_t *) = {
    0, gft_mul_gamma_1, gft_mul_gamma_2, gft_mul_gamma_3, gft_mul_gamma_4, gft_mul_gamma_5,
#if FAFFT_L >= 6
    gft_mul_gamma_6,
#endif
#if FAFFT_L >= 7
    gft_mul_gamma_7,
#endif
#if FAFFT_L >= 8
    gft_mul_gamma_8,
#endif
#if FAFFT_L >= 9
    gft_mul_gamma_9,
#endif
#if FAFFT_L >= 10
    gft_mul_gamma_10,
#endif
#if FAFFT_L >= 11
    gft_mul_gamma_11,
#endif
#if FAFFT_L >= 12
    gft_mul_gamma_12,
#endif
#if FAFFT_L >= 13
    gft_mul_gamma_13,
#endif
};
#endif

#ifdef HAVE_GEN_XOR_ACC
static void (*const gamma_acc_prog[16])(uint32_t *, const uint32_t *) = {
    0, gft_mulacc_gamma_1, gft_mulacc_gamma_2, gft_mulacc_gamma_3, gft_mulacc_gamma_4, gft_mulacc_gamma_5,
#if FAFFT_L >= 6
    gft_mulacc_gamma_6,
#endif
#if FAFFT_L >= 7
    gft_mulacc_gamma_7,
#endif
#if FAFFT_L >= 8
    gft_mulacc_gamma_8,
#endif
#if FAFFT_L >= 9
    gft_mulacc_gamma_9,
#endif
#if FAFFT_L >= 10
    gft_mulacc_gamma_10,
#endif
#if FAFFT_L >= 11
    gft_mulacc_gamma_11,
#endif
#if FAFFT_L >= 12
    gft_mulacc_gamma_12,
#endif
#if FAFFT_L >= 13
    gft_mulacc_gamma_13,
#endif
};
#endif

/* acc ^= gamma_j * y */
static inline void gamma_acc(unsigned j, uint32_t *acc, const uint32_t *y)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    gamma_asm[j](t, y);
    xor_into(acc, t, 32);
#elif defined(HAVE_GEN_XOR_ACC)
    gamma_acc_prog[j](acc, y);
#else
    uint32_t t[32];
    memcpy(t, y, sizeof t);
#ifdef HAVE_GEN_XOR
    gamma_prog[j](t);
#else
    mat_apply(gam_rows[j], t);
#endif
    xor_into(acc, t, 32);
#endif
}

__attribute__((unused)) static inline void gamma_apply(unsigned j, uint32_t *x)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    gamma_asm[j](t, x);
    memcpy(x, t, sizeof t);
#elif defined(HAVE_GEN_XOR)
    gamma_prog[j](x);
#else
    mat_apply(gam_rows[j], x);
#endif
}

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

void basis_cvt_ref(uint32_t *f, unsigned L)
{
    for (unsigned k = L; k-- > 0;)
        for (unsigned s = 0; s < (1u << L); s += 2u << k) div_s(f, s, k, 0);
}

void ibasis_cvt_ref(uint32_t *f, unsigned L)
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
void basis_cvt4_lanes(uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) w[i] = bc4x2(w[i]);
}

void ibasis_cvt4_lanes(uint32_t *w, unsigned n)
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

void basis_cvt(uint32_t *f, unsigned L) { basis_cvt_top(f, L, 1u << (L - 5)); }

void ibasis_cvt(uint32_t *f, unsigned L)
{
    unsigned W = 1u << (L - 5);
    for (unsigned s = 0; s < W; s += 8) ibc8(f + s);
    ebc_replay(f, L - 8, 1);
    for (unsigned lg = 9; lg <= L; lg++) {
        unsigned H = 1u << (lg - 6), d = 1u << (lg - 9);
        for (unsigned s = 0; s < W; s += 2 * H) taylor_level(f + s, H, d, H, 1);
    }
}

/* ------------------------------------------------------------------ Encode / Decode sec. 7.3 */
void fafft_encode(fafft_vals_t *v, const uint32_t *g)
{
    FP_FRAME();
    for (unsigned b = 0; b < NG; b++) {
        uint32_t *x = v->g[b];
#if defined(FAFFT_USE_ASM)
        /* gather into a scratch group, the routine writes the group (out, in never aliased) */
        uint32_t t[32];
        const uint32_t *gb = g + b;
#pragma GCC unroll 32
        for (unsigned j = 0; j < 32; j++) t[j] = gb[j * NG];
        R_(encode_to_gft_full_length)(x, t);
#else
        for (unsigned j = 0; j < 32; j++) x[j] = g[j * NG + b];
        encode_apply(x);
#endif
    }
}

void fafft_decode(uint32_t *g, fafft_vals_t *v)
{
    FP_FRAME();
    for (unsigned b = 0; b < NG; b++) {
        uint32_t *x = v->g[b];
#if defined(FAFFT_USE_ASM)
        uint32_t t[32];
        R_(decode_from_gft_full_length)(t, x);
        uint32_t *gb = g + b;
#pragma GCC unroll 32
        for (unsigned j = 0; j < 32; j++) gb[j * NG] = t[j];
#else
        decode_apply(x);
        for (unsigned j = 0; j < 32; j++) g[j * NG + b] = x[j];
#endif
    }
}

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

void fafft_vals_transpose(fafft_vals_t *v) { vals_transpose(v); }

/* stage regions: btfy.low / ibtfy.low = layers 5..1 on the NGS stored groups (layout B) */
void fafft_btfy(fafft_vals_t *v)
{
    for (unsigned L = FAFFT_L; L >= 6; L--) btfy_cross(v, L, 0);
    vals_transpose(v);
    STAGE_START();
    for (unsigned L = 5; L >= 1; L--) btfy_low(v, L, 0);
    STAGE_STOP("btfy.low");
}

void fafft_ibtfy(fafft_vals_t *v)
{
    STAGE_START();
    for (unsigned L = 1; L <= 5; L++) btfy_low(v, L, 1);
    STAGE_STOP("ibtfy.low");
    vals_transpose(v);
    for (unsigned L = 6; L <= FAFFT_L; L++) btfy_cross(v, L, 1);
}

#if NG < 32
/* l < 10: in layout B only bit positions 0..NG-1 of the 32 groups hold points. The pointwise
   product packs the data bits of PACK = 32/NG groups into the words of one (group t = j + NG q
   goes to bits NG q .. NG q + NG - 1 of packed group j), multiplies NG packed groups and
   unpacks; the unpacked groups have zeros at the positions of no point. Fixed loops and
   addresses. */
#define PACK (32u / NG)
static uint32_t pw_pa[NG][32], pw_pb[NG][32], pw_pc[NG][32];

static void pack_groups(uint32_t p[NG][32], const fafft_vals_t *a)
{
    const uint32_t m = (1u << NG) - 1u;
    for (unsigned j = 0; j < NG; j++)
        for (unsigned k = 0; k < 32; k++) {
            uint32_t w = 0;
#pragma GCC unroll 16
            for (unsigned q = 0; q < PACK; q++) w |= (a->g[j + NG * q][k] & m) << (NG * q);
            p[j][k] = w;
        }
}

static void unpack_groups(fafft_vals_t *out, const uint32_t p[NG][32])
{
    const uint32_t m = (1u << NG) - 1u;
    for (unsigned j = 0; j < NG; j++)
        for (unsigned k = 0; k < 32; k++) {
            const uint32_t w = p[j][k];
#pragma GCC unroll 16
            for (unsigned q = 0; q < PACK; q++) out->g[j + NG * q][k] = (w >> (NG * q)) & m;
        }
}

void fafft_pointwise3(fafft_vals_t *out, const fafft_vals_t *a, const fafft_vals_t *b)
{
    pack_groups(pw_pa, a);
    pack_groups(pw_pb, b);
    for (unsigned g = 0; g < NG; g++) bs_mul32(pw_pc[g], pw_pa[g], pw_pb[g]);
    unpack_groups(out, pw_pc);
}

void fafft_pointwise(fafft_vals_t *a, const fafft_vals_t *b) { fafft_pointwise3(a, a, b); }
#else
void fafft_pointwise3(fafft_vals_t *out, const fafft_vals_t *a, const fafft_vals_t *b)
{
    for (unsigned g = 0; g < NG; g++) bs_mul32(out->g[g], a->g[g], b->g[g]);
}

void fafft_pointwise(fafft_vals_t *a, const fafft_vals_t *b)
{
    uint32_t t[32];
    for (unsigned g = 0; g < NG; g++) {
        bs_mul32(t, a->g[g], b->g[g]);
        memcpy(a->g[g], t, sizeof t);
    }
}
#endif

/* ------------------------------------------------------------------ pipeline sec. 7.2 */
void fafft_forward(fafft_vals_t *out, const uint32_t *f, unsigned fwords, uint32_t *buf)
{
    STAGE_START();
    memcpy(buf, f, fwords * sizeof(uint32_t));
    memset(buf + fwords, 0, (FAFFT_WORDS - fwords) * sizeof(uint32_t));
    basis_cvt_top(buf, FAFFT_LBITS, fwords);
    STAGE_STOP("fwd.basis_cvt");
    STAGE_START();
    fafft_encode(out, buf);
    STAGE_STOP("fwd.encode");
    STAGE_START();
    fafft_btfy(out);
    STAGE_STOP("fwd.btfy");
}

void fafft_inverse(uint32_t *h, fafft_vals_t *v)
{
    STAGE_START();
    fafft_ibtfy(v);
    STAGE_STOP("inv.btfy");
    STAGE_START();
    fafft_decode(h, v);
    STAGE_STOP("inv.decode");
    STAGE_START();
    ibasis_cvt(h, FAFFT_LBITS);
    STAGE_STOP("inv.basis_cvt");
}

static fafft_vals_t va, vb;

/* The transform buffers as scratch for a caller that runs after fafft_mul returns (twomod.c,
   which so needs no value arrays of its own: RAM): 0 = va, 1 = vb, 2 = the basis-conversion
   buffer, each FAFFT_NGSTORE * 32 words; NULL otherwise. */
uint32_t *fafft_scratch(unsigned i)
{
    switch (i) {
    case 0: return &va.g[0][0];
    case 1: return &vb.g[0][0];
    case 2: return fbuf_u.w;
    default: return NULL;
    }
}

void fafft_mul(uint32_t *h, const uint32_t *f, const uint32_t *g, unsigned words)
{
    STAGE_START();
    fafft_forward(&va, f, words, fbuf);
    STAGE_STOP("forward(f)");
    STAGE_START();
    fafft_forward(&vb, g, words, fbuf);
    STAGE_STOP("forward(g)");
    STAGE_START();
    fafft_pointwise3(&fbuf_u.v, &va, &vb);   /* no copy back */
    STAGE_STOP("pointwise");
    STAGE_START();
    fafft_inverse(h, &fbuf_u.v);
    STAGE_STOP("inverse");
}

/* ------------------------------------------------------------------ carry-less products */
/* 32x32 -> 64 carry-less product from integer multiplies: split both operands into the four
   residue classes of bit positions mod 4; a class-i by class-j integer product has at most 8
   terms per output position, and positions of one class are 4 apart, so no carry reaches the
   next position of the same class; keep class (i+j) mod 4 of each product. */
#if defined(__arm__) && !defined(HOST_BUILD)
/* Thumb-2 version of the same computation and the 2-word Karatsuba leaf: clmul_m4.S */
uint64_t clmul32_m4(uint32_t a, uint32_t b);
void clmul_kara2_m4(uint32_t r[4], const uint32_t a[2], const uint32_t b[2]);
void clmul_kara4_m4(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
void kara_combine_m4(uint32_t *r, const uint32_t *m, uint32_t h);
#define clmul32(a, b) clmul32_m4((a), (b))
#define CLMUL_KARA2_M4 1
#else
static inline uint64_t clmul32(uint32_t a, uint32_t b)
{
    const uint32_t m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    uint32_t a0 = a & m0, a1 = a & m1, a2 = a & m2, a3 = a & m3;
    uint32_t b0 = b & m0, b1 = b & m1, b2 = b & m2, b3 = b & m3;
    uint64_t z0 = ((uint64_t)a0 * b0) ^ ((uint64_t)a1 * b3) ^ ((uint64_t)a2 * b2) ^ ((uint64_t)a3 * b1);
    uint64_t z1 = ((uint64_t)a0 * b1) ^ ((uint64_t)a1 * b0) ^ ((uint64_t)a2 * b3) ^ ((uint64_t)a3 * b2);
    uint64_t z2 = ((uint64_t)a0 * b2) ^ ((uint64_t)a1 * b1) ^ ((uint64_t)a2 * b0) ^ ((uint64_t)a3 * b3);
    uint64_t z3 = ((uint64_t)a0 * b3) ^ ((uint64_t)a1 * b2) ^ ((uint64_t)a2 * b1) ^ ((uint64_t)a3 * b0);
    return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull) |
           (z2 & 0x4444444444444444ull) | (z3 & 0x8888888888888888ull);
}

#endif

/* low 32 bits only */
static inline uint32_t clmul32lo(uint32_t a, uint32_t b)
{
    const uint32_t m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    uint32_t a0 = a & m0, a1 = a & m1, a2 = a & m2, a3 = a & m3;
    uint32_t b0 = b & m0, b1 = b & m1, b2 = b & m2, b3 = b & m3;
    uint32_t z0 = (a0 * b0) ^ (a1 * b3) ^ (a2 * b2) ^ (a3 * b1);
    uint32_t z1 = (a0 * b1) ^ (a1 * b0) ^ (a2 * b3) ^ (a3 * b2);
    uint32_t z2 = (a0 * b2) ^ (a1 * b1) ^ (a2 * b0) ^ (a3 * b3);
    uint32_t z3 = (a0 * b3) ^ (a1 * b2) ^ (a2 * b1) ^ (a3 * b0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

#define KARA_MAX 192
/* kara_full on n words needs 2n + 2(n/2) + ... < 4n scratch words, kara_low at most 4n
   (2n + max(< 2n, <= 2n) when even, 7n/3 + max(< 4n/3, <= 4n/3) in the 3-way split), so
   4 * CRT_WORDS (resp. 4 * SPLIT_RW_MAX) words always suffice; at least 8 * KARA_MAX words for
   the tests' products (search::measure::kara_scratch_words mirrors this rule). */
#define KS_WORDS_MAX2(a, b) ((a) > (b) ? (a) : (b))
#ifdef SPLIT_K
#define KSCRATCH_WORDS KS_WORDS_MAX2(8 * KARA_MAX, KS_WORDS_MAX2(4 * CRT_WORDS, 4 * SPLIT_RW_MAX))
#else
#define KSCRATCH_WORDS KS_WORDS_MAX2(8 * KARA_MAX, 4 * CRT_WORDS)
#endif
static uint32_t kscratch[KSCRATCH_WORDS];

static void school_full(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n)
{
    memset(r, 0, 2 * n * sizeof(uint32_t));
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            uint64_t p = clmul32(a[i], b[j]);
            r[i + j] ^= (uint32_t)p;
            r[i + j + 1] ^= (uint32_t)(p >> 32);
        }
}

/* 3 words: 3-way Karatsuba, 6 word products */
static void kara3(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint64_t p0 = clmul32(a[0], b[0]), p1 = clmul32(a[1], b[1]), p2 = clmul32(a[2], b[2]);
    uint64_t p01 = clmul32(a[0] ^ a[1], b[0] ^ b[1]) ^ p0 ^ p1;
    uint64_t p12 = clmul32(a[1] ^ a[2], b[1] ^ b[2]) ^ p1 ^ p2;
    uint64_t p02 = clmul32(a[0] ^ a[2], b[0] ^ b[2]) ^ p0 ^ p2 ^ p1;
    r[0] = (uint32_t)p0;
    r[1] = (uint32_t)(p0 >> 32) ^ (uint32_t)p01;
    r[2] = (uint32_t)(p01 >> 32) ^ (uint32_t)p02;
    r[3] = (uint32_t)(p02 >> 32) ^ (uint32_t)p12;
    r[4] = (uint32_t)(p12 >> 32) ^ (uint32_t)p2;
    r[5] = (uint32_t)(p2 >> 32);
}

static void kara_full(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *tmp)
{
    if (n == 3) {
        kara3(r, a, b);
        return;
    }
#ifdef CLMUL_KARA2_M4
    if (n == 4) {
        clmul_kara4_m4(r, a, b);
        return;
    }
#endif
    if (n == 2) {   /* 3 word products */
#ifdef CLMUL_KARA2_M4
        clmul_kara2_m4(r, a, b);
#else
        uint64_t p0 = clmul32(a[0], b[0]), p1 = clmul32(a[1], b[1]);
        uint64_t pm = clmul32(a[0] ^ a[1], b[0] ^ b[1]) ^ p0 ^ p1;
        r[0] = (uint32_t)p0;
        r[1] = (uint32_t)(p0 >> 32) ^ (uint32_t)pm;
        r[2] = (uint32_t)(pm >> 32) ^ (uint32_t)p1;
        r[3] = (uint32_t)(p1 >> 32);
#endif
        return;
    }
    if (n < 3 || (n & 1)) {
        school_full(r, a, b, n);
        return;
    }
    unsigned h = n / 2;
    uint32_t *as = tmp, *bs = tmp + h, *m = tmp + 2 * h, *next = tmp + 4 * h;
    for (unsigned i = 0; i < h; i++) {
        as[i] = a[i] ^ a[h + i];
        bs[i] = b[i] ^ b[h + i];
    }
#ifdef CLMUL_KARA2_M4
    if (h == 4) {   /* the three leaves directly (no dispatch through kara_full) */
        clmul_kara4_m4(m, as, bs);
        clmul_kara4_m4(r, a, b);
        clmul_kara4_m4(r + n, a + h, b + h);
        kara_combine_m4(r, m, h);
        return;
    }
#endif
    kara_full(m, as, bs, h, next);
    kara_full(r, a, b, h, next);
    kara_full(r + n, a + h, b + h, h, next);
#ifdef CLMUL_KARA2_M4
    if (!(h & 1)) {
        kara_combine_m4(r, m, h);
        return;
    }
#endif
    xor_into(m, r, n);
    xor_into(m, r + n, n);
    xor_into(r + h, m, n);
}

void clmul_full(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n) { kara_full(r, a, b, n, kscratch); }

static void kara_low(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *tmp);

/* n = 3t: a = a0 + a1 X + a2 X^2 (X = x^(32t)), the low 3t words of a*b are
   a0b0 + (a0b1 + a1b0) X + low_t(a0b2 + a1b1 + a2b0) X^2 with a0b1 + a1b0 by Karatsuba:
   3 full t-word products and 2 truncated ones (docs/fafft.md sec. 9.10) */
static void kara_low3(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned t, uint32_t *tmp)
{
    uint32_t *as = tmp, *bs = tmp + t, *m = tmp + 2 * t, *s = tmp + 4 * t, *lw = tmp + 6 * t,
             *next = tmp + 7 * t;
    kara_full(r, a, b, t, next);                /* a0 b0 -> r[0..2t) */
    kara_full(m, a + t, b + t, t, next);        /* a1 b1 */
    for (unsigned i = 0; i < t; i++) {
        as[i] = a[i] ^ a[t + i];
        bs[i] = b[i] ^ b[t + i];
    }
    kara_full(s, as, bs, t, next);              /* (a0 + a1)(b0 + b1) */
    xor_into(s, r, 2 * t);
    xor_into(s, m, 2 * t);                      /* a0b1 + a1b0 */
    memcpy(r + 2 * t, m, t * sizeof(uint32_t)); /* low_t(a1 b1) */
    xor_into(r + t, s, 2 * t);
    kara_low(lw, a, b + 2 * t, t, next);
    xor_into(r + 2 * t, lw, t);
    kara_low(lw, a + 2 * t, b, t, next);
    xor_into(r + 2 * t, lw, t);
}

static void kara_low(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *tmp)
{
    if (n >= 6 && n % 3 == 0) {
        kara_low3(r, a, b, n / 3, tmp);
        return;
    }
    if (n == 2) {   /* the loop below for n = 2, without the call to clear r */
        uint64_t p = clmul32(a[0], b[0]);
        r[0] = (uint32_t)p;
        r[1] = (uint32_t)(p >> 32) ^ clmul32lo(a[0], b[1]) ^ clmul32lo(a[1], b[0]);
        return;
    }
    if (n <= 3 || (n & 1)) {
        memset(r, 0, n * sizeof(uint32_t));
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; i + j + 1 < n; j++) {
                uint64_t p = clmul32(a[i], b[j]);
                r[i + j] ^= (uint32_t)p;
                r[i + j + 1] ^= (uint32_t)(p >> 32);
            }
            r[n - 1] ^= clmul32lo(a[i], b[n - 1 - i]);
        }
        return;
    }
    unsigned h = n / 2;
    uint32_t *t1 = tmp, *t2 = tmp + h, *next = tmp + 2 * h;
    kara_full(r, a, b, h, next);               /* a0 b0: n words, into r directly */
    kara_low(t1, a, b + h, h, next);            /* a0 b1 mod x^h */
    kara_low(t2, a + h, b, h, next);            /* a1 b0 mod x^h */
    xor_into(r + h, t1, h);
    xor_into(r + h, t2, h);
}

void clmul_low(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n) { kara_low(r, a, b, n, kscratch); }

/* ------------------------------------------------------------------ CRT sec. 9 */
#if CRT_C
void crt_times_il(uint32_t *u, const uint32_t *t) { clmul_low(u, t, IL_plain, CRT_WORDS); }

/* u = t * M^{-1} mod x^c without IL: solve M u = t (mod x^c) word by word, using the sparse M.
   After u[w] is known its contributions u[w] x^(32w) * (M - 1) are pushed into the later words
   (per residue class r = e mod 32 one shifted pair lo/hi); the exponents e < 32 act inside a
   word, where S(x) = x + sum_{0<e<32, e in M} x<<e (mod 2^32) = x * P mod x^32 with the public
   P = 1 + sum x^e.  So u[w] = S^{-1}(acc[w]) = acc[w] * Q mod x^32, Q = P^{-1} mod x^32, applied
   as one shifted EOR per set bit of Q (no table, no data-dependent address; docs/fafft.md
   sec. 9.9).  P and Q are folded at compile time from the static const header arrays.  Same u
   as crt_times_il (tested). */
static inline __attribute__((always_inline)) uint32_t sinv_p(void)
{
    uint32_t low = 1;
#pragma GCC unroll 40
    for (unsigned r = 1; r < 32; r++)
#pragma GCC unroll 200
        for (unsigned o = (unsigned)minpoly_offsets[r]; o < (unsigned)minpoly_offsets[r + 1]; o++)
            if (minpoly_flat[o] == 0) low |= 1u << r;
    return low;
}

/* Q = P^{-1} mod x^32 by forward substitution (P has constant term 1) */
static inline __attribute__((always_inline)) uint32_t sinv_q(void)
{
    const uint32_t p = sinv_p();
    uint32_t y = 1, q = 0;
#pragma GCC unroll 32
    for (unsigned i = 0; i < 32; i++)
        if ((y >> i) & 1u) {
            q |= 1u << i;
            y ^= p << i;
        }
    return q;
}

static inline __attribute__((always_inline)) uint32_t sinv_apply(uint32_t v)
{
    const uint32_t q = sinv_q();
    uint32_t x = 0;
#pragma GCC unroll 32
    for (unsigned j = 0; j < 32; j++)
        if ((q >> j) & 1u) x ^= v << j;
    return x;
}

uint32_t crt_sinv_q(void) { return sinv_q(); }

/* Pull form: u[w] = S^{-1}( t[w] + sum_{e in M, 32 <= e < c} (u x^e)[w] + sum_{0 < e < 32} u[w-1] >> (32-e) ).
   u is zero-padded below word 0, so every word has the same body; the loops over the
   exponents are unrolled at compile time from the static const header arrays, so each term
   becomes two loads and two EORs with immediate shifts. */
static uint32_t solve_ue[2 * CRT_WORDS];

static inline __attribute__((always_inline)) uint32_t solve_terms(const uint32_t *p)
{
    uint32_t x = 0;
#pragma GCC unroll 40
    for (unsigned r = 0; r < 32; r++) {
#pragma GCC unroll 200
        for (unsigned o = (unsigned)minpoly_offsets[r]; o < (unsigned)minpoly_offsets[r + 1]; o++) {
            unsigned a = minpoly_flat[o], e = 32 * a + r;
            if (e == 0 || e >= CRT_C) continue;
            if (r == 0) x ^= p[-(int)a];
            else {
                if (a) x ^= p[-(int)a] << r;
                x ^= p[-(int)a - 1] >> (32 - r);
            }
        }
    }
    return x;
}

void crt_solve_u(uint32_t *u, const uint32_t *t)
{
    uint32_t *ue = solve_ue + CRT_WORDS;     /* solve_ue[0..CRT_WORDS) stays zero */
    for (unsigned w = 0; w < CRT_WORDS; w++)
        ue[w] = sinv_apply(t[w] ^ solve_terms(ue + w));
    memcpy(u, ue, CRT_WORDS * sizeof(uint32_t));
}

#if defined(__arm__) && !defined(HOST_BUILD) && CRT_WORDS % 4 == 0
/* wordxor_m4.S */
void shl_words_m4(uint32_t *dst, const uint32_t *src, uint32_t n, uint32_t r);
void xor3_into_m4(uint32_t *const d[3], const uint32_t *s, uint32_t n);
#define CRT_WORDXOR_M4 1
#endif

/* sh[0..CRT_WORDS] = u * x^r, 0 < r < 32 */
static inline void crt_shift(uint32_t *sh, const uint32_t *u, unsigned r)
{
#ifdef CRT_WORDXOR_M4
    shl_words_m4(sh, u, CRT_WORDS, r);
#else
    sh[0] = u[0] << r;
    for (unsigned i = 1; i < CRT_WORDS; i++) sh[i] = (u[i] << r) | (u[i - 1] >> (32 - r));
    sh[CRT_WORDS] = u[CRT_WORDS - 1] >> (32 - r);
#endif
}

/* h = cM + M u for the words >= c/32 only; below, cM + M u = cR (mod x^c) by the choice of u,
   so h[0..c/32) = cR is written directly. h[0..FAFFT_WORDS) holds cM, the rest is zero. */
void crt_reconstruct_hi(uint32_t *h, const uint32_t *u, const uint32_t *cr)
{
    uint32_t sh[CRT_WORDS + 1];
    for (unsigned r = 0; r < 32; r++) {
        unsigned o0 = minpoly_offsets[r], o1 = minpoly_offsets[r + 1];
        if (o0 == o1) continue;
        const uint32_t *src = u;
        unsigned len = CRT_WORDS;
        if (r) {
            crt_shift(sh, u, r);
            src = sh;
            len = CRT_WORDS + 1;
        }
        unsigned o = o0;
#ifdef CRT_WORDXOR_M4
        /* terms with no clipped words (a >= c/32), three at a time: each source block is
           loaded once (the public exponents decide the grouping) */
        uint32_t *d3[3];
        unsigned k = 0;
        for (; o < o1; o++) {
            unsigned a = minpoly_flat[o];
            if (a < CRT_WORDS) break;   /* the rest (clipped, or after one) take the general loop */
            d3[k++] = h + a;
            if (k == 3) {
                xor3_into_m4(d3, src, CRT_WORDS);
                if (len > CRT_WORDS)
                    for (unsigned q = 0; q < 3; q++) d3[q][CRT_WORDS] ^= src[CRT_WORDS];
                k = 0;
            }
        }
        for (unsigned q = 0; q < k; q++) xor_into(d3[q], src, len);
#endif
        for (; o < o1; o++) {
            unsigned a = minpoly_flat[o], j0 = a >= CRT_WORDS ? 0 : CRT_WORDS - a;
            if (j0 < len) xor_into(h + a + j0, src + j0, len - j0);
        }
    }
    memcpy(h, cr, CRT_WORDS * sizeof(uint32_t));
}
#endif

/* h (PROD_WORDS words, h[0..FAFFT_WORDS) = cM, rest 0) += M * u, per residue class (sec. 9.4) */
void crt_reconstruct(uint32_t *h, const uint32_t *u)
{
#if CRT_C
    uint32_t sh[CRT_WORDS + 1];
    for (unsigned r = 0; r < 32; r++) {
        unsigned o0 = minpoly_offsets[r], o1 = minpoly_offsets[r + 1];
        if (o0 == o1) continue;
        const uint32_t *src = u;
        unsigned len = CRT_WORDS;
        if (r) {
            sh[0] = u[0] << r;
            for (unsigned i = 1; i < CRT_WORDS; i++) sh[i] = (u[i] << r) | (u[i - 1] >> (32 - r));
            sh[CRT_WORDS] = u[CRT_WORDS - 1] >> (32 - r);
            src = sh;
            len = CRT_WORDS + 1;
        }
        for (unsigned o = o0; o < o1; o++) xor_into(h + minpoly_flat[o], src, len);
    }
#else
    (void)h; (void)u;
#endif
}

/* The CRT part of crt_product: h[0..FAFFT_WORDS) holds cM = f*g mod M on entry. */
__attribute__((unused)) static void crt_finish(uint32_t *h, const uint32_t *f, const uint32_t *g)
{
#if CRT_C
    static uint32_t cr[CRT_WORDS], cr0[CRT_WORDS], u[CRT_WORDS];
    memset(h + FAFFT_WORDS, 0, (PROD_WORDS - FAFFT_WORDS) * sizeof(uint32_t));
    STAGE_START();
#if CRT_WORDS > HQC_WORDS
    /* c > n words: f, g have HQC_WORDS words, zero-padded here to the residue's c/32 */
    static uint32_t fpad[CRT_WORDS], gpad[CRT_WORDS];
    memcpy(fpad, f, HQC_WORDS * sizeof(uint32_t));
    memcpy(gpad, g, HQC_WORDS * sizeof(uint32_t));
    memset(fpad + HQC_WORDS, 0, (CRT_WORDS - HQC_WORDS) * sizeof(uint32_t));
    memset(gpad + HQC_WORDS, 0, (CRT_WORDS - HQC_WORDS) * sizeof(uint32_t));
    clmul_low(cr, fpad, gpad, CRT_WORDS);
#else
    clmul_low(cr, f, g, CRT_WORDS);
#endif
    STAGE_STOP("residue f*g mod x^c");
    STAGE_START();
    memcpy(cr0, cr, sizeof cr0);
    for (unsigned i = 0; i < CRT_WORDS; i++) cr[i] ^= h[i];
#ifdef CRT_U_IL
    crt_times_il(u, cr);
#else
    crt_solve_u(u, cr);
#endif
    STAGE_STOP("u = (cR+cM)/M mod x^c");
    STAGE_START();
    crt_reconstruct_hi(h, u, cr0);
    STAGE_STOP("reconstruct cM + M*u");
#else
    (void)h; (void)f; (void)g;
#endif
}

#ifdef SPLIT_K
/* ---- the 2-Karatsuba split (docs/fafft.md sec. 9.11): f = f0 + x^k f1, g = g0 + x^k g1 with
   k = 32 kw, deg f1, g1 < n - k <= k and 2k <= N, so the FAFFT modulo M returns the products
   P0 = f0 g0 and P1 = (f0 + f1)(g0 + g1) of k-bit operands exactly. P2 = f1 g1 is the full
   product of the (n - k)-bit halves, zero-padded to rw words (clmul_full). Then
   f g = P0 + x^k (P0 + P1 + P2) + x^2k P2. The second inverse is of A'B' = the transform of P1;
   S = P0 + P1 is formed in the time domain, and only on the HQC_WORDS words where
   T = S + P2 = f0 g1 + f1 g0 (degree <= n - 2) can be nonzero: the same result as the inverse
   of A0 B0 + A'B', fewer words than the N/32 of the transform-domain sum. All loop bounds and
   addresses depend on kw, rw and the public sizes only. */
static uint32_t split_fs[SPLIT_KW_MAX], split_gs[SPLIT_KW_MAX];   /* f0 + f1, g0 + g1 */
static uint32_t split_f1[SPLIT_RW_MAX], split_g1[SPLIT_RW_MAX];   /* f1, g1, zero-padded */
static uint32_t split_p2[2 * SPLIT_RW_MAX];                       /* P2 = f1 g1 */
static uint32_t split_p1[FAFFT_WORDS];                            /* P1, then T */

int split_product(uint32_t *h, const uint32_t *f, const uint32_t *g, unsigned kw, unsigned rw)
{
    if (kw < SPLIT_KW_MIN || kw > SPLIT_KW_MAX || rw + kw < HQC_WORDS || rw > SPLIT_RW_MAX) return -1;
    const unsigned r1 = HQC_WORDS - kw;   /* words of f1, g1 (<= kw) */
    STAGE_START();
    for (unsigned i = 0; i < r1; i++) {
        split_fs[i] = f[i] ^ f[kw + i];
        split_gs[i] = g[i] ^ g[kw + i];
    }
    memcpy(split_fs + r1, f + r1, (kw - r1) * sizeof(uint32_t));
    memcpy(split_gs + r1, g + r1, (kw - r1) * sizeof(uint32_t));
    STAGE_STOP("split: f0+f1, g0+g1");
    STAGE_START();
    fafft_forward(&va, f, kw, fbuf);
    STAGE_STOP("forward(f0)");
    STAGE_START();
    fafft_forward(&vb, g, kw, fbuf);
    STAGE_STOP("forward(g0)");
    STAGE_START();
    fafft_pointwise3(&fbuf_u.v, &va, &vb);
    STAGE_STOP("pointwise(P0)");
    STAGE_START();
    fafft_inverse(h, &fbuf_u.v);           /* P0: h[0..FAFFT_WORDS), zero from word 2 kw */
    STAGE_STOP("inverse(P0)");
    STAGE_START();
    fafft_forward(&va, split_fs, kw, fbuf);
    STAGE_STOP("forward(f0+f1)");
    STAGE_START();
    fafft_forward(&vb, split_gs, kw, fbuf);
    STAGE_STOP("forward(g0+g1)");
    STAGE_START();
    fafft_pointwise3(&fbuf_u.v, &va, &vb);
    STAGE_STOP("pointwise(P1)");
    STAGE_START();
    fafft_inverse(split_p1, &fbuf_u.v);    /* P1 */
    STAGE_STOP("inverse(P1)");
    STAGE_START();
    memcpy(split_f1, f + kw, r1 * sizeof(uint32_t));
    memcpy(split_g1, g + kw, r1 * sizeof(uint32_t));
    memset(split_f1 + r1, 0, (rw - r1) * sizeof(uint32_t));
    memset(split_g1 + r1, 0, (rw - r1) * sizeof(uint32_t));
    clmul_full(split_p2, split_f1, split_g1, rw);   /* P2: nonzero in its low 2 r1 words */
    STAGE_STOP("residual f1*g1");
    STAGE_START();
    /* T = P0 + P1 + P2 on its HQC_WORDS words (2 r1 <= HQC_WORDS since kw >= HQC_WORDS / 2) */
    xor_into(split_p1, h, HQC_WORDS);
    xor_into(split_p1, split_p2, 2 * r1);
    /* h = P0 + x^k T + x^2k P2 */
    if (PROD_WORDS > FAFFT_WORDS) memset(h + FAFFT_WORDS, 0, (PROD_WORDS - FAFFT_WORDS) * sizeof(uint32_t));
    xor_into(h + kw, split_p1, HQC_WORDS);
    xor_into(h + 2 * kw, split_p2, 2 * r1);
    STAGE_STOP("split: combination");
    return 0;
}
#endif

void fafft_xor_words(uint32_t *dst, const uint32_t *src, unsigned n) { xor_into(dst, src, n); }

void crt_product(uint32_t *h, const uint32_t *f, const uint32_t *g)
{
#ifdef SPLIT_K
    (void)split_product(h, f, g, SPLIT_KW, SPLIT_RW);   /* valid by the #error checks in fafft.h */
#elif defined(TWOMOD_L2)
    twomod_product(h, f, g);
#else
    STAGE_START();
    fafft_mul(h, f, g, HQC_WORDS);
    STAGE_STOP("fafft_mul");
    crt_finish(h, f, g);
#endif
}

/* ---- split path: transform once, multiply many (key caching, r2 shared by two products) */
#if defined(SPLIT_K) || defined(TWOMOD_L2)
/* A split export caches nothing: one cached transform would have to hold those of f0 and of
   f0 + f1 (a two-moduli export: those of f and of f mod M2). fafft_transform clears the slot
   and the _pre products are the plain ones. */
void fafft_transform(fafft_vals_t *t, const uint32_t *f)
{
    (void)f;
    memset(t, 0, sizeof *t);
}
#else
void fafft_transform(fafft_vals_t *t, const uint32_t *f) { fafft_forward(t, f, HQC_WORDS, fbuf); }
#endif

void crt_product_pre(uint32_t *h, const uint32_t *f, const fafft_vals_t *tf, const uint32_t *g,
                     const fafft_vals_t *tg)
{
#if defined(SPLIT_K) || defined(TWOMOD_L2)
    (void)tf; (void)tg;
    crt_product(h, f, g);
#else
    static fafft_vals_t tmp;
    if (!tg) {
        fafft_transform(&tmp, g);
        tg = &tmp;
    }
    STAGE_START();
    fafft_pointwise3(&va, tf, tg);
    STAGE_STOP("pointwise");
    STAGE_START();
    fafft_inverse(h, &va);
    STAGE_STOP("inverse");
    crt_finish(h, f, g);
#endif
}

void hqc_ring_mul_pre(uint32_t *r, const uint32_t *f, const fafft_vals_t *tf, const uint32_t *g,
                      const fafft_vals_t *tg)
{
    static uint32_t h[PROD_WORDS + 2];
    crt_product_pre(h, f, tf, g, tg);
    STAGE_START();
    hqc_fold(r, h);
    STAGE_STOP("fold mod x^n-1");
}

void hqc_fold(uint32_t *r, const uint32_t *h)
{
    const unsigned q = HQC_N / 32, s = HQC_N % 32;
#if defined(__arm__) && !defined(HOST_BUILD) && (HQC_N % 32)   /* (n = 32 q: the plain loop; e.g. a second instance) */
    if (s && HQC_WORDS >= 4) {
        /* four words per iteration: r[i] = h[i] ^ h[q+i] >> s ^ h[q+i+1] << (32-s) */
        const uint32_t *hh = h, *hq = h + q;
        uint32_t *rr = r;
        unsigned cnt = HQC_WORDS / 4;
        __asm__ volatile(
            "1:\n\t"
            "ldmia %[hq]!, {r4, r5, r6, r7}\n\t"
            "ldr r8, [%[hq]]\n\t"
            "ldmia %[h]!, {r9, r10, r11, r12}\n\t"
            "eor r9, r9, r4, lsr %[s]\n\t"
            "eor r9, r9, r5, lsl %[t]\n\t"
            "eor r10, r10, r5, lsr %[s]\n\t"
            "eor r10, r10, r6, lsl %[t]\n\t"
            "eor r11, r11, r6, lsr %[s]\n\t"
            "eor r11, r11, r7, lsl %[t]\n\t"
            "eor r12, r12, r7, lsr %[s]\n\t"
            "eor r12, r12, r8, lsl %[t]\n\t"
            "stmia %[r]!, {r9, r10, r11, r12}\n\t"
            "subs %[n], %[n], #1\n\t"
            "bne 1b\n\t"
            : [hq] "+r"(hq), [h] "+r"(hh), [r] "+r"(rr), [n] "+r"(cnt)
            : [s] "i"(HQC_N % 32), [t] "i"(32 - HQC_N % 32)
            : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cc", "memory");
        for (unsigned i = HQC_WORDS & ~3u; i < HQC_WORDS; i++) r[i] = h[i] ^ (h[q + i] >> s) ^ (h[q + i + 1] << (32 - s));
        r[HQC_WORDS - 1] &= (1u << s) - 1;
        return;
    }
#endif
    for (unsigned i = 0; i < HQC_WORDS; i++) {
        uint32_t hi = s ? (h[q + i] >> s) | (h[q + i + 1] << (32 - s)) : h[q + i];
        r[i] = h[i] ^ hi;
    }
    if (s) r[HQC_WORDS - 1] &= (1u << s) - 1;
}

void hqc_ring_mul(uint32_t *r, const uint32_t *f, const uint32_t *g)
{
    static uint32_t h[PROD_WORDS + 2];
    crt_product(h, f, g);
    STAGE_START();
    hqc_fold(r, h);
    STAGE_STOP("fold mod x^n-1");
}

/* ------------------------------------------------------------------ init */
void fafft_init(void)
{
    mat_rows(enc_rows, encode_matrix);
    mat_rows(dec_rows, decode_matrix);
#define GROWS(j) mat_rows(gam_rows[j], gft_mul_s_inv_##j##_beta_matrix)
    GROWS(1); GROWS(2); GROWS(3); GROWS(4); GROWS(5);
#if FAFFT_L >= 6
    GROWS(6);
#endif
#if FAFFT_L >= 7
    GROWS(7);
#endif
#if FAFFT_L >= 8
    GROWS(8);
#endif
#if FAFFT_L >= 9
    GROWS(9);
#endif
#if FAFFT_L >= 10
    GROWS(10);
#endif
#if FAFFT_L >= 11
    GROWS(11);
#endif
#if FAFFT_L >= 12
    GROWS(12);
#endif
#if FAFFT_L >= 13
    GROWS(13);
#endif
    build_leaves();
    ebc_record();
#ifdef TWOMOD_L2
    twomod_init();
#endif
}
