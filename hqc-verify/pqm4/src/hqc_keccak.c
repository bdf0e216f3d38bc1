/* Keccak sponge on the bit-interleaved state (hqc_keccak.h), and the portable permutation
 * used where the Thumb-2 routine keccak_f1600.S does not run. */
#include <string.h>
#include "hqc_config.h"
#include "hqc_keccak.h"

/* even bits of x to the low half, odd bits to the high half */
static uint32_t unzip32(uint32_t x)
{
    uint32_t t;
    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C0C0Cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F000F0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000FF00u; x ^= t ^ (t << 8);
    return x;
}

/* the inverse of unzip32 */
static uint32_t zip32(uint32_t x)
{
    uint32_t t;
    t = (x ^ (x >> 8)) & 0x0000FF00u; x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00F000F0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0C0C0C0Cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    return x;
}

static uint32_t load32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void store32(uint8_t *b, uint32_t x)
{
    b[0] = (uint8_t)x; b[1] = (uint8_t)(x >> 8); b[2] = (uint8_t)(x >> 16); b[3] = (uint8_t)(x >> 24);
}

/* lane (lo, hi) -> (even, odd) words */
static void interleave(uint32_t lo, uint32_t hi, uint32_t *even, uint32_t *odd)
{
    uint32_t x = unzip32(lo), y = unzip32(hi);
    *even = (x & 0xFFFFu) | (y << 16);
    *odd = (x >> 16) | (y & 0xFFFF0000u);
}

static void deinterleave(uint32_t even, uint32_t odd, uint32_t *lo, uint32_t *hi)
{
    *lo = zip32((even & 0xFFFFu) | (odd << 16));
    *hi = zip32((even >> 16) | (odd & 0xFFFF0000u));
}

#if defined(__ARM_ARCH_7EM__) && !defined(HQC_PORTABLE)
void hqc_keccak_f1600_m4(uint32_t state[50]);

