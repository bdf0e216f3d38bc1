/* Product tests: FAFFT_mul = f g mod M (modulus extraction, docs/fafft.md section 8.1 (c)), the docs/test-vectors.md section 8
   all-ones vectors, and the CRT product / ring product against a plain schoolbook product. */
#include <string.h>
#include "fafft.h"
#ifdef TWOMOD_L2
#include "twomod.h"
#include "fafft_m2.h"
#endif
#include "minpoly_mods_defs.h"
#include "testutil.h"


static uint32_t f[HQC_WORDS], g[HQC_WORDS], h[PROD_WORDS + 2], ref[2 * HQC_WORDS + 2];
static uint32_t r1[HQC_WORDS], r2[HQC_WORDS];
static uint32_t xa[FAFFT_WORDS], xb[FAFFT_WORDS], hm[FAFFT_WORDS];

/* independent reference: bit-serial carry-less word product, schoolbook over words */
static uint64_t clmul_ref(uint32_t a, uint32_t b)
{
    uint64_t r = 0, aa = a;
    for (unsigned i = 0; i < 32; i++)
        if ((b >> i) & 1) r ^= aa << i;
    return r;
}

static void school(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n)
{
    memset(r, 0, 2 * n * sizeof(uint32_t));
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            uint64_t p = clmul_ref(a[i], b[j]);
            r[i + j] ^= (uint32_t)p;
            r[i + j + 1] ^= (uint32_t)(p >> 32);
        }
}

static void fold_ref(uint32_t *r, const uint32_t *p)
{
    memset(r, 0, HQC_WORDS * sizeof(uint32_t));
    for (unsigned i = 0; i < 2 * HQC_N - 1; i++)
        if ((p[i / 32] >> (i % 32)) & 1) {
            unsigned e = i % HQC_N;
            r[e / 32] ^= 1u << (e % 32);
        }
}

static void random_poly(uint32_t *p)
{
    for (unsigned i = 0; i < HQC_WORDS; i++) p[i] = rnd32();
    if (HQC_N % 32) p[HQC_WORDS - 1] &= (1u << (HQC_N % 32)) - 1;
}

/* black-box modulus extraction: FAFFT_mul(x^u, x^w), u + w = N gives x^N mod M */
static void test_modulus_extraction(void)
{
    static const unsigned us[] = {FAFFT_N / 2, 1, FAFFT_N - 1, 12345};
    int ok = 1;
    for (unsigned q = 0; q < sizeof us / sizeof us[0]; q++) {
        unsigned u = us[q], w = FAFFT_N - u;
        if (u >= FAFFT_N) continue;   /* small transforms (l < 9) */
        memset(xa, 0, sizeof xa); memset(xb, 0, sizeof xb);
        xa[u / 32] = 1u << (u % 32);
        xb[w / 32] = 1u << (w % 32);
        fafft_mul(hm, xa, xb, FAFFT_WORDS);
        /* M = x^N + result: compare exponent by exponent with the header list */
        unsigned nexp = 1;   /* x^N */
        int first_bad = -1;
        for (unsigned e = 0; e < FAFFT_N; e++) {
            unsigned got = (hm[e / 32] >> (e % 32)) & 1u;
            unsigned r = e % 32, want = 0;
            for (unsigned o = (unsigned)minpoly_offsets[r]; o < (unsigned)minpoly_offsets[r + 1]; o++)
                if ((unsigned)minpoly_flat[o] == e / 32) want = 1;
            nexp += got;
            if (got != want && first_bad < 0) first_bad = (int)e;
        }
        if (first_bad >= 0 || nexp != FAFFT_M_WEIGHT) {
            ok = 0;
            plat_puts("  modulus mismatch (u="); put_u32(u); plat_puts("): first differing exponent ");
            put_u32((uint32_t)first_bad); plat_puts(", weight "); put_u32(nexp); put_line("");
        }
    }
    check(ok, "extracted modulus x^N + FAFFT_mul(x^u, x^(N-u)) = M of minpoly_mods_defs.h");
}

