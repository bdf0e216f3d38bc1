/* Component tests: tower field (docs/fafft.md section 2.1), BasisCvt (docs/test-vectors.md section 3, fast vs reference), bitsliced product,
   forward FAFFT of monomials against direct evaluation (docs/fafft.md section 7), transform round trips. */
#include <string.h>
#include "fafft.h"
#include "bs_tower_gen.h"
#include "bs_sub10.h"
#include "btfy_consts_gft.h"
#include "testutil.h"

static uint32_t buf1[FAFFT_WORDS], buf2[FAFFT_WORDS], buf3[FAFFT_WORDS];
static fafft_vals_t v1;

/* value of point i in layout B (fafft_butterfly.h): group 32*(b/32) + t, bit b%32, for i = 32b + t */
static uint32_t vals_get(const fafft_vals_t *v, unsigned i)
{
    unsigned b = i / 32, t = i % 32, grp = 32 * (b / 32) + t, bit = b % 32;
    uint32_t z = 0;
    for (unsigned k = 0; k < 32; k++) z |= ((v->g[grp][k] >> bit) & 1u) << k;
    return z;
}

/* tower field vectors */
static void test_tower_vectors(void)
{
    static const uint32_t tv[][3] = {
        {0x2, 0x2, 0x3}, {0x4, 0x4, 0x6}, {0x10, 0x10, 0x18}, {0x100, 0x100, 0x180}, {0x10000, 0x10000, 0x18000},
        {0x92f9c989, 0x00012f9a, 0xe33538b8}, {0xdeadbeef, 0x01234567, 0x0b2910a6}, {0xffffffff, 0xffffffff, 0x9caf97a4}};
    int ok = 1;
    for (unsigned i = 0; i < sizeof tv / sizeof tv[0]; i++) ok &= gf_mul(tv[i][0], tv[i][1]) == tv[i][2];
    check(ok, "tower multiplication vectors");
    check(gf_mul(0x92f9c989, 0xc95b0e87) == 1, "0x92f9c989^-1 = 0xc95b0e87");
}

/* bitsliced product vs scalar */
static void test_bitsliced_product(void)
{
    uint32_t a[32], b[32], c[32], ea[32], eb[32];
    for (unsigned t = 0; t < 32; t++) { ea[t] = rnd32(); eb[t] = rnd32(); }
    ea[0] = 0xdeadbeef; eb[0] = 0x01234567;
    for (unsigned k = 0; k < 32; k++) {
        a[k] = b[k] = 0;
        for (unsigned t = 0; t < 32; t++) { a[k] |= ((ea[t] >> k) & 1u) << t; b[k] |= ((eb[t] >> k) & 1u) << t; }
    }
    bs_mul32(c, a, b);
    int ok = 1;
    for (unsigned t = 0; t < 32; t++) {
        uint32_t z = 0;
        for (unsigned k = 0; k < 32; k++) z |= ((c[k] >> t) & 1u) << k;
        ok &= z == gf_mul(ea[t], eb[t]);
    }
    check(ok, "bitsliced F_2^32 product = scalar products");
}

/* one-call products on 32 words (bs_mulacc8x4, bs_mulacc16x2) against the per-block
   bs_mulacc8/16 and against scalar products, seeded random s, y, acc */
static void test_mulacc_blocks(void)
{
    for (unsigned rep = 0; rep < 4; rep++) {
        static uint32_t s[16], lv[BS_LEAVES16], y[32], a0[32], a1[32], a2[32];
        for (unsigned k = 0; k < 16; k++) s[k] = rnd32();
        for (unsigned k = 0; k < 32; k++) { y[k] = rnd32(); a0[k] = a1[k] = a2[k] = rnd32(); }
        int ok8 = 1, ok16 = 1;
        for (int f8 = 1; f8 >= 0; f8--) {
            unsigned kb = f8 ? 8 : 16;
            memcpy(a1, a0, sizeof a1);
            memcpy(a2, a0, sizeof a2);
            if (f8) {
                bs_leaves8(lv, s);
                bs_mulacc8x4(a1, y, lv);
                for (unsigned b = 0; b < 4; b++) bs_mulacc8(a2 + 8 * b, y + 8 * b, lv);
            } else {
                bs_leaves16(lv, s);
                bs_mulacc16x2(a1, y, lv);
                for (unsigned b = 0; b < 2; b++) bs_mulacc16(a2 + 16 * b, y + 16 * b, lv);
            }
            int ok = memcmp(a1, a2, sizeof a1) == 0;
            /* scalar: block b, position t: (a1 ^ a0) = s_t * y_t in F_2^kb (subfield of F_2^32) */
            for (unsigned b = 0; b < 32 / kb; b++)
                for (unsigned t = 0; t < 32; t++) {
                    uint32_t st = 0, yt = 0, zt = 0;
                    for (unsigned k = 0; k < kb; k++) {
                        st |= ((s[k] >> t) & 1u) << k;
                        yt |= ((y[kb * b + k] >> t) & 1u) << k;
                        zt |= (((a1[kb * b + k] ^ a0[kb * b + k]) >> t) & 1u) << k;
                    }
                    ok &= zt == gf_mul(st, yt);
                }
            if (f8) ok8 = ok;
            else ok16 = ok;
        }
        check(ok8, "bs_mulacc8x4 = four bs_mulacc8 = scalar F_256 products (seeded)");
        check(ok16, "bs_mulacc16x2 = two bs_mulacc16 = scalar F_2^16 products (seeded)");
    }
}

