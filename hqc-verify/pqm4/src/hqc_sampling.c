/* Fixed-weight samplers (hqc_sampling.h). Positions are secret: a candidate is compared
 * with every slot under masks and stored into every slot under a mask. */
#include "hqc_ct.h"
#include "hqc_params.h"
#include "hqc_sampling.h"

/* c mod n for c < 2^24, by Barrett reduction and one masked correction */
static uint32_t barrett(uint32_t c)
{
    uint32_t q = (uint32_t)(((uint64_t)c * HQC_BARRETT_MU) >> 32);
    uint32_t r = c - q * HQC_PN;
    return r - (HQC_PN & ~hqc_mask_lt(r, HQC_PN));
}

/* all-ones iff x equals one of list[0 .. len) */
static uint32_t any_equal(uint32_t x, const uint32_t *list, uint32_t len)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < len; i++) acc |= hqc_mask_eq(x, list[i]);
    return acc;
}

void hqc_sample_keygen(hqc_sponge *xof, uint32_t *support, uint32_t weight)
{
    uint8_t buf[3 * HQC_MAX_W];
    uint32_t pos = 3 * weight, count = 0;
    for (uint32_t j = 0; j < weight; j++) support[j] = 0xFFFFFFFFu;
    while (count < weight) {
        uint32_t c;
#if HQC_FLAVOUR_V5
        /* v5.0.0: chunks of 3 weight bytes, big-endian candidates */
        if (pos >= 3 * weight) {
            hqc_xof_read(xof, buf, 3 * weight);
            pos = 0;
        }
        c = (uint32_t)buf[pos] << 16 | (uint32_t)buf[pos + 1] << 8 | buf[pos + 2];
        pos += 3;
#else
        /* 2026-02: 3 bytes per candidate from one stream, little-endian */
        (void)pos;
        hqc_xof_read(xof, buf, 3);
        c = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16;
#endif
        uint32_t p = barrett(c);
        uint32_t accept = hqc_barrier(hqc_mask_lt(c, HQC_REJECT) & ~any_equal(p, support, weight));
        for (uint32_t j = 0; j < weight; j++) {
            uint32_t here = accept & hqc_mask_eq(j, count);
            support[j] ^= here & (p ^ support[j]);
        }
        count += accept & 1;
    }
    hqc_zeroize(buf, sizeof buf);
}

void hqc_sample_encrypt(hqc_sponge *xof, uint32_t *support, uint32_t weight)
{
    uint8_t buf[4 * HQC_MAX_W];
    hqc_xof_read(xof, buf, 4 * weight);
    for (uint32_t i = 0; i < weight; i++) {
        const uint8_t *b = buf + 4 * i;
        uint64_t r = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        support[i] = i + (uint32_t)((r * (HQC_PN - i)) >> 32);
    }
    /* a position equal to a later one is replaced by its index i (docs/hqc.md section 6.2) */
    for (uint32_t i = weight - 1; i-- > 0;) {
        uint32_t found = hqc_barrier(any_equal(support[i], support + i + 1, weight - i - 1));
        support[i] = (found & i) | (~found & support[i]);
    }
    hqc_zeroize(buf, sizeof buf);
}
