/* FAFFT + CRT multiplier for the Cortex-M4 board (docs/fafft.md sections 7, 9).
 *
 * Parameters come from the exporter's headers (fafft_params.h etc., see docs/firmware-layout.md);
 * everything else is beta-independent.  Polynomials are little-endian bit strings in 32-bit
 * words (bit b of word w = coefficient of x^(32w+b)).
 *
 * Transform values are bitsliced: the n' = 2^l points form NGROUPS groups of 32 field elements,
 * 32 words per group (word k = bit k of the 32 elements).  Point i is gamma_l + sum_j i_j v_j
 * (docs/fafft.md section 7.6).  fafft_forward returns layout B: with i = 32b + t and b = 32bh + bl,
 * point i is in group 32bh + t at bit position bl (inside each block of 32 groups the 32x32
 * element matrix is transposed, so that all butterfly layers pair whole groups; see fafft_butterfly.h).
 * Layout A (group b = points 32b..32b+31, bit t) is used by Encode/Decode and layers l..6. */
#ifndef FAFFT_H
#define FAFFT_H
#include <stdint.h>
#include "fafft_params.h"

/* External names of one instance: FAFFT_NS(name) is name itself, except in the translation
   unit of a two-moduli export's second modulus (fafft_m2.c: m2_name). */
#ifndef FAFFT_NS
#define FAFFT_NS(name) name
#endif

#define FAFFT_WORDS (FAFFT_N / 32u)            /* words of a transform-size polynomial */
#define FAFFT_NPTS (1u << FAFFT_L)             /* n' */
#define FAFFT_NGROUPS (FAFFT_NPTS / 32u)       /* bitsliced groups of 32 points */
/* groups stored per transform: at least one block of 32 (l < 10 pads the value arrays, see
   fafft_butterfly.h "layout B"; groups NGROUPS..31 then carry only bit positions of no point) */
#define FAFFT_NGSTORE (FAFFT_NGROUPS < 32u ? 32u : FAFFT_NGROUPS)
#define FAFFT_LBITS (FAFFT_L + 5)              /* log2 N */
#define HQC_WORDS ((HQC_N + 31u) / 32u)
#define CRT_WORDS (CRT_C / 32u)
#ifdef SPLIT_K
/* The 2-Karatsuba split (docs/fafft.md sec. 9.11): an export with SPLIT_K (bits, the split
   point k) and SPLIT_RW (words of the residual product f1*g1, f1, g1 zero-padded to it) in
   fafft_params.h and no residue ring. Valid: k a multiple of 32, k < n, n - k <= k, 2k <= N and
   n - k <= 32*SPLIT_RW <= N (fafft_config::rules::check_split, search::crt_plan::split_k_range). */
#if CRT_C
#error "a split export has no residue ring (CRT_C must be 0)"
#endif
#if SPLIT_K % 32 || SPLIT_K >= HQC_N || HQC_N - SPLIT_K > SPLIT_K || 2 * SPLIT_K > FAFFT_N || 32 * SPLIT_RW < HQC_N - SPLIT_K || 32 * SPLIT_RW > FAFFT_N
#error "invalid split: need SPLIT_K % 32 == 0, SPLIT_K < HQC_N, HQC_N - SPLIT_K <= SPLIT_K, 2 SPLIT_K <= FAFFT_N, HQC_N - SPLIT_K <= 32 SPLIT_RW <= FAFFT_N"
#endif
#define SPLIT_KW (SPLIT_K / 32u)
#define SPLIT_KW_MIN ((HQC_N + 63u) / 64u)          /* smallest valid k, in words */
/* largest valid k, in words: 2k <= N and k < n (then r1 = HQC_WORDS - kw >= 1) */
#define SPLIT_KW_MAX (FAFFT_WORDS / 2u < HQC_WORDS - 1u ? FAFFT_WORDS / 2u : HQC_WORDS - 1u)
#define SPLIT_RW_EDGE (HQC_WORDS - SPLIT_KW_MIN)    /* the exact residual at the smallest k */
#define SPLIT_RW_MAX (SPLIT_RW > SPLIT_RW_EDGE ? SPLIT_RW : SPLIT_RW_EDGE)
/* h = P0 + x^k (S + P2) + x^2k P2: 2 HQC_WORDS words (and the inverse writes N bits of P0) */
#define PROD_WORDS (2u * HQC_WORDS > FAFFT_WORDS ? 2u * HQC_WORDS : FAFFT_WORDS)
#elif defined(TWOMOD_L2)
/* Two coprime FAFFT moduli (docs/fafft.md sec. 9.8): an export with TWOMOD_L2, TWOMOD_N2 in
   fafft_params.h, no residue ring and its second transform in second/ (twomod.c over the
   second instance fafft_m2.c, whose names carry the prefix m2_; docs/firmware-layout.md
   sec. 14). h = h1 + M1 u has N1 + N2 bits. */