/* s below 2^10 (bs_sub10.h): bs_mulacc8x4 with the leaves of bits 0..7 plus bs_mulacc10_hi2
   (both 16-word blocks) = bs_mulacc16x2 with the leaves of s, seeded random s, y, acc */
static void test_sub10(void)
{
    int ok = 1, ok9 = 1;
    for (unsigned rep = 0; rep < 16; rep++) {
        static uint32_t s[16], l8[BS_LEAVES8 + 3], l16[BS_LEAVES16], y[32], a1[32], a2[32];
        unsigned bits = rep < 8 ? 10 : 9;
        for (unsigned k = 0; k < 16; k++) s[k] = k < bits ? rnd32() : 0;
        if (rep == 0) s[8] = s[9] = 0xffffffffu;
        if (rep == 8) s[8] = 0xffffffffu;
        for (unsigned k = 0; k < 32; k++) { y[k] = rnd32(); a1[k] = a2[k] = rnd32(); }
        bs_leaves8(l8, s);
        l8[BS_LEAVES8] = s[8]; l8[BS_LEAVES8 + 1] = s[9]; l8[BS_LEAVES8 + 2] = s[8] ^ s[9];
        bs_leaves16(l16, s);
        bs_mulacc8x4(a1, y, l8);
        if (bits == 10) bs_mulacc10_hi2(a1, y, l8 + BS_LEAVES8);
        else bs_mulacc9_hi2(a1, y, l8 + BS_LEAVES8);
        bs_mulacc16x2(a2, y, l16);
        if (bits == 10) ok &= memcmp(a1, a2, sizeof a1) == 0;
        else ok9 &= memcmp(a1, a2, sizeof a1) == 0;
    }
    check(ok, "s < 2^10: bs_mulacc8x4 + bs_mulacc10_hi2 = bs_mulacc16x2 (seeded)");
    check(ok9, "s < 2^9: bs_mulacc8x4 + bs_mulacc9_hi2 = bs_mulacc16x2 (seeded)");
    /* the premise: every s0 value of the layers L with j = l - L + 1 = 9, 10 is below 2^j
       (the indices k of build_leaves in fafft_butterfly.h, all blocks of 32 groups) */
    uint32_t hi = 0;
    for (unsigned L = 1; L <= 5; L++) {
        unsigned j = FAFFT_L - L + 1;
        if (j <= 8 || j > 10) continue;
        for (unsigned g = 0; g < FAFFT_NGSTORE; g++) {
            if (g & (1u << (L - 1))) continue;
            unsigned bh = g >> 5, gl = g & 31;
            for (unsigned t = 0; t < 32; t++) hi |= s0_gft[((32 * bh + t) << (5 - L)) | (gl >> L)] >> j;
        }
    }
    check(hi == 0, "s0 values of the layers with j = 9, 10 are below 2^j");
}

/* BasisCvt vectors, docs/test-vectors.md section 3 */
static void test_basis_vectors(void)
{
    static const uint32_t mono3[8] = {0x1, 0x2, 0x6, 0xe, 0x12, 0x26, 0x6e, 0xf2};
    int ok = 1;
    for (unsigned u = 0; u < 8; u++) {
        uint32_t w = 1u << u;
        basis_cvt_ref(&w, 3);
        ok &= w == mono3[u];
        ibasis_cvt_ref(&w, 3);
        ok &= w == (1u << u);
    }
    check(ok, "BasisCvt L=3 monomials");
    uint32_t w = 0xdeadbeef;
    basis_cvt_ref(&w, 5);
    check(w == 0x8f7003fb, "BasisCvt(0xdeadbeef, 5) = 0x8f7003fb");
}

/* the table-free lane transform BasisCvt_4 x 2 (docs/fafft.md section 5.4) against the bit-level
   reference, exhaustively: every 16-bit value in the low lane, a scrambled one in the high lane */
