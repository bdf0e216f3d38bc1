/* The two-moduli product (docs/fafft.md sec. 9.8; twomod.c): the full product of an export with
   TWOMOD_L2 from its two FAFFT instances. The first instance's ring layer (fafft_ring.h) calls
   it; the second instance's interface is fafft_m2.h. */
#ifndef TWOMOD_H
#define TWOMOD_H
#include <stdint.h>

/* h (PROD_WORDS words) = f*g by the two-moduli CRT; twomod_init sets up the second instance
   (the first instance's fafft_init calls it) */
void twomod_product(uint32_t *h, const uint32_t *f, const uint32_t *g);
void twomod_init(void);
#endif