#if CRT_C
#error "a two-moduli export has no residue ring (CRT_C must be 0)"
#endif
#if TWOMOD_N2 > FAFFT_N || FAFFT_N + TWOMOD_N2 < 2 * HQC_N - 1
#error "invalid second modulus: need N2 <= N1 and N1 + N2 >= 2n - 1"
#endif
#define PROD_WORDS ((FAFFT_N + TWOMOD_N2) / 32u)
#else
#define PROD_WORDS ((FAFFT_N + CRT_C) / 32u)    /* words of cM + M u (N + c bits) */
#endif

#if FAFFT_L < 5
#error "the bitsliced layout needs l >= 5"
#endif

typedef struct { uint32_t g[FAFFT_NGSTORE][32]; } fafft_vals_t;

/* one-time table set-up (basis-conversion tables, butterfly leaves); not part of a product */
void FAFFT_NS(fafft_init)(void);

/* scalar tower arithmetic (tests, table set-up) */
uint32_t FAFFT_NS(gf_mul)(uint32_t a, uint32_t b);
uint32_t FAFFT_NS(gf_pow)(uint32_t a, uint32_t e);

/* basis conversion, in place on 2^L bits (L >= 9 for the fast word-level versions) */
void FAFFT_NS(basis_cvt)(uint32_t *f, unsigned L);
void FAFFT_NS(ibasis_cvt)(uint32_t *f, unsigned L);
void FAFFT_NS(basis_cvt_ref)(uint32_t *f, unsigned L);   /* bit-level reference, docs/fafft.md section 5.2 */
void FAFFT_NS(ibasis_cvt_ref)(uint32_t *f, unsigned L);
/* BasisCvt_4 (resp. inverse) on both 16-bit lanes of each of n words, table-free (test hook) */
void FAFFT_NS(basis_cvt4_lanes)(uint32_t *w, unsigned n);
void FAFFT_NS(ibasis_cvt4_lanes)(uint32_t *w, unsigned n);

/* pipeline stages */
void FAFFT_NS(fafft_encode)(fafft_vals_t *v, const uint32_t *g);      /* g: FAFFT_WORDS LCH words */
void FAFFT_NS(fafft_decode)(uint32_t *g, fafft_vals_t *v);            /* v destroyed */
void FAFFT_NS(fafft_btfy)(fafft_vals_t *v);
void FAFFT_NS(fafft_vals_transpose)(fafft_vals_t *v);                   /* layout A <-> B (test hook) */
void FAFFT_NS(fafft_ibtfy)(fafft_vals_t *v);
void FAFFT_NS(fafft_pointwise)(fafft_vals_t *a, const fafft_vals_t *b);   /* a *= b */

/* forward: f has fwords words (<= FAFFT_WORDS); buf is FAFFT_WORDS words of scratch */
void FAFFT_NS(fafft_forward)(fafft_vals_t *out, const uint32_t *f, unsigned fwords, uint32_t *buf);
/* inverse: h gets FAFFT_WORDS words; v is destroyed */
void FAFFT_NS(fafft_inverse)(uint32_t *h, fafft_vals_t *v);
/* h = f*g mod M (FAFFT_WORDS words); f, g have `words` words */
void FAFFT_NS(fafft_mul)(uint32_t *h, const uint32_t *f, const uint32_t *g, unsigned words);

