/* bs_sub10.h: the product acc ^= s * y in F_2^16 for s below 2^10 (docs/board.md sec. 17.2).
   F_2^16 = F_256[X]/(X^2 + X + 0x80); s = s_lo + s_hi X with s_hi in F_4 (bits 8, 9 of s), so
     (s y)_lo = s_lo y_lo + 0x80 (s_hi y_hi),   (s y)_hi = s_lo y_hi + s_hi (y_lo + y_hi).
   The two s_lo products are bs_mulacc8 blocks (its leaves); this header adds the s_hi terms.
   Bitsliced: word q holds bit q of 32 elements; an F_256 element is an F_4-vector of four
   bit pairs (2i, 2i + 1), each multiplied by s_hi in F_4 = F_2[w]/(w^2 + w + 1).
   Straight-line, no data-dependent branch or address. */
#ifndef BS_SUB10_H
#define BS_SUB10_H
#include <stdint.h>

/* the F_4 product (a0 + a1 w)(m0 + m1 w), w^2 = w + 1, on one bit pair: (r0, r1) */
#define BS_F4_MUL(r0, r1, a0, a1, m0, m1, mx)          \
    do {                                               \
        uint32_t p00_ = (a0) & (m0);                   \
        (r0) = p00_ ^ ((a1) & (m1));                   \
        (r1) = (((a0) ^ (a1)) & (mx)) ^ p00_;          \
    } while (0)

/* the s_hi terms of one 16-word block: acc[0..8) ^= 0x80 (s_hi y[8..16)),
   acc[8..16) ^= s_hi (y[0..8) + y[8..16)); m = {m0, m1, m0 ^ m1} (bits 8, 9 of s).
   f2: s below 2^9 (m1 = 0, s_hi in F_2): each pair product is (a0 m0, a1 m0).
   Fully unrolled so that the compiler keeps the words in registers. */
static inline __attribute__((always_inline)) void bs_mulacc10_hi(uint32_t *acc, const uint32_t *y, const uint32_t m[3], int f2)
{
    const uint32_t m0 = m[0], m1 = m[1], mx = m[2];
    uint32_t z[8];
#pragma GCC unroll 4
    for (unsigned i = 0; i < 8; i += 2) {
        uint32_t a0 = y[8 + i], a1 = y[9 + i], r0, r1;
        if (f2) {
            acc[8 + i] ^= (y[i] ^ a0) & m0;
            acc[9 + i] ^= (y[i + 1] ^ a1) & m0;
            z[i] = a0 & m0;
            z[i + 1] = a1 & m0;
        } else {
            BS_F4_MUL(r0, r1, y[i] ^ a0, y[i + 1] ^ a1, m0, m1, mx);
            acc[8 + i] ^= r0;
            acc[9 + i] ^= r1;
            BS_F4_MUL(z[i], z[i + 1], a0, a1, m0, m1, mx);
        }
    }
    /* acc[0..8) ^= 0x80 z in F_256 (the tower constant c_8; a fixed 8x8 bit matrix) */
    uint32_t z46 = z[4] ^ z[6], z57 = z[5] ^ z[7], z26 = z[2] ^ z[6], z37 = z[3] ^ z[7];
    acc[0] ^= z46;
    acc[1] ^= z57;
    acc[2] ^= z[4] ^ z57;
    acc[3] ^= z46 ^ z[7];
    acc[4] ^= z26 ^ z37;
    acc[5] ^= z26;
    acc[6] ^= z[1] ^ z57 ^ z[3];
    acc[7] ^= z[0] ^ z[1] ^ z26 ^ z37 ^ z[4] ^ z[5];
}

/* both 16-word blocks of a 32-word group pair, one call: s below 2^10, resp. below 2^9 */
static __attribute__((noinline, unused)) void bs_mulacc10_hi2(uint32_t *acc, const uint32_t *y, const uint32_t m[3])
{
    bs_mulacc10_hi(acc, y, m, 0);
    bs_mulacc10_hi(acc + 16, y + 16, m, 0);
}
static __attribute__((noinline, unused)) void bs_mulacc9_hi2(uint32_t *acc, const uint32_t *y, const uint32_t m[3])
{
    bs_mulacc10_hi(acc, y, m, 1);
    bs_mulacc10_hi(acc + 16, y + 16, m, 1);
}

#endif
