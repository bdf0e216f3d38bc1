/* The FAFFT + CRT multiplier of the export's modulus (see fafft.h): the one instance of a
 * one-modulus export, the first of a two-moduli export (whose ring layer calls twomod.c).
 * Compiled once, with the export's folder on the include path; external names unprefixed. */
#include "fafft_instance.h"
