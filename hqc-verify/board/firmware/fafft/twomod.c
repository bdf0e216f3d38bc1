/* Two coprime FAFFT moduli (docs/fafft.md sec. 9.8): the full product f*g of n-bit operands
 * from h1 = f g mod M1 (the first instance, fafft.c with the export's own headers) and the
 * second transform of size N2 (the second instance: fafft_m2.c, the same stages compiled with
 * the headers of the export's second/ folder, its names prefixed m2_; fafft_m2.h;
 * docs/firmware-layout.md sec. 14):
 *
 *   h1 = F1^-1(F1(f) . F1(g))                         = f g mod M1 (n <= N1: no reduction)
 *   (an operand shorter than N2 is its own residue mod M2: no copy, the forward pads it)
 *   E  = F2(f mod M2) . F2(g mod M2)                  = F2(f g mod M2)
 *   D  = E + F2(h1 mod M2)
 *   u  = F2^-1(D . F2(W)),  W = M1^-1 mod M2          (F2(W): the table twomod_w_evals)
 *   h  = h1 + M1 u                                    (wt(M1) shifted copies of u)
 *
 * Compiled with the first export's include path (fafft_params.h with TWOMOD_L2). All loop
 * bounds and addresses depend on the public exponents of M1, M2 and the sizes only. */
#include <string.h>
#include "fafft.h"
#include "twomod.h"
#include "fafft_m2.h"

#ifdef TWOMOD_L2
#ifdef FAFFT_BENCH_STAGES
#include "platform.h"
#define STAGE_START() bench_start()
#define STAGE_STOP(s) BENCH_STOP(s)
#else
#define STAGE_START() ((void)0)
#define STAGE_STOP(s) ((void)0)
#endif

#if TWOMOD_N1 != FAFFT_N || TWOMOD_L2 < 5
#error "twomod_defs.h does not belong to this export (N1) or l2 < 5"
#endif

#define W1 (TWOMOD_N1 / 32u)
#define W2 (TWOMOD_N2 / 32u)
/* a reduction chunk: the words whose images under L land strictly below the chunk */
#define M2_GAP (W2 - TWOMOD_M2_LOW_DEGREE / 32u - 1u)
#if TWOMOD_M2_LOW_DEGREE / 32 + 2 > W2
#error "deg(M2 - x^N2) too close to N2 for the word-level reduction"
#endif
#define RED_WORDS (W1 > HQC_WORDS ? W1 : HQC_WORDS)
static uint32_t red[RED_WORDS];                 /* reduction scratch */
static uint32_t uw[W2];                         /* u */
static uint32_t ush[W2 + 1];                    /* u x^r, one residue class at a time */
static m2_vals_t te;                            /* E, then D */
/* the second transform's operands and its basis-conversion buffer live in the first
   instance's buffers, free once fafft_mul has returned (fafft_scratch; N2 <= N1) */
#if M2_NGS > FAFFT_NGSTORE
#error "the second transform's values do not fit the first instance's buffers"
#endif
#define TA ((m2_vals_t *)(void *)fafft_scratch(0))
#define TB ((m2_vals_t *)(void *)fafft_scratch(1))
#define M2BUF (fafft_scratch(2))

void twomod_init(void) { m2_fafft_init(); }

/* d[0..n] ^= (s[0..n) << sh) with the carry word d[n] (sh = 1..31 a compile-time constant
   after inlining; sh = 0 is the plain XOR of n words) */
static inline __attribute__((always_inline)) void xor_shifted(uint32_t *d, const uint32_t *s, unsigned n,
                                                             unsigned sh)
{
    if (sh == 0) {
        fafft_xor_words(d, s, n);
        return;
    }
    uint32_t prev = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t c = s[i];
        d[i] ^= (c << sh) | (prev >> (32 - sh));
        prev = c;
    }
    d[n] ^= prev >> (32 - sh);
}

/* t (a words, a > W2) = t mod M2 in t[0..W2); t[W2..a) is cleared. M2 = x^N2 + L: from the top,
   each chunk of at most M2_GAP words above N2 is replaced by its product with L, whose terms
   land below the chunk (deg L <= N2 - 32 (M2_GAP + 1)); the next chunk takes what lands above
   N2. */