/* docs/test-vectors.md section 8: f = g = all ones (n bits) */
static void test_all_ones(void)
{
    for (unsigned i = 0; i < HQC_WORDS; i++) f[i] = ~0u;
    if (HQC_N % 32) f[HQC_WORDS - 1] = (1u << (HQC_N % 32)) - 1;
    fafft_mul(hm, f, f, HQC_WORDS);
    unsigned wt = popcount_words(hm, FAFFT_WORDS);
    plat_puts("all-ones: wt(fg mod M) = "); put_u32(wt); plat_puts(", low "); put_hex32(hm[0]);
    plat_puts(", top "); put_hex32(hm[FAFFT_WORDS - 1]); put_line("");
    if (FAFFT_BETA == 0x00103674u && FAFFT_L == 10)
        check(wt == 13744 && hm[0] == 0xfaadfcaau && hm[FAFFT_WORDS - 1] == 0x55555555u, "HQC-1 all-ones vector (test-vectors sec. 8)");
    if (FAFFT_BETA == 0x00103674u && FAFFT_L == 11)
        check(wt == 33600 && hm[0] == 0x50541dfeu && hm[FAFFT_WORDS - 1] == 0x55555555u, "HQC-3 all-ones vector (test-vectors sec. 8)");
    crt_product(h, f, f);
    int ok = 1;
    for (unsigned i = 0; i < PROD_WORDS; i++) {
        uint32_t want = 0;
        for (unsigned b = 0; b < 32; b++) {
            unsigned e = 32 * i + b;
            if (e % 2 == 0 && e / 2 < HQC_N) want |= 1u << b;
        }
        ok &= h[i] == want;
    }
    check(ok, "CRT lift of all-ones recovers sum x^(2i)");
}

/* truncated and full carry-less products against the bit-serial schoolbook, at the sizes
   of every Karatsuba split (binary, 3-way, odd, the residue sizes) */
static void test_clmul(void)
{
    static const unsigned ns[] = {1, 2, 3, 4, 5, 6, 7, 9, 12, 16, 18, 24, 32, 48, 64, 96};
    static uint32_t pa[96], pb[96], pr[192], ps[192];
    int okl = 1, okf = 1;
    for (unsigned q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        unsigned n = ns[q];
        for (int rep = 0; rep < 2; rep++) {
            for (unsigned i = 0; i < n; i++) {
                pa[i] = rep ? 0xffffffffu : rnd32();
                pb[i] = rep ? 0xffffffffu : rnd32();
            }
            school(ps, pa, pb, n);
            clmul_low(pr, pa, pb, n);
            okl &= memcmp(pr, ps, n * sizeof(uint32_t)) == 0;
            clmul_full(pr, pa, pb, n);
            okf &= memcmp(pr, ps, 2 * n * sizeof(uint32_t)) == 0;
        }
    }
    check(okl, "clmul_low = schoolbook mod x^(32n), n = 1..96 (binary and 3-way splits)");
    check(okf, "clmul_full = schoolbook, n = 1..96");
}