/* truncated / full carry-less products (residue ring x^c) */
void FAFFT_NS(clmul_full)(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n);   /* r: 2n words */
void FAFFT_NS(clmul_low)(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n);    /* r = a b mod x^(32n) */

/* FAFFT + CRT full product: h (PROD_WORDS words) = f*g for f, g of HQC_WORDS words */
void FAFFT_NS(crt_product)(uint32_t *h, const uint32_t *f, const uint32_t *g);
/* h = cM + M*u (in place on h, whose first FAFFT_WORDS words hold cM), u: CRT_WORDS words */
void FAFFT_NS(crt_reconstruct)(uint32_t *h, const uint32_t *u);
/* same, for words >= c/32 only, and h[0..c/32) = cr (= cR): valid when u solves M u = cR + cM */
void FAFFT_NS(crt_reconstruct_hi)(uint32_t *h, const uint32_t *u, const uint32_t *cr);
/* u = t * M^{-1} mod x^c  by the IL table (u, t: CRT_WORDS words) */
void FAFFT_NS(crt_times_il)(uint32_t *u, const uint32_t *t);
/* u = t * M^{-1} mod x^c by a sparse triangular solve with M (no IL table; same result) */
void FAFFT_NS(crt_solve_u)(uint32_t *u, const uint32_t *t);
/* Q = P^{-1} mod x^32, P = 1 + sum_{0<e<32, e in M} x^e (the constant crt_solve_u applies) */
uint32_t FAFFT_NS(crt_sinv_q)(void);
#ifdef SPLIT_K
/* h (PROD_WORDS words) = f*g by the 2-Karatsuba split at k = 32 kw with a residual of rw words
   (crt_product uses kw = SPLIT_KW, rw = SPLIT_RW; tests try the edge k). 0, or -1 (h untouched)
   when kw is outside SPLIT_KW_MIN..SPLIT_KW_MAX or rw outside HQC_WORDS - kw..SPLIT_RW_MAX. */
int FAFFT_NS(split_product)(uint32_t *h, const uint32_t *f, const uint32_t *g, unsigned kw, unsigned rw);
#endif
/* va, vb and the basis-conversion buffer (i = 0, 1, 2; FAFFT_NGSTORE * 32 words each) as
   scratch after fafft_mul has returned; NULL for another i */
uint32_t *FAFFT_NS(fafft_scratch)(unsigned i);
/* dst[0..n) ^= src[0..n) (LDM/EOR/STM on the M4) */
void FAFFT_NS(fafft_xor_words)(uint32_t *dst, const uint32_t *src, unsigned n);
/* r = h mod (x^n - 1), h: 2n-1 bits */
void FAFFT_NS(hqc_fold)(uint32_t *r, const uint32_t *h);
/* r = f*g mod (x^n - 1) */
void FAFFT_NS(hqc_ring_mul)(uint32_t *r, const uint32_t *f, const uint32_t *g);

/* Split path (transform once, multiply many): t = the forward transform of f (HQC_WORDS words,
   canonical); out = a*b pointwise, out distinct from a and b; the full product / the ring product
   from pre-transformed operands: tf = fafft_transform(f), tg = fafft_transform(g) or NULL (then
   g is transformed into scratch). Same results as crt_product / hqc_ring_mul. */
void FAFFT_NS(fafft_transform)(fafft_vals_t *t, const uint32_t *f);
void FAFFT_NS(fafft_pointwise3)(fafft_vals_t *out, const fafft_vals_t *a, const fafft_vals_t *b);
void FAFFT_NS(crt_product_pre)(uint32_t *h, const uint32_t *f, const fafft_vals_t *tf, const uint32_t *g,
                     const fafft_vals_t *tg);
void FAFFT_NS(hqc_ring_mul_pre)(uint32_t *r, const uint32_t *f, const fafft_vals_t *tf, const uint32_t *g,
                      const fafft_vals_t *tg);

/* optional per-stage instrumentation: when FAFFT_BENCH_STAGES is defined the pipeline calls
   bench_start/BENCH_STOP around each stage (regions nest inside the caller's region) */
#endif
