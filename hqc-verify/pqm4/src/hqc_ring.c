/* Ring element helpers and the glue to the exported multiplier (fafft.h). */
#include <string.h>
#include "fafft.h"
#include "hqc_ct.h"
#include "hqc_ring.h"

#if HQC_WORDS > HQC_PWORDS || HQC_N != HQC_PN
#error "the exported multiplier is for another ring size than this package's level"
#endif

void hqc_words_from_bytes(uint32_t *w, size_t nwords, const uint8_t *b, size_t nbytes)
{
    memset(w, 0, nwords * 4);
    for (size_t i = 0; i < nbytes && i / 4 < nwords; i++) w[i / 4] |= (uint32_t)b[i] << (8 * (i % 4));
}

void hqc_words_to_bytes(uint8_t *b, size_t nbytes, const uint32_t *w)
{
    for (size_t i = 0; i < nbytes; i++) b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

uint32_t hqc_poly_mask(hqc_poly *a)
{
    const unsigned full = HQC_PN / 32, rem = HQC_PN % 32;
    uint32_t pad = (a->w[full] >> rem) & ((1u << HQC_PAD_BITS) - 1);
    a->w[full] &= (1u << rem) - 1;
    for (unsigned i = full + 1; i < HQC_PWORDS; i++) a->w[i] = 0;
    return pad;
}

void hqc_poly_xor(hqc_poly *a, const hqc_poly *b)
{
    for (unsigned i = 0; i < HQC_PWORDS; i++) a->w[i] ^= b->w[i];
}

void hqc_poly_xor_shifted(hqc_poly *out, const hqc_poly *a, unsigned t)
{
    uint32_t carry = 0;
    if (t == 0) {
        hqc_poly_xor(out, a);
    } else {
        for (unsigned i = 0; i < HQC_PWORDS; i++) {
            out->w[i] ^= (a->w[i] << t) | carry;
            carry = a->w[i] >> (32 - t);
        }
    }
    (void)hqc_poly_mask(out);
}

#if defined(__ARM_ARCH_7EM__) && !defined(HQC_PORTABLE)
/* support_expand.S: the same result with a predicated scan (weight <= 150) */
void hqc_support_expand_m4(uint32_t *out, const uint32_t *support, uint32_t weight,
                           uint32_t words64);

void hqc_expand_support(hqc_poly *out, const uint32_t *support, uint32_t weight)
{
    hqc_support_expand_m4(out->w, support, weight, HQC_WORDS64);
}
#else
void hqc_expand_support(hqc_poly *out, const uint32_t *support, uint32_t weight)
{
    for (uint32_t i = 0; i < HQC_PWORDS; i++) {
        uint32_t acc = 0;
        for (uint32_t k = 0; k < weight; k++) {
            uint32_t p = support[k];
            acc |= hqc_mask_eq(p >> 5, i) & ((uint32_t)1 << (p & 31));
        }
        out->w[i] = acc;
    }
}
#endif

static void ready(void)
{
    static int done;
    if (!done) {
        fafft_init();
        done = 1;
    }
}

/* the product writes HQC_WORDS words; the spare word of the 64-bit rounding is cleared */
static void clear_tail(hqc_poly *out)
{
    for (unsigned i = HQC_WORDS; i < HQC_PWORDS; i++) out->w[i] = 0;
}

void hqc_mul(hqc_poly *out, const hqc_poly *a, const hqc_poly *b)
{
    ready();
    hqc_ring_mul(out->w, a->w, b->w);
    clear_tail(out);
}

void hqc_mul2(hqc_poly *out1, hqc_poly *out2, const hqc_poly *a, const hqc_poly *b1,
              const hqc_poly *b2)
{
    static fafft_vals_t ta;
    ready();
    fafft_transform(&ta, a->w);
    hqc_ring_mul_pre(out1->w, a->w, &ta, b1->w, 0);
    hqc_ring_mul_pre(out2->w, a->w, &ta, b2->w, 0);
    clear_tail(out1);
    clear_tail(out2);
    hqc_zeroize(&ta, sizeof ta);
}