#if CRT_C
/* the sparse solve gives the same u as the IL product, and IL * M = 1 mod x^c */
static void test_sparse_solve(void)
{
    static uint32_t t[CRT_WORDS], u1[CRT_WORDS], u2[CRT_WORDS];
    int ok = 1;
    for (int rep = 0; rep < 3; rep++) {
        for (unsigned i = 0; i < CRT_WORDS; i++) t[i] = rnd32();
        crt_times_il(u1, t);
        crt_solve_u(u2, t);
        ok &= memcmp(u1, u2, sizeof u1) == 0;
    }
    check(ok, "sparse solve u = t/M mod x^c equals t*IL mod x^c");
    /* edge vectors: single bits at word edges, all ones, one dense word at the end */
    ok = 1;
    for (unsigned q = 0; q < 7; q++) {
        memset(t, 0, sizeof t);
        switch (q) {
        case 0: t[0] = 1; break;
        case 1: t[0] = 0x80000000u; break;
        case 2: t[1] = 1; break;
        case 3: t[CRT_WORDS - 1] = 0x80000000u; break;
        case 4: memset(t, 0xff, sizeof t); break;
        case 5: t[CRT_WORDS - 1] = 0xffffffffu; break;
        default: for (unsigned i = 0; i < CRT_WORDS; i++) t[i] = i & 1 ? 0x55555555u : 0xaaaaaaaau;
        }
        crt_times_il(u1, t);
        crt_solve_u(u2, t);
        ok &= memcmp(u1, u2, sizeof u1) == 0;
    }
    check(ok, "sparse solve = IL product on edge vectors");
    /* the in-word inverse Q: P * Q = 1 mod x^32, P from M's exponents 0 < e < 32 (bit-serial) */
    {
        uint32_t p = 1, q = crt_sinv_q(), pq = 0;
        for (unsigned r = 1; r < 32; r++)
            for (int o = minpoly_offsets[r]; o < minpoly_offsets[r + 1]; o++)
                if (minpoly_flat[o] == 0) p |= 1u << r;
        for (unsigned j = 0; j < 32; j++)
            if ((q >> j) & 1u) pq ^= p << j;
        check(pq == 1, "S^{-1}: P * Q = 1 mod x^32");
    }
    /* M * IL = 1 mod x^c via the reconstruction routine: h = 0 + M * IL */
    memset(h, 0, sizeof h);
    crt_times_il(u1, (memset(t, 0, sizeof t), t[0] = 1, t));
    crt_reconstruct(h, u1);
    int one = h[0] == 1;
    for (unsigned i = 1; i < CRT_WORDS; i++) one &= h[i] == 0;
    check(one, "IL * M = 1 mod x^c");
    /* the high words of cM + M u (word kernels on the board) against the plain per-term
       reconstruction; the low c/32 words are cR */
    static uint32_t ha[PROD_WORDS + 2], hb[PROD_WORDS + 2], cr[CRT_WORDS];
    int okr = 1;
    for (int rep = 0; rep < 2; rep++) {
        for (unsigned i = 0; i < CRT_WORDS; i++) {
            u1[i] = rep ? 0xffffffffu : rnd32();
            cr[i] = rnd32();
        }
        memset(ha, 0, sizeof ha);
        for (unsigned i = 0; i < FAFFT_WORDS; i++) ha[i] = rnd32();
        memcpy(hb, ha, sizeof ha);
        crt_reconstruct(ha, u1);
        crt_reconstruct_hi(hb, u1, cr);
        okr &= memcmp(hb, cr, sizeof cr) == 0 &&
               memcmp(hb + CRT_WORDS, ha + CRT_WORDS, (PROD_WORDS - CRT_WORDS) * sizeof(uint32_t)) == 0;
    }
    check(okr, "reconstruction of the high words = per-term reconstruction");
}
#endif

/* layout A <-> B (Thumb-2 on the board) against a bit-by-bit 32x32 transposition per
   block of 32 groups and word k */
static void test_transpose(void)
{
    static fafft_vals_t tv, tr;
    for (unsigned b = 0; b < FAFFT_NGSTORE; b++)
        for (unsigned k = 0; k < 32; k++) tv.g[b][k] = rnd32();
    memset(&tr, 0, sizeof tr);
    for (unsigned bh = 0; bh < FAFFT_NGSTORE / 32; bh++)
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++)
                for (unsigned k = 0; k < 32; k++)
                    tr.g[32 * bh + c][k] |= ((tv.g[32 * bh + r][k] >> c) & 1u) << r;
    fafft_vals_transpose(&tv);
    check(memcmp(&tv, &tr, sizeof tv) == 0, "layout A <-> B transposition = bit-by-bit transpose");
}

#ifdef SPLIT_K
/* the 2-Karatsuba split at the edge k (smallest and largest valid split point, each with
   the exact residual size) and at the export's k against the schoolbook product; an
   invalid k or residual is refused */
