/* The second instance of a two-moduli build (docs/fafft.md sec. 9.8; docs/firmware-layout.md
   sec. 14), as seen from the first export's include path: the tables of twomod_defs.h and the
   functions of fafft_m2.c, whose names carry the prefix m2_ (FAFFT_NS). Included by twomod.c
   and the tests. */
#ifndef FAFFT_M2_H
#define FAFFT_M2_H
#include <stdint.h>
#include "twomod_defs.h"

#define M2_NG ((1u << TWOMOD_L2) / 32u)
#define M2_NGS (M2_NG < 32u ? 32u : M2_NG)   /* the second instance's FAFFT_NGSTORE */
#if M2_NGS != TWOMOD_W_GROUPS
#error "F2(W) table groups differ from the second instance's stored groups"
#endif

/* the second instance's fafft_vals_t (M2_NGS groups of 32 words) and the functions used */
typedef struct { uint32_t g[M2_NGS][32]; } m2_vals_t;
void m2_fafft_init(void);
void m2_fafft_forward(m2_vals_t *out, const uint32_t *f, unsigned fwords, uint32_t *buf);
void m2_fafft_inverse(uint32_t *h, m2_vals_t *v);
void m2_fafft_pointwise3(m2_vals_t *out, const m2_vals_t *a, const m2_vals_t *b);
#endif
