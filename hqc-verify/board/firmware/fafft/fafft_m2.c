/* The second modulus of a two-moduli export (docs/fafft.md sec. 9.8; docs/firmware-layout.md
 * sec. 14): the same stages as fafft.c, compiled once with the export's second/ folder on the
 * include path. Its external names carry the prefix m2_ (FAFFT_NS), its exported Thumb-2
 * routines are assembled under m2_ names (Makefile), and its stage labels start with "m2.";
 * twomod.c calls it through fafft_m2.h. */
#define FAFFT_NS(name) m2_##name
#define FAFFT_STAGE_PREFIX "m2."
#include "fafft_instance.h"
