/* CRT reconstruction (sec. 9): u = (cR + cM) / M mod x^c by the IL table or a sparse solve,
   then h = cM + M u per residue class of the exponents of M.
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ CRT sec. 9 */
#if CRT_C
void FAFFT_NS(crt_times_il)(uint32_t *u, const uint32_t *t) { FAFFT_NS(clmul_low)(u, t, IL_plain, CRT_WORDS); }

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

uint32_t FAFFT_NS(crt_sinv_q)(void) { return sinv_q(); }

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

void FAFFT_NS(crt_solve_u)(uint32_t *u, const uint32_t *t)
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
void FAFFT_NS(crt_reconstruct_hi)(uint32_t *h, const uint32_t *u, const uint32_t *cr)
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
void FAFFT_NS(crt_reconstruct)(uint32_t *h, const uint32_t *u)
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
    FAFFT_NS(clmul_low)(cr, fpad, gpad, CRT_WORDS);
#else
    FAFFT_NS(clmul_low)(cr, f, g, CRT_WORDS);
#endif
    STAGE_STOP("residue f*g mod x^c");
    STAGE_START();
    memcpy(cr0, cr, sizeof cr0);
    for (unsigned i = 0; i < CRT_WORDS; i++) cr[i] ^= h[i];
#ifdef CRT_U_IL
    FAFFT_NS(crt_times_il)(u, cr);
#else
    FAFFT_NS(crt_solve_u)(u, cr);
#endif
    STAGE_STOP("u = (cR+cM)/M mod x^c");
    STAGE_START();
    FAFFT_NS(crt_reconstruct_hi)(h, u, cr0);
    STAGE_STOP("reconstruct cM + M*u");
#else
    (void)h; (void)f; (void)g;
#endif
}
