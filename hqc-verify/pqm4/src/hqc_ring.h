/* Ring elements of R = F2[X]/(X^n - 1) as HQC_PWORDS little-endian 32-bit words (bit b of
 * word w = coefficient of X^(32w + b)); canonical = bits >= n are zero (docs/hqc.md section 4). */
#ifndef HQC_RING_H
#define HQC_RING_H
#include <stddef.h>
#include <stdint.h>
#include "hqc_params.h"

typedef struct { uint32_t w[HQC_PWORDS]; } __attribute__((aligned(8))) hqc_poly;

void hqc_words_from_bytes(uint32_t *w, size_t nwords, const uint8_t *b, size_t nbytes);
void hqc_words_to_bytes(uint8_t *b, size_t nbytes, const uint32_t *w);
/* clears the bits >= n; returns the HQC_PAD_BITS padding bits of the serialized form */
uint32_t hqc_poly_mask(hqc_poly *a);
void hqc_poly_xor(hqc_poly *a, const hqc_poly *b);
/* out ^= (a << t) truncated to n bits, no wrap-around (docs/hqc.md section 11) */
void hqc_poly_xor_shifted(hqc_poly *out, const hqc_poly *a, unsigned t);
/* out = the vector with the bits of support[0 .. weight) set, in constant time */
void hqc_expand_support(hqc_poly *out, const uint32_t *support, uint32_t weight);

/* ring products by the exported FAFFT + CRT multiplier (canonical operands) */
void hqc_mul(hqc_poly *out, const hqc_poly *a, const hqc_poly *b);
/* out1 = a * b1 and out2 = a * b2, transforming a once */
void hqc_mul2(hqc_poly *out1, hqc_poly *out2, const hqc_poly *a, const hqc_poly *b1,
              const hqc_poly *b2);
#endif