static void reduce_m2(uint32_t *t, unsigned a)
{
    unsigned hi = a;
    while (hi > W2) {
        unsigned lo = hi - W2 > M2_GAP ? hi - M2_GAP : W2, len = hi - lo;
#pragma GCC unroll 64
        for (unsigned q = 0; q < TWOMOD_M2_LOW_TERMS; q++) {
            const unsigned e = (unsigned)twomod_m2_low[q];
            xor_shifted(t + (lo - W2) + e / 32, t + lo, len, e % 32);
        }
        memset(t + lo, 0, len * sizeof(uint32_t));
        hi = lo;
    }
}

/* h[0..W1 + W2) ^= M1 u, per residue class r of the exponents of M1 (one shifted copy of u
   per occupied class, then one XOR of W2 (+1) words per exponent) */
static void add_m1_times_u(uint32_t *h, const uint32_t *u)
{
    for (unsigned r = 0; r < 32; r++) {
        unsigned o0 = (unsigned)twomod_m1_offsets[r], o1 = (unsigned)twomod_m1_offsets[r + 1];
        if (o0 == o1) continue;
        const uint32_t *src = u;
        unsigned len = W2;
        if (r) {
            ush[0] = u[0] << r;
            for (unsigned i = 1; i < W2; i++) ush[i] = (u[i] << r) | (u[i - 1] >> (32 - r));
            ush[W2] = u[W2 - 1] >> (32 - r);
            src = ush;
            len = W2 + 1;
        }
        for (unsigned o = o0; o < o1; o++) fafft_xor_words(h + twomod_m1_flat[o], src, len);
    }
}

/* a mod M2 for a of `words` words: a itself when it is shorter than N2 (then the forward pads
   it with zeros), else its reduction in the scratch red */
#define MIN_W2(w) ((w) < W2 ? (w) : W2)
static const uint32_t *mod_m2(const uint32_t *a, unsigned words)
{
    if (words <= W2) return a;
    memcpy(red, a, words * sizeof(uint32_t));
    reduce_m2(red, words);
    return red;
}

void twomod_product(uint32_t *h, const uint32_t *f, const uint32_t *g)
{
    const uint32_t *r;
    STAGE_START();
    fafft_mul(h, f, g, HQC_WORDS);              /* h1 in h[0..W1) */
    STAGE_STOP("fafft_mul");
    /* E = F2(f mod M2) . F2(g mod M2) */
    STAGE_START();
    r = mod_m2(f, HQC_WORDS);
    STAGE_STOP("twomod: f mod M2");
    STAGE_START();
    m2_fafft_forward(TA, r, MIN_W2(HQC_WORDS), M2BUF);
    STAGE_STOP("forward2(f mod M2)");
    STAGE_START();
    r = mod_m2(g, HQC_WORDS);
    STAGE_STOP("twomod: g mod M2");
    STAGE_START();
    m2_fafft_forward(TB, r, MIN_W2(HQC_WORDS), M2BUF);
    STAGE_STOP("forward2(g mod M2)");
    STAGE_START();
    m2_fafft_pointwise3(&te, TA, TB);
    STAGE_STOP("pointwise2(E)");
    /* D = E + F2(h1 mod M2) */
    STAGE_START();
    r = mod_m2(h, W1);
    STAGE_STOP("twomod: h1 mod M2");
    STAGE_START();
    m2_fafft_forward(TA, r, MIN_W2(W1), M2BUF);
    STAGE_STOP("forward2(h1 mod M2)");
    STAGE_START();
    fafft_xor_words(&te.g[0][0], &TA->g[0][0], M2_NGS * 32u);
    STAGE_STOP("twomod: D = E + F2(h1 mod M2)");
    /* u = F2^-1(D . F2(W)) */
    STAGE_START();
    m2_fafft_pointwise3(TB, &te, (const m2_vals_t *)(const void *)twomod_w_evals);
    STAGE_STOP("pointwise2(D.F2(W))");
    STAGE_START();
    m2_fafft_inverse(uw, TB);
    STAGE_STOP("inverse2(u)");
    /* h = h1 + M1 u */
    STAGE_START();
    memset(h + W1, 0, (PROD_WORDS - W1) * sizeof(uint32_t));
    add_m1_times_u(h, uw);
    STAGE_STOP("twomod: h1 + M1*u");
}
#endif
