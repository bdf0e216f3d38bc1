/* Reed-Solomon outer code over GF(2^8), modulus x^8 + x^4 + x^3 + x^2 + 1, alpha = 2
 * (docs/hqc.md sections 9.1, 9.3). Systematic, message at the end; generator
 * g(x) = prod_{i=1}^{2 delta} (x - alpha^i).
 *
 * Decoding, all constant time (no branch or index depends on the received word):
 * syndromes S_i = c(alpha^i); Berlekamp-Massey with a fixed 2 delta iterations and masked
 * updates; Omega = S sigma mod x^(2 delta); for each message position j, an error where
 * sigma(alpha^-j) = 0, of value Omega(alpha^-j) / sigma'(alpha^-j), added under a mask.
 * Field products use masked shifts; the table below is indexed by public exponents only. */
#include "hqc_ct.h"
#include "hqc_code.h"

#define LEN (HQC_T + 1u)   /* coefficients of sigma */

static const uint8_t gf_exp[255] = {
    0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1d, 0x3a, 0x74, 0xe8, 0xcd, 0x87, 0x13, 0x26,
    0x4c, 0x98, 0x2d, 0x5a, 0xb4, 0x75, 0xea, 0xc9, 0x8f, 0x03, 0x06, 0x0c, 0x18, 0x30, 0x60, 0xc0,
    0x9d, 0x27, 0x4e, 0x9c, 0x25, 0x4a, 0x94, 0x35, 0x6a, 0xd4, 0xb5, 0x77, 0xee, 0xc1, 0x9f, 0x23,
    0x46, 0x8c, 0x05, 0x0a, 0x14, 0x28, 0x50, 0xa0, 0x5d, 0xba, 0x69, 0xd2, 0xb9, 0x6f, 0xde, 0xa1,
    0x5f, 0xbe, 0x61, 0xc2, 0x99, 0x2f, 0x5e, 0xbc, 0x65, 0xca, 0x89, 0x0f, 0x1e, 0x3c, 0x78, 0xf0,
    0xfd, 0xe7, 0xd3, 0xbb, 0x6b, 0xd6, 0xb1, 0x7f, 0xfe, 0xe1, 0xdf, 0xa3, 0x5b, 0xb6, 0x71, 0xe2,
    0xd9, 0xaf, 0x43, 0x86, 0x11, 0x22, 0x44, 0x88, 0x0d, 0x1a, 0x34, 0x68, 0xd0, 0xbd, 0x67, 0xce,
    0x81, 0x1f, 0x3e, 0x7c, 0xf8, 0xed, 0xc7, 0x93, 0x3b, 0x76, 0xec, 0xc5, 0x97, 0x33, 0x66, 0xcc,
    0x85, 0x17, 0x2e, 0x5c, 0xb8, 0x6d, 0xda, 0xa9, 0x4f, 0x9e, 0x21, 0x42, 0x84, 0x15, 0x2a, 0x54,
    0xa8, 0x4d, 0x9a, 0x29, 0x52, 0xa4, 0x55, 0xaa, 0x49, 0x92, 0x39, 0x72, 0xe4, 0xd5, 0xb7, 0x73,
    0xe6, 0xd1, 0xbf, 0x63, 0xc6, 0x91, 0x3f, 0x7e, 0xfc, 0xe5, 0xd7, 0xb3, 0x7b, 0xf6, 0xf1, 0xff,
    0xe3, 0xdb, 0xab, 0x4b, 0x96, 0x31, 0x62, 0xc4, 0x95, 0x37, 0x6e, 0xdc, 0xa5, 0x57, 0xae, 0x41,
    0x82, 0x19, 0x32, 0x64, 0xc8, 0x8d, 0x07, 0x0e, 0x1c, 0x38, 0x70, 0xe0, 0xdd, 0xa7, 0x53, 0xa6,
    0x51, 0xa2, 0x59, 0xb2, 0x79, 0xf2, 0xf9, 0xef, 0xc3, 0x9b, 0x2b, 0x56, 0xac, 0x45, 0x8a, 0x09,
    0x12, 0x24, 0x48, 0x90, 0x3d, 0x7a, 0xf4, 0xf5, 0xf7, 0xf3, 0xfb, 0xeb, 0xcb, 0x8b, 0x0b, 0x16,
    0x2c, 0x58, 0xb0, 0x7d, 0xfa, 0xe9, 0xcf, 0x83, 0x1b, 0x36, 0x6c, 0xd8, 0xad, 0x47, 0x8e,
};

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 8; i++) r ^= ((uint32_t)a << i) & ((uint32_t)0 - ((b >> i) & 1u));
    for (unsigned k = 0; k < 2; k++) {
        uint32_t hi = r >> 8;
        r = (r & 0xFFu) ^ hi ^ (hi << 2) ^ (hi << 3) ^ (hi << 4);
    }
    return (uint8_t)r;
}

