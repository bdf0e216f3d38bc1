/* The 2-Karatsuba split product (sec. 9.11): f g from three transforms of one modulus and a
   residual carry-less product (exports with SPLIT_K).
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

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

int FAFFT_NS(split_product)(uint32_t *h, const uint32_t *f, const uint32_t *g, unsigned kw, unsigned rw)
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
    FAFFT_NS(fafft_forward)(&va, f, kw, fbuf);
    STAGE_STOP("forward(f0)");
    STAGE_START();
    FAFFT_NS(fafft_forward)(&vb, g, kw, fbuf);
    STAGE_STOP("forward(g0)");
    STAGE_START();
    FAFFT_NS(fafft_pointwise3)(&fbuf_u.v, &va, &vb);
    STAGE_STOP("pointwise(P0)");
    STAGE_START();
    FAFFT_NS(fafft_inverse)(h, &fbuf_u.v);           /* P0: h[0..FAFFT_WORDS), zero from word 2 kw */
    STAGE_STOP("inverse(P0)");
    STAGE_START();
    FAFFT_NS(fafft_forward)(&va, split_fs, kw, fbuf);
    STAGE_STOP("forward(f0+f1)");
    STAGE_START();
    FAFFT_NS(fafft_forward)(&vb, split_gs, kw, fbuf);
    STAGE_STOP("forward(g0+g1)");
    STAGE_START();
    FAFFT_NS(fafft_pointwise3)(&fbuf_u.v, &va, &vb);
    STAGE_STOP("pointwise(P1)");
    STAGE_START();
    FAFFT_NS(fafft_inverse)(split_p1, &fbuf_u.v);    /* P1 */
    STAGE_STOP("inverse(P1)");
    STAGE_START();
    memcpy(split_f1, f + kw, r1 * sizeof(uint32_t));
    memcpy(split_g1, g + kw, r1 * sizeof(uint32_t));
    memset(split_f1 + r1, 0, (rw - r1) * sizeof(uint32_t));
    memset(split_g1 + r1, 0, (rw - r1) * sizeof(uint32_t));
    FAFFT_NS(clmul_full)(split_p2, split_f1, split_g1, rw);   /* P2: nonzero in its low 2 r1 words */
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
