/* Fixed-weight samplers (docs/hqc.md section 6), constant time up to the number of
 * rejected candidates of the keygen sampler (inherent to rejection sampling). */
#ifndef HQC_SAMPLING_H
#define HQC_SAMPLING_H
#include <stdint.h>
#include "hqc_keccak.h"

/* "SampleFixedWeightVect$" (y, x): weight distinct positions < n, in sampling order */
void hqc_sample_keygen(hqc_sponge *xof, uint32_t *support, uint32_t weight);
/* "SampleFixedWeightVect" (r2, e, r1): one read of 4 weight bytes */
void hqc_sample_encrypt(hqc_sponge *xof, uint32_t *support, uint32_t weight);
#endif