/* a^254 (the inverse; 0 for 0) */
static uint8_t gf_inv(uint8_t a)
{
    uint8_t r = a;
    for (unsigned i = 0; i < 6; i++) r = gf_mul(gf_mul(r, r), a);   /* a^(2^(i+2) - 1) */
    return gf_mul(r, r);
}

void hqc_rs_encode(uint8_t *cw, const uint8_t *msg)
{
    static const uint8_t g[HQC_T + 1] = HQC_G_INIT;
    uint8_t p[HQC_T] = {0};
    for (unsigned i = HQC_K; i-- > 0;) {
        uint8_t f = msg[i] ^ p[HQC_T - 1];
        for (unsigned j = HQC_T - 1; j > 0; j--) p[j] = p[j - 1] ^ gf_mul(f, g[j]);
        p[0] = gf_mul(f, g[0]);
    }
    for (unsigned j = 0; j < HQC_T; j++) cw[j] = p[j];
    for (unsigned j = 0; j < HQC_K; j++) cw[HQC_T + j] = msg[j];
}

/* s[i - 1] = c(alpha^i), i = 1 .. 2 delta */
static void syndromes(uint8_t *s, const uint8_t *cw)
{
    for (unsigned i = 1; i <= HQC_T; i++) {
        uint8_t acc = 0;
        for (unsigned j = 0; j < HQC_N1; j++) acc ^= gf_mul(cw[j], gf_exp[(i * j) % 255]);
        s[i - 1] = acc;
    }
}

/* error locator lam (not normalized) by inversionless Berlekamp-Massey, 2 delta steps */
static void berlekamp_massey(uint8_t *lam, const uint8_t *s)
{
    uint8_t bx[LEN] = {0}, old[LEN];   /* bx = x B(x) */
    uint8_t gamma = 1;
    uint32_t l = 0;
    for (unsigned i = 0; i < LEN; i++) lam[i] = 0;
    lam[0] = 1;
    bx[1] = 1;
    for (uint32_t r = 0; r < HQC_T; r++) {
        uint8_t d = 0;
        for (unsigned i = 0; i <= r; i++) d ^= gf_mul(lam[i], s[r - i]);
        for (unsigned i = 0; i < LEN; i++) {
            old[i] = lam[i];
            lam[i] = gf_mul(gamma, lam[i]) ^ gf_mul(d, bx[i]);
        }
        /* swap iff d != 0 and 2L <= r */
        uint32_t swap = hqc_barrier(hqc_mask_nonzero(d) & hqc_mask_lt(2 * l, r + 1));
        for (unsigned i = 0; i < LEN; i++) bx[i] = (uint8_t)((swap & old[i]) | (~swap & bx[i]));
        gamma = (uint8_t)((swap & d) | (~swap & gamma));
        l = (swap & (r + 1 - l)) | (~swap & l);
        for (unsigned i = LEN - 1; i > 0; i--) bx[i] = bx[i - 1];
        bx[0] = 0;
    }
    hqc_zeroize(bx, sizeof bx);
    hqc_zeroize(old, sizeof old);
}

/* sum_k p[k] x^k at x = alpha^-j (public j) */
static uint8_t eval_at(const uint8_t *p, unsigned j)
{
    uint8_t acc = 0;
    unsigned e = 0, step = 255 - j;
    for (unsigned k = 0; k < LEN; k++) {
        acc ^= gf_mul(p[k], gf_exp[e]);
        e = (e + step) % 255;
    }
    return acc;
}

void hqc_rs_decode(uint8_t *msg, uint8_t *cw)
{
    uint8_t s[HQC_T], lam[LEN], omega[LEN] = {0}, der[LEN] = {0};
    syndromes(s, cw);
    berlekamp_massey(lam, s);
    for (unsigned i = 0; i < HQC_T; i++) {
        uint8_t acc = 0;
        for (unsigned k = 0; k <= i; k++) acc ^= gf_mul(lam[k], s[i - k]);
        omega[i] = acc;
    }
    for (unsigned k = 1; k < LEN; k += 2) der[k - 1] = lam[k];
    for (unsigned j = HQC_T; j < HQC_N1; j++) {
        uint32_t root = hqc_barrier(~hqc_mask_nonzero(eval_at(lam, j)));
        uint8_t e = (uint8_t)(root & gf_mul(eval_at(omega, j), gf_inv(eval_at(der, j))));
        cw[j] ^= e;
    }
    for (unsigned j = 0; j < HQC_K; j++) msg[j] = cw[HQC_T + j];
    hqc_zeroize(s, sizeof s);
    hqc_zeroize(lam, sizeof lam);
    hqc_zeroize(omega, sizeof omega);
    hqc_zeroize(der, sizeof der);
}
