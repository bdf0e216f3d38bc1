/* The ring layer: the full product f g by the export's kind (one modulus + residue ring,
   split, or two moduli: twomod.c), its transform-once form, the fold mod x^n - 1 and the ring
   product, and the instance's one-time set-up (fafft_init).
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

#ifdef TWOMOD_L2
#include "twomod.h"
#endif

void FAFFT_NS(crt_product)(uint32_t *h, const uint32_t *f, const uint32_t *g)
{
#ifdef SPLIT_K
    (void)FAFFT_NS(split_product)(h, f, g, SPLIT_KW, SPLIT_RW);   /* valid by the #error checks in fafft.h */
#elif defined(TWOMOD_L2)
    twomod_product(h, f, g);
#else
    STAGE_START();
    FAFFT_NS(fafft_mul)(h, f, g, HQC_WORDS);
    STAGE_STOP("fafft_mul");
    crt_finish(h, f, g);
#endif
}

/* ---- split path: transform once, multiply many (key caching, r2 shared by two products) */
#if defined(SPLIT_K) || defined(TWOMOD_L2)
/* A split export caches nothing: one cached transform would have to hold those of f0 and of
   f0 + f1 (a two-moduli export: those of f and of f mod M2). fafft_transform clears the slot
   and the _pre products are the plain ones. */
void FAFFT_NS(fafft_transform)(fafft_vals_t *t, const uint32_t *f)
{
    (void)f;
    memset(t, 0, sizeof *t);
}
#else
void FAFFT_NS(fafft_transform)(fafft_vals_t *t, const uint32_t *f) { FAFFT_NS(fafft_forward)(t, f, HQC_WORDS, fbuf); }
#endif

void FAFFT_NS(crt_product_pre)(uint32_t *h, const uint32_t *f, const fafft_vals_t *tf, const uint32_t *g,
                     const fafft_vals_t *tg)
{
#if defined(SPLIT_K) || defined(TWOMOD_L2)
    (void)tf; (void)tg;
    FAFFT_NS(crt_product)(h, f, g);
#else
    static fafft_vals_t tmp;
    if (!tg) {
        FAFFT_NS(fafft_transform)(&tmp, g);
        tg = &tmp;
    }
    STAGE_START();
    FAFFT_NS(fafft_pointwise3)(&va, tf, tg);
    STAGE_STOP("pointwise");
    STAGE_START();
    FAFFT_NS(fafft_inverse)(h, &va);
    STAGE_STOP("inverse");
    crt_finish(h, f, g);
#endif
}

void FAFFT_NS(hqc_ring_mul_pre)(uint32_t *r, const uint32_t *f, const fafft_vals_t *tf, const uint32_t *g,
                      const fafft_vals_t *tg)
{
    static uint32_t h[PROD_WORDS + 2];
    FAFFT_NS(crt_product_pre)(h, f, tf, g, tg);
    STAGE_START();
    FAFFT_NS(hqc_fold)(r, h);
    STAGE_STOP("fold mod x^n-1");
}

void FAFFT_NS(hqc_fold)(uint32_t *r, const uint32_t *h)
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

void FAFFT_NS(hqc_ring_mul)(uint32_t *r, const uint32_t *f, const uint32_t *g)
{
    static uint32_t h[PROD_WORDS + 2];
    FAFFT_NS(crt_product)(h, f, g);
    STAGE_START();
    FAFFT_NS(hqc_fold)(r, h);
    STAGE_STOP("fold mod x^n-1");
}

/* ------------------------------------------------------------------ init */
void FAFFT_NS(fafft_init)(void)
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
