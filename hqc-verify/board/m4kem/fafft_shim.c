/* C ABI that m4kem's `c-fafft` feature calls (src/cfafft.rs), over helper B's FAFFT+CRT
   multiplier in ../firmware/fafft/ (fafft.h: hqc_ring_mul, fafft_init). The ring degree is
   the one of the fafft_params.h on the include path (HQC_N). */
#include <stdint.h>
#include "fafft.h"

static int ready;

/* one-time tables (not part of a product); idempotent */
void fafft_crt_init(void)
{
    if (!ready) { fafft_init(); ready = 1; }
}

uint32_t fafft_crt_n(void) { return HQC_N; }

/* out = a*b mod (x^n - 1); a, b, out: ceil(n/32) words, canonical. */
void fafft_crt_mul_mod(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
    fafft_crt_init();
    hqc_ring_mul(out, a, b);
}