static void test_lane_transform(void)
{
    static uint32_t lw[256];
    int okf = 1, oki = 1, okr = 1;
    for (uint32_t x0 = 0; x0 < 65536; x0 += 256) {
        for (uint32_t k = 0; k < 256; k++) {
            uint32_t lo = x0 + k, hi = (lo * 40503u + 0x9e37u) & 0xffffu;
            lw[k] = lo | (hi << 16);
        }
        static uint32_t fw[256], iw[256];
        memcpy(fw, lw, sizeof fw);
        memcpy(iw, lw, sizeof iw);
        basis_cvt4_lanes(fw, 256);
        ibasis_cvt4_lanes(iw, 256);
        for (uint32_t k = 0; k < 256; k++) {
            uint32_t lo = lw[k] & 0xffffu, hi = lw[k] >> 16, ilo = lo, ihi = hi;
            basis_cvt_ref(&lo, 4); basis_cvt_ref(&hi, 4);
            ibasis_cvt_ref(&ilo, 4); ibasis_cvt_ref(&ihi, 4);
            okf &= fw[k] == (lo | (hi << 16));
            oki &= iw[k] == (ilo | (ihi << 16));
        }
        ibasis_cvt4_lanes(fw, 256);
        okr &= memcmp(fw, lw, sizeof fw) == 0;
    }
    check(okf, "BasisCvt_4 on both 16-bit lanes (table-free) = reference, all 2^16 lane values");
    check(oki, "iBasisCvt_4 on both 16-bit lanes (table-free) = reference, all 2^16 lane values");
    check(okr, "iBasisCvt_4 lanes(BasisCvt_4 lanes(w)) = w");
}

/* edge vectors of the full transform: zero, all ones, monomials x^u, alternating patterns */
static void test_basis_edges(void)
{
    static const unsigned us[] = {0, 1, 15, 16, 31, 32, 127, 128, 255, 256, 257, 4095, 4096, FAFFT_N / 2 - 1, FAFFT_N / 2, FAFFT_N - 1};
    int okf = 1, okr = 1;
    for (unsigned q = 0; q < sizeof us / sizeof us[0] + 4; q++) {
        if (q < sizeof us / sizeof us[0]) {
            memset(buf1, 0, sizeof buf1);
            buf1[us[q] / 32] = 1u << (us[q] % 32);
        } else {
            static const uint32_t pat[4] = {0, 0xffffffffu, 0xaaaaaaaau, 0x0f0f00ffu};
            for (unsigned i = 0; i < FAFFT_WORDS; i++) buf1[i] = pat[q - sizeof us / sizeof us[0]];
        }
        memcpy(buf2, buf1, sizeof buf1);
        memcpy(buf3, buf1, sizeof buf1);
        basis_cvt(buf2, FAFFT_LBITS);
        basis_cvt_ref(buf3, FAFFT_LBITS);
        okf &= memcmp(buf2, buf3, sizeof buf2) == 0;
        ibasis_cvt(buf2, FAFFT_LBITS);
        okr &= memcmp(buf2, buf1, sizeof buf2) == 0;
    }
    check(okf, "fast BasisCvt = reference on edge vectors (zero, ones, monomials, patterns)");
    check(okr, "iBasisCvt(BasisCvt(f)) = f on edge vectors");
    /* the inverse against the inverse reference on seeded random input */
    for (unsigned i = 0; i < FAFFT_WORDS; i++) buf1[i] = rnd32();
    memcpy(buf2, buf1, sizeof buf1);
    ibasis_cvt(buf1, FAFFT_LBITS);
    ibasis_cvt_ref(buf2, FAFFT_LBITS);
    check(memcmp(buf1, buf2, sizeof buf1) == 0, "fast iBasisCvt = reference (seeded random)");
}

