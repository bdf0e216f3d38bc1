/* HQC-PKE (docs/hqc.md section 7):
 *   KeyGen(seed_pke): (seed_dk, seed_ek) = I(seed_pke); y, x from XOF(seed_dk) (y first);
 *     h = expansion of seed_ek; s = x + h y; ek = seed_ek || s.
 *   Encrypt(ek, m, theta): r2, e, r1 from XOF(theta); u = r1 + h r2;
 *     v = C.Encode(m) + Truncate(s r2 + e).
 *   Decrypt(seed_dk, (u, v)): y as in KeyGen; m = C.Decode(v + Truncate(u y)).
 * s is parsed without masking in the reference: each padding bit n + t of s adds r2 shifted
 * up by t without wrap-around (docs/hqc.md section 11); the padding is public (part of ek). */
#include <string.h>
#include "hqc_code.h"
#include "hqc_ct.h"
#include "hqc_keccak.h"
#include "hqc_pke.h"
#include "hqc_ring.h"
#include "hqc_sampling.h"

static void expand_h(hqc_poly *h, const uint8_t seed_ek[32])
{
    hqc_sponge xof;
    uint8_t buf[HQC_BYTES];
    hqc_xof_init_plain(&xof, seed_ek, 32);
    hqc_sponge_squeeze(&xof, buf, HQC_BYTES);
    hqc_words_from_bytes(h->w, HQC_PWORDS, buf, HQC_BYTES);
    (void)hqc_poly_mask(h);
}

static void sample_y(hqc_poly *y, hqc_sponge *xof)
{
    uint32_t sup[HQC_W];
    hqc_sample_keygen(xof, sup, HQC_W);
    hqc_expand_support(y, sup, HQC_W);
    hqc_zeroize(sup, sizeof sup);
}

void hqc_pke_keygen(uint8_t *ek, uint8_t seed_dk[32], const uint8_t seed_pke[32])
{
    uint8_t seeds[64];
    const uint8_t *parts[1] = {seed_pke};
    const size_t lens[1] = {32};
    hqc_poly h, y, x, sp;
    hqc_sponge xof;
    hqc_sha3_512_parts(seeds, parts, lens, 1, 0x02);
    memcpy(seed_dk, seeds, 32);
    expand_h(&h, seeds + 32);
    hqc_xof_init(&xof, seed_dk, 32);
    sample_y(&y, &xof);
    sample_y(&x, &xof);
    hqc_mul(&sp, &h, &y);
    hqc_poly_xor(&sp, &x);
    memcpy(ek, seeds + 32, 32);
    hqc_words_to_bytes(ek + 32, HQC_BYTES, sp.w);
    hqc_zeroize(seeds, sizeof seeds);
    hqc_zeroize(&y, sizeof y);
    hqc_zeroize(&x, sizeof x);
    hqc_zeroize(&xof, sizeof xof);
}

void hqc_pke_encrypt(uint8_t *ct, const uint8_t *ek, const uint8_t *m, const uint8_t theta[32])
{
    hqc_poly h, s, r2, e, u, t;
    uint32_t sup[HQC_WR > HQC_WE ? HQC_WR : HQC_WE];
    uint8_t cw[HQC_N1];
    hqc_sponge xof;
    expand_h(&h, ek);
    hqc_words_from_bytes(s.w, HQC_PWORDS, ek + 32, HQC_BYTES);
    uint32_t pad = hqc_poly_mask(&s);
    hqc_xof_init(&xof, theta, 32);
    hqc_sample_encrypt(&xof, sup, HQC_WR);
    hqc_expand_support(&r2, sup, HQC_WR);
    hqc_sample_encrypt(&xof, sup, HQC_WE);
    hqc_expand_support(&e, sup, HQC_WE);
    hqc_mul2(&u, &t, &r2, &h, &s);        /* u = r2 h, t = r2 s */
    for (unsigned b = 0; b < HQC_PAD_BITS; b++)
        if ((pad >> b) & 1u) hqc_poly_xor_shifted(&t, &r2, b);
    hqc_poly_xor(&t, &e);
    hqc_sample_encrypt(&xof, sup, HQC_WR);
    hqc_expand_support(&e, sup, HQC_WR);  /* r1 */
    hqc_poly_xor(&u, &e);
    hqc_words_to_bytes(ct, HQC_BYTES, u.w);
    hqc_rs_encode(cw, m);
    hqc_rm_encode(e.w, cw);               /* C.Encode(m) */
    for (unsigned i = 0; i < HQC_V_WORDS; i++) e.w[i] ^= t.w[i];
    hqc_words_to_bytes(ct + HQC_BYTES, HQC_V_BYTES, e.w);
    hqc_zeroize(sup, sizeof sup);
    hqc_zeroize(cw, sizeof cw);
    hqc_zeroize(&r2, sizeof r2);
    hqc_zeroize(&e, sizeof e);
    hqc_zeroize(&t, sizeof t);
    hqc_zeroize(&xof, sizeof xof);
}

void hqc_pke_decrypt(uint8_t *m, const uint8_t seed_dk[32], const uint8_t *ct)
{
    hqc_poly y, u, t;
    uint8_t cw[HQC_N1];
    hqc_sponge xof;
    hqc_xof_init(&xof, seed_dk, 32);
    sample_y(&y, &xof);
    hqc_words_from_bytes(u.w, HQC_PWORDS, ct, HQC_BYTES);
    (void)hqc_poly_mask(&u);
    hqc_mul(&t, &u, &y);
    hqc_words_from_bytes(y.w, HQC_V_WORDS, ct + HQC_BYTES, HQC_V_BYTES);
    for (unsigned i = 0; i < HQC_V_WORDS; i++) y.w[i] ^= t.w[i];
    hqc_rm_decode(cw, y.w);
    hqc_rs_decode(m, cw);
    hqc_zeroize(cw, sizeof cw);
    hqc_zeroize(&y, sizeof y);
    hqc_zeroize(&t, sizeof t);
    hqc_zeroize(&xof, sizeof xof);
}
