/* Instruction counts of one HQC ring product (FAFFT + CRT, then fold) on random inputs.
   Build with -DFAFFT_BENCH_STAGES (bench_stages.elf) for nested per-stage regions. */
#include <string.h>
#include "fafft.h"
#include "testutil.h"

static uint32_t f[HQC_WORDS], g[HQC_WORDS], r[HQC_WORDS];

int main(void)
{
    fafft_init();
    for (unsigned i = 0; i < HQC_WORDS; i++) { f[i] = rnd32(); g[i] = rnd32(); }
    if (HQC_N % 32) { f[HQC_WORDS - 1] &= (1u << (HQC_N % 32)) - 1; g[HQC_WORDS - 1] &= (1u << (HQC_N % 32)) - 1; }
    uint32_t *pf = f, *pg = g, *pr = r;
    hqc_ring_mul(pr, pf, pg);            /* warm-up (nothing to warm on QEMU; keeps both runs alike) */
    bench_start();
    PIN(pf); PIN(pg); PIN(pr);
    hqc_ring_mul(pr, pf, pg);
    PIN(pr);
    BENCH_STOP("hqc_ring_mul (product + fold)");
    put_hash("hash(result)", hash_words(r, HQC_WORDS));
    bench_report();
    return 0;
}
