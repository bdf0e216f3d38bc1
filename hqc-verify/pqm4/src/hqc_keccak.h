/* SHAKE256 and SHA3-256/512 on one Keccak sponge, and the HQC functions built on them
 * (docs/hqc.md section 5): XOF(seed), G, H, I, J.
 *
 * The state is kept bit-interleaved (lane i = words s[2i] (even bits) and s[2i+1] (odd
 * bits)), the layout of the Thumb-2 permutation keccak_f1600.S, which is used on the
 * Cortex-M4; elsewhere a portable C permutation is used. */
#ifndef HQC_KECCAK_H
#define HQC_KECCAK_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t s[50];      /* interleaved state */
    uint8_t buf[168];    /* the block being absorbed, or the block being squeezed */
    uint32_t rate;       /* bytes */
    uint32_t pos;        /* bytes used of buf */
    uint8_t pad;         /* domain padding byte: 0x1F SHAKE, 0x06 SHA3 */
    uint8_t squeezing;
    uint8_t aligned;     /* v5.0.0 XOF reads (docs/hqc.md section 5.2) */
} hqc_sponge;

void hqc_sponge_init(hqc_sponge *sp, uint32_t rate, uint8_t pad);
void hqc_sponge_absorb(hqc_sponge *sp, const uint8_t *in, size_t len);
void hqc_sponge_squeeze(hqc_sponge *sp, uint8_t *out, size_t len);

/* XOF(seed) = SHAKE256(seed || 0x01), with the read rule of the package's flavour */
void hqc_xof_init(hqc_sponge *x, const uint8_t *seed, size_t len);
/* XOF(seed) read as one plain stream (the expansion of h, both flavours) */
void hqc_xof_init_plain(hqc_sponge *x, const uint8_t *seed, size_t len);
void hqc_xof_read(hqc_sponge *x, uint8_t *out, size_t len);

/* SHA3-256 / SHA3-512 of the concatenation of up to 4 parts followed by one domain byte */
void hqc_sha3_256_parts(uint8_t out[32], const uint8_t *const *p, const size_t *len,
                        unsigned parts, uint8_t domain);
void hqc_sha3_512_parts(uint8_t out[64], const uint8_t *const *p, const size_t *len,
                        unsigned parts, uint8_t domain);

/* the permutation on the interleaved state */
void hqc_keccak_permute(uint32_t s[50]);

#endif
