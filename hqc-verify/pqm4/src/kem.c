/* HQC-KEM, the NIST API of api.h (docs/hqc.md section 8):
 *   KeyGen: seed_kem <- randombytes(32); X = XOF(seed_kem); seed_pke = X.read(32);
 *     sigma = X.read(k); (ek, seed_dk) = PKE.KeyGen(seed_pke);
 *     dk = ek || seed_dk || sigma || seed_kem.
 *   Encaps: m <- randombytes(k); salt <- randombytes(16); (K, theta) = G(H(ek), m, salt);
 *     ct = PKE.Encrypt(ek, m, theta) || salt; ss = K.
 *   Decaps: m' = PKE.Decrypt(seed_dk, ct); (K', theta') = G(H(ek), m', salt);
 *     ct' = PKE.Encrypt(ek, m', theta') || salt; Kbar = J(H(ek), sigma, ct);
 *     ss = K' if ct' == ct byte for byte, else Kbar. The comparison and the selection are
 *     constant time; Kbar is always computed. */
#include <string.h>
#include "api.h"
#include "hqc_ct.h"
#include "hqc_keccak.h"
#include "hqc_params.h"
#include "hqc_pke.h"
#include "randombytes.h"

#if CRYPTO_SECRETKEYBYTES != HQC_DK_BYTES || CRYPTO_PUBLICKEYBYTES != HQC_EK_BYTES || \
    CRYPTO_CIPHERTEXTBYTES != HQC_CT_BYTES || CRYPTO_BYTES != HQC_SS_BYTES
#error "api.h sizes differ from the parameter set"
#endif

/* H(ek) = SHA3-256(ek || 0x01) */
static void hash_h(uint8_t out[32], const uint8_t *ek)
{
    const uint8_t *parts[1] = {ek};
    const size_t lens[1] = {HQC_EK_BYTES};
    hqc_sha3_256_parts(out, parts, lens, 1, 0x01);
}

/* (K, theta) = G(H(ek), m, salt) = SHA3-512(H(ek) || m || salt || 0x00) */
static void hash_g(uint8_t out[64], const uint8_t h_ek[32], const uint8_t *m, const uint8_t *salt)
{
    const uint8_t *parts[3] = {h_ek, m, salt};
    const size_t lens[3] = {32, HQC_K, HQC_SALT_BYTES};
    hqc_sha3_512_parts(out, parts, lens, 3, 0x00);
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)
{
    uint8_t seed_kem[32], seed_pke[32];
    hqc_sponge xof;
    randombytes(seed_kem, 32);
    hqc_xof_init(&xof, seed_kem, 32);
    hqc_xof_read(&xof, seed_pke, 32);
    hqc_xof_read(&xof, sk + HQC_EK_BYTES + 32, HQC_K);          /* sigma */
    hqc_pke_keygen(pk, sk + HQC_EK_BYTES, seed_pke);             /* seed_dk */
    memcpy(sk, pk, HQC_EK_BYTES);
    memcpy(sk + HQC_EK_BYTES + 32 + HQC_K, seed_kem, 32);
    hqc_zeroize(seed_kem, sizeof seed_kem);
    hqc_zeroize(seed_pke, sizeof seed_pke);
    hqc_zeroize(&xof, sizeof xof);
    return 0;
}

/* ct = PKE.Encrypt(ek, m, theta) || salt, ss = K */
static void encaps_with(uint8_t *ct, uint8_t *ss, const uint8_t *ek, const uint8_t h_ek[32],
                        const uint8_t *m, const uint8_t *salt)
{
    uint8_t kt[64];
    hash_g(kt, h_ek, m, salt);
    hqc_pke_encrypt(ct, ek, m, kt + 32);
    memmove(ct + HQC_BYTES + HQC_V_BYTES, salt, HQC_SALT_BYTES);
    memcpy(ss, kt, 32);
    hqc_zeroize(kt, sizeof kt);
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk)
{
    uint8_t m[HQC_K], salt[HQC_SALT_BYTES], h_ek[32];
    randombytes(m, HQC_K);
    randombytes(salt, HQC_SALT_BYTES);
    hash_h(h_ek, pk);
    encaps_with(ct, ss, pk, h_ek, m, salt);
    hqc_zeroize(m, sizeof m);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk)
{
    uint8_t ct2[HQC_CT_BYTES];
    uint8_t m[HQC_K], h_ek[32], k1[32], kbar[32];
    const uint8_t *ek = sk, *seed_dk = sk + HQC_EK_BYTES, *sigma = sk + HQC_EK_BYTES + 32;
    const uint8_t *salt = ct + HQC_BYTES + HQC_V_BYTES;
    hash_h(h_ek, ek);
    hqc_pke_decrypt(m, seed_dk, ct);
    encaps_with(ct2, k1, ek, h_ek, m, salt);
    {   /* Kbar = J(H(ek), sigma, ct) = SHA3-256(H(ek) || sigma || ct || 0x03) */
        const uint8_t *parts[3] = {h_ek, sigma, ct};
        const size_t lens[3] = {32, HQC_K, HQC_CT_BYTES};
        hqc_sha3_256_parts(kbar, parts, lens, 3, 0x03);
    }
    uint32_t diff = 0;
    for (unsigned i = 0; i < HQC_CT_BYTES; i++) diff |= (uint32_t)(ct[i] ^ ct2[i]);
    uint32_t eq = hqc_barrier(~hqc_mask_nonzero(diff));
    for (unsigned i = 0; i < 32; i++) ss[i] = (uint8_t)((eq & k1[i]) | (~eq & kbar[i]));
    hqc_zeroize(m, sizeof m);
    hqc_zeroize(k1, sizeof k1);
    hqc_zeroize(ct2, sizeof ct2);
    return 0;
}