static void test_split_edges(void)
{
    static const unsigned kws[3] = {SPLIT_KW_MIN, SPLIT_KW_MAX, SPLIT_KW};
    static const unsigned rws[3] = {HQC_WORDS - SPLIT_KW_MIN, HQC_WORDS - SPLIT_KW_MAX, SPLIT_RW};
    int ok = 1;
    for (unsigned q = 0; q < 3; q++) {
        for (int rep = 0; rep < 2; rep++) {
            if (rep) {
                for (unsigned i = 0; i < HQC_WORDS; i++) f[i] = g[i] = ~0u;
                if (HQC_N % 32) f[HQC_WORDS - 1] = g[HQC_WORDS - 1] = (1u << (HQC_N % 32)) - 1;
            } else {
                random_poly(f);
                random_poly(g);
            }
            school(ref, f, g, HQC_WORDS);
            memset(h, 0xa5, sizeof h);
            int rc = split_product(h, f, g, kws[q], rws[q]);
            int this_ok = rc == 0 && memcmp(h, ref, (2 * HQC_WORDS) * sizeof(uint32_t)) == 0;
            for (unsigned i = 2 * HQC_WORDS; i < PROD_WORDS; i++) this_ok &= h[i] == 0;
            if (!this_ok) {
                plat_puts("  split product wrong at k = "); put_u32(32 * kws[q]);
                plat_puts(", residual words "); put_u32(rws[q]); put_line("");
            }
            ok &= this_ok;
        }
    }
    check(ok, "split product = schoolbook at k_min, k_max and the export's k");
    int refused = split_product(h, f, g, SPLIT_KW_MIN - 1, SPLIT_RW_MAX) == -1 &&
                  split_product(h, f, g, SPLIT_KW_MAX + 1, SPLIT_RW_MAX) == -1 &&
                  split_product(h, f, g, SPLIT_KW_MAX, HQC_WORDS - SPLIT_KW_MAX - 1) == -1 &&
                  split_product(h, f, g, SPLIT_KW_MIN, SPLIT_RW_MAX + 1) == -1;
    check(refused, "split product refuses k outside [k_min, k_max] and too small / large residuals");
}
#endif

#ifdef TWOMOD_L2
/* two moduli (fafft/twomod.c): the exported F2(W) is the second instance's transform of
   the exported W; W^2 mod M2 is nonzero (W invertible mod M2); the all-ones product (the
   longest reductions) against the schoolbook */
static void test_two_moduli(void)
{
    static m2_vals_t tw;
    static uint32_t b2[TWOMOD_N2 / 32], p2[TWOMOD_N2 / 32];
    m2_fafft_forward(&tw, twomod_w_plain, TWOMOD_N2 / 32, b2);
    check(memcmp(&tw, twomod_w_evals, sizeof tw) == 0, "two moduli: F2(W) table = forward2(W)");
    static m2_vals_t t2;
    m2_fafft_pointwise3(&t2, &tw, &tw);
    m2_fafft_inverse(p2, &t2);
    int nz = 0;
    for (unsigned i = 0; i < TWOMOD_N2 / 32; i++) nz |= p2[i] != 0;
    check(nz, "two moduli: W^2 mod M2 != 0 (W invertible)");
    for (unsigned i = 0; i < HQC_WORDS; i++) f[i] = g[i] = ~0u;
    if (HQC_N % 32) f[HQC_WORDS - 1] = g[HQC_WORDS - 1] = (1u << (HQC_N % 32)) - 1;
    school(ref, f, g, HQC_WORDS);
    memset(h, 0xa5, sizeof h);
    twomod_product(h, f, g);
    int ok = memcmp(h, ref, (2 * HQC_WORDS) * sizeof(uint32_t)) == 0;
    for (unsigned i = 2 * HQC_WORDS; i < PROD_WORDS; i++) ok &= h[i] == 0;
    check(ok, "two moduli: all-ones product = schoolbook");
}
#endif

/* random products */
static void test_random_products(void)
{
#ifndef MUL_REPS
#define MUL_REPS 3
#endif
    for (int rep = 0; rep < MUL_REPS; rep++) {
        random_poly(f);
        random_poly(g);
        school(ref, f, g, HQC_WORDS);
        crt_product(h, f, g);
        int ok = memcmp(h, ref, (2 * HQC_WORDS) * sizeof(uint32_t)) == 0;
        for (unsigned i = 2 * HQC_WORDS; i < PROD_WORDS; i++) ok &= h[i] == 0;
        check(ok, "CRT product = schoolbook product");
        put_hash("hash(f*g)", hash_words(h, 2 * HQC_WORDS));
        hqc_ring_mul(r1, f, g);
        fold_ref(r2, ref);
        check(memcmp(r1, r2, sizeof r1) == 0, "ring product = schoolbook mod x^n - 1");
        put_hash("hash(f*g mod x^n-1)", hash_words(r1, HQC_WORDS));
    }
}

int main(void)
{
    fafft_init();
    test_modulus_extraction();
    test_all_ones();
    test_clmul();
#if CRT_C
    test_sparse_solve();
#endif
    test_transpose();
#ifdef SPLIT_K
    test_split_edges();
#endif
#ifdef TWOMOD_L2
    test_two_moduli();
#endif
    test_random_products();
    return finish();
}
