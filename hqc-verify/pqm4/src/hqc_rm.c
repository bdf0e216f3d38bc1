/* Duplicated Reed-Muller RM(1,7) = [128, 8, 64] (docs/hqc.md sections 9.1, 9.2).
 *
 * Encoding of a byte b: bit p (0 <= p < 128) of its block is b_7 ^ XOR_j (b_j & p_j).
 * Decoding of a symbol: counts of ones over the copies, Walsh-Hadamard transform, T[0] -=
 * 64 mult, peak = the first u with the largest |T[u]|, byte = u + 0x80 if T[u] > 0; all of
 * it branch-free over the 128 entries. */
#include "hqc_ct.h"
#include "hqc_code.h"

static void encode_byte(uint32_t blk[4], uint32_t b)
{
#define M(i) ((uint32_t)0 - ((b >> (i)) & 1u))
    uint32_t w0 = M(7) ^ (M(0) & 0xAAAAAAAAu) ^ (M(1) & 0xCCCCCCCCu) ^ (M(2) & 0xF0F0F0F0u) ^
                  (M(3) & 0xFF00FF00u) ^ (M(4) & 0xFFFF0000u);
    blk[0] = w0;
    blk[1] = w0 ^ M(5);
    blk[2] = w0 ^ M(6);
    blk[3] = w0 ^ M(5) ^ M(6);
#undef M
}

void hqc_rm_encode(uint32_t *out, const uint8_t *cw)
{
    uint32_t blk[4];
    for (unsigned i = 0; i < HQC_N1; i++) {
        encode_byte(blk, cw[i]);
        for (unsigned c = 0; c < HQC_MULT; c++)
            for (unsigned q = 0; q < 4; q++) out[4 * (i * HQC_MULT + c) + q] = blk[q];
    }
}

static uint8_t decode_symbol(const uint32_t *copies)
{
    int32_t t[128];
    for (unsigned p = 0; p < 128; p++) t[p] = 0;
    for (unsigned c = 0; c < HQC_MULT; c++)
        for (unsigned p = 0; p < 128; p++) t[p] += (int32_t)((copies[4 * c + p / 32] >> (p % 32)) & 1u);
    for (unsigned h = 1; h < 128; h *= 2)
        for (unsigned i = 0; i < 128; i += 2 * h)
            for (unsigned j = i; j < i + h; j++) {
                int32_t u = t[j], v = t[j + h];
                t[j] = u + v;
                t[j + h] = u - v;
            }
    t[0] -= 64 * (int32_t)HQC_MULT;
    /* key = |T[u]| << 16 | (127 - u) << 8 | (T[u] > 0): the largest key is the peak */
    uint32_t best = 0;
    for (unsigned u = 0; u < 128; u++) {
        int32_t v = t[u];
        int32_t sign = v >> 31;
        uint32_t abs = (uint32_t)((v ^ sign) - sign);
        uint32_t pos = (uint32_t)(-v) >> 31;
        uint32_t key = abs << 16 | (127u - u) << 8 | pos;
        uint32_t gt = hqc_mask_lt(best, key);
        best = (gt & key) | (~gt & best);
    }
    uint32_t u = 127u - ((best >> 8) & 0x7Fu);
    return (uint8_t)(u | (best & 1u) << 7);
}

void hqc_rm_decode(uint8_t *cw, const uint32_t *w)
{
    for (unsigned i = 0; i < HQC_N1; i++) cw[i] = decode_symbol(w + 4 * HQC_MULT * i);
}