void hqc_keccak_permute(uint32_t s[50])
{
    hqc_keccak_f1600_m4(s);
}
#else
static const uint64_t round_constants[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808Aull, 0x8000000080008000ull,
    0x000000000000808Bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008Aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000Aull,
    0x000000008000808Bull, 0x800000000000008Bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800Aull, 0x800000008000000Aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/* rho offsets of lane x + 5y */
static const unsigned rho[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

static uint64_t rotl64(uint64_t x, unsigned r)
{
    return r ? (x << r) | (x >> (64 - r)) : x;
}

/* Keccak-f[1600] (FIPS 202 section 3) on lanes a[x + 5y] */
static void keccak_f1600(uint64_t a[25])
{
    uint64_t b[25], c[5], d;
    for (unsigned round = 0; round < 24; round++) {
        for (unsigned x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (unsigned x = 0; x < 5; x++) {
            d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
            for (unsigned y = 0; y < 25; y += 5) a[x + y] ^= d;
        }
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(a[x + 5 * y], rho[x + 5 * y]);
        for (unsigned y = 0; y < 25; y += 5)
            for (unsigned x = 0; x < 5; x++)
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
        a[0] ^= round_constants[round];
    }
}

void hqc_keccak_permute(uint32_t s[50])
{
    uint64_t a[25];
    uint32_t lo, hi;
    for (unsigned i = 0; i < 25; i++) {
        deinterleave(s[2 * i], s[2 * i + 1], &lo, &hi);
        a[i] = (uint64_t)lo | (uint64_t)hi << 32;
    }
    keccak_f1600(a);
    for (unsigned i = 0; i < 25; i++)
        interleave((uint32_t)a[i], (uint32_t)(a[i] >> 32), &s[2 * i], &s[2 * i + 1]);
}
#endif

void hqc_sponge_init(hqc_sponge *sp, uint32_t rate, uint8_t pad)
{
    memset(sp, 0, sizeof *sp);
    sp->rate = rate;
    sp->pad = pad;
}

/* state ^= buf[0 .. rate) */
static void xor_block(hqc_sponge *sp)
{
    uint32_t e, o;
    for (uint32_t i = 0; i < sp->rate / 8; i++) {
        interleave(load32(sp->buf + 8 * i), load32(sp->buf + 8 * i + 4), &e, &o);
        sp->s[2 * i] ^= e;
        sp->s[2 * i + 1] ^= o;
    }
}

/* buf[0 .. rate) = the rate part of the state */
static void extract_block(hqc_sponge *sp)
{
    uint32_t lo, hi;
    for (uint32_t i = 0; i < sp->rate / 8; i++) {
        deinterleave(sp->s[2 * i], sp->s[2 * i + 1], &lo, &hi);
        store32(sp->buf + 8 * i, lo);
        store32(sp->buf + 8 * i + 4, hi);
    }
}

void hqc_sponge_absorb(hqc_sponge *sp, const uint8_t *in, size_t len)
{
    while (len > 0) {
        size_t take = sp->rate - sp->pos;
        if (take > len) take = len;
        memcpy(sp->buf + sp->pos, in, take);
        sp->pos += (uint32_t)take;
        in += take;
        len -= take;
        if (sp->pos == sp->rate) {
            xor_block(sp);
            hqc_keccak_permute(sp->s);
            sp->pos = 0;
        }
    }
}

static void finalize(hqc_sponge *sp)
{
    memset(sp->buf + sp->pos, 0, sp->rate - sp->pos);
    sp->buf[sp->pos] ^= sp->pad;
    sp->buf[sp->rate - 1] ^= 0x80;
    xor_block(sp);
    hqc_keccak_permute(sp->s);
    extract_block(sp);
    sp->pos = 0;
    sp->squeezing = 1;
}

void hqc_sponge_squeeze(hqc_sponge *sp, uint8_t *out, size_t len)
{
    if (!sp->squeezing) finalize(sp);
    while (len > 0) {
        if (sp->pos == sp->rate) {
            hqc_keccak_permute(sp->s);
            extract_block(sp);
            sp->pos = 0;
        }
        size_t take = sp->rate - sp->pos;
        if (take > len) take = len;
        memcpy(out, sp->buf + sp->pos, take);
        sp->pos += (uint32_t)take;
        out += take;
        len -= take;
    }
}

void hqc_xof_init_plain(hqc_sponge *x, const uint8_t *seed, size_t len)
{
    static const uint8_t domain = 0x01;
    hqc_sponge_init(x, 136, 0x1F);
    hqc_sponge_absorb(x, seed, len);
    hqc_sponge_absorb(x, &domain, 1);
}

void hqc_xof_init(hqc_sponge *x, const uint8_t *seed, size_t len)
{
    hqc_xof_init_plain(x, seed, len);
    x->aligned = HQC_FLAVOUR_V5;
}

/* v5.0.0: a read whose length is not a multiple of 8 ends on a whole 8-byte block (the
 * rest of that block is skipped); 2026-02: one plain stream. */
void hqc_xof_read(hqc_sponge *x, uint8_t *out, size_t len)
{
    size_t rem = len % 8;
    uint8_t block[8];
    if (!x->aligned || rem == 0) {
        hqc_sponge_squeeze(x, out, len);
        return;
    }
    hqc_sponge_squeeze(x, out, len - rem);
    hqc_sponge_squeeze(x, block, 8);
    memcpy(out + len - rem, block, rem);
}

static void sha3_parts(uint8_t *out, uint32_t outlen, const uint8_t *const *p,
                       const size_t *len, unsigned parts, uint8_t domain)
{
    hqc_sponge sp;
    hqc_sponge_init(&sp, 200 - 2 * outlen, 0x06);
    for (unsigned i = 0; i < parts; i++) hqc_sponge_absorb(&sp, p[i], len[i]);
    hqc_sponge_absorb(&sp, &domain, 1);
    hqc_sponge_squeeze(&sp, out, outlen);
}

void hqc_sha3_256_parts(uint8_t out[32], const uint8_t *const *p, const size_t *len,
                        unsigned parts, uint8_t domain)
{
    sha3_parts(out, 32, p, len, parts, domain);
}

void hqc_sha3_512_parts(uint8_t out[64], const uint8_t *const *p, const size_t *len,
                        unsigned parts, uint8_t domain)
{
    sha3_parts(out, 64, p, len, parts, domain);
}