/* fast vs reference, full transform size, dense and HQC-sparse inputs; round trip */
static void test_basis_full(void)
{
    for (int rep = 0; rep < 2; rep++) {
        for (unsigned i = 0; i < FAFFT_WORDS; i++) buf1[i] = (rep == 1 && i >= HQC_WORDS) ? 0 : rnd32();
        if (rep == 1) buf1[HQC_WORDS - 1] &= (HQC_N % 32) ? (1u << (HQC_N % 32)) - 1 : ~0u;
        memcpy(buf2, buf1, sizeof buf1);
        memcpy(buf3, buf1, sizeof buf1);
        basis_cvt(buf2, FAFFT_LBITS);
        basis_cvt_ref(buf3, FAFFT_LBITS);
        check(memcmp(buf2, buf3, sizeof buf2) == 0, rep ? "fast BasisCvt = reference (sparse input)" : "fast BasisCvt = reference");
        ibasis_cvt(buf2, FAFFT_LBITS);
        check(memcmp(buf2, buf1, sizeof buf2) == 0, "iBasisCvt(BasisCvt(f)) = f");
        if (rep == 1) {
            fafft_vals_t *vv = &v1;
            fafft_forward(vv, buf1, HQC_WORDS, buf2);
            basis_cvt_ref(buf3, 0);   /* no-op, keeps buf3 = reference BasisCvt */
            fafft_vals_t w2;
            memset(&w2, 0, sizeof w2);   /* l < 10: the padding groups (layout B, fafft_butterfly.h) */
            fafft_encode(&w2, buf3);
            fafft_btfy(&w2);
            check(memcmp(&w2, vv, sizeof w2) == 0, "forward with truncated BasisCvt = full path");
        }
    }
}

/* forward FAFFT of x^u equals evaluation at the points gamma_l + sum_j i_j v_j */
static void test_forward_evaluation(void)
{
    static const uint32_t v[32] = {
        0x00000001, 0x00000002, 0x00000005, 0x00000009, 0x00000013, 0x0000002c, 0x00000057, 0x00000092,
        0x0000012f, 0x000002e5, 0x00000522, 0x000009b1, 0x00001357, 0x00002c7d, 0x00005737, 0x000092f9,
        0x00012f9a, 0x0002e595, 0x00052253, 0x0009b17a, 0x0013573a, 0x002c7d07, 0x00573728, 0x0092f95a,
        0x012f1ac1, 0x02e5558a, 0x0522632e, 0x09b12a15, 0x1357f7db, 0x2c7da109, 0x5737ec3a, 0x92f9c989};
    static const unsigned us[] = {0, 1, 2, 31, 32, 1000, 12345, FAFFT_N / 2 - 1, FAFFT_N / 2 + 7, FAFFT_N - 1};
    int ok = 1;
    for (unsigned q = 0; q < sizeof us / sizeof us[0]; q++) {
        if (us[q] >= FAFFT_N) continue;   /* small transforms (l < 9) */
        memset(buf1, 0, sizeof buf1);
        buf1[us[q] / 32] = 1u << (us[q] % 32);
        fafft_forward(&v1, buf1, FAFFT_WORDS, buf2);
        static const unsigned pts[] = {0, 1, 2, 3, 37, 511, FAFFT_NPTS - 1};
        for (unsigned p = 0; p < sizeof pts / sizeof pts[0]; p++) {
            if (pts[p] >= FAFFT_NPTS) continue;
            uint32_t x = fafft_gamma[FAFFT_L];
            for (unsigned j = 0; j < FAFFT_L; j++)
                if ((pts[p] >> j) & 1) x ^= v[j];
            uint32_t want = gf_pow(x, us[q]);
            if (vals_get(&v1, pts[p]) != want) {
                ok = 0;
                plat_puts("  mismatch u="); put_u32(us[q]); plat_puts(" point "); put_u32(pts[p]);
                plat_puts(" got "); put_hex32(vals_get(&v1, pts[p])); plat_puts(" want "); put_hex32(want); put_line("");
            }
        }
    }
    check(ok, "FAFFT(x^u) = evaluation at gamma_l + V_l");
    /* evaluation order check for the artifact chain (docs/fafft.md section 7.6) */
    if (fafft_gamma[FAFFT_L] == 0x599a429eu) {
        memset(buf1, 0, sizeof buf1);
        buf1[0] = 2;   /* f = x */
        fafft_forward(&v1, buf1, FAFFT_WORDS, buf2);
        check(vals_get(&v1, 0) == 0x599a429e && vals_get(&v1, 1) == 0x599a429f && vals_get(&v1, 2) == 0x599a429c &&
              vals_get(&v1, 3) == 0x599a429d, "output order 0x599a429e, ...9f, ...9c, ...9d");
    }
}

/* transform round trip */
static void test_round_trip(void)
{
    for (unsigned i = 0; i < FAFFT_WORDS; i++) buf1[i] = rnd32();
    fafft_forward(&v1, buf1, FAFFT_WORDS, buf2);
    fafft_inverse(buf3, &v1);
    check(memcmp(buf1, buf3, sizeof buf1) == 0, "inverse(forward(f)) = f");
}

int main(void)
{
    fafft_init();
    test_tower_vectors();
    test_bitsliced_product();
    test_mulacc_blocks();
    test_sub10();
    test_basis_vectors();
    test_lane_transform();
    test_basis_edges();
    test_basis_full();
    test_forward_evaluation();
    test_round_trip();
    return finish();
}
