/* C ABI that m4kem's `c-fafft` feature calls (src/cfafft.rs), over the firmware's FAFFT+CRT
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

/* ---- split path (src/cfafft.rs): FAFFT_SLOTS static transform slots for operands that are
   used more than once (r2 in Encrypt, y in Decrypt, the cached h and s of a reused key).
   RAM: FAFFT_SLOTS * sizeof(fafft_vals_t) bytes (fafft_crt_slot_bytes). The plain KEM holds at
   most 2 at a time (y and r2 in Decaps); a cache hit in Decaps 4 (h, s, y, r2): build.sh sets
   FAFFT_SLOTS=4 with the m4kem feature cache. With no free slot the plain product is used. */
#ifndef FAFFT_SLOTS
#define FAFFT_SLOTS 2
#endif
static fafft_vals_t slots[FAFFT_SLOTS];

uint32_t fafft_crt_slots(void) { return FAFFT_SLOTS; }
uint32_t fafft_crt_slot_bytes(void) { return (uint32_t)sizeof(fafft_vals_t); }

/* slots[slot] = the forward transform of a (ceil(n/32) words, canonical); 0, or -1 for a bad slot */
int32_t fafft_crt_transform(uint32_t slot, const uint32_t *a)
{
    if (slot >= FAFFT_SLOTS) return -1;
    fafft_crt_init();
    fafft_transform(&slots[slot], a);
    return 0;
}

/* out = a*b mod (x^n - 1) with a transformed in slot sa and b in slot sb (sb = UINT32_MAX:
   b is transformed here); a, b are still needed for the CRT residue. 0, or -1 for a bad slot. */
int32_t fafft_crt_mul_pre(const uint32_t *a, uint32_t sa, const uint32_t *b, uint32_t sb,
                          uint32_t *out)
{
    if (sa >= FAFFT_SLOTS || (sb != UINT32_MAX && sb >= FAFFT_SLOTS)) return -1;
    fafft_crt_init();
    hqc_ring_mul_pre(out, a, &slots[sa], b, sb == UINT32_MAX ? 0 : &slots[sb]);
    return 0;
}
