/* One FAFFT + CRT multiplier instance (see fafft.h): the stages in one translation unit.
 * Tables from the exporter's headers (the include path names the export's folder); the rest is
 * beta-independent. Included once, by the instance's translation unit: fafft.c (the export's
 * modulus) or fafft_m2.c (the second modulus of a two-moduli export, names prefixed m2_ by
 * FAFFT_NS). One translation unit, as one file was before, so that gcc inlines across the
 * stages as it did. Section numbers ("sec.") refer to docs/fafft.md. */
#ifndef FAFFT_INSTANCE_H
#define FAFFT_INSTANCE_H
#include <stddef.h>
#include <string.h>
#include "fafft.h"
#include "minpoly_mods_defs.h"
#include "encode_matrix_defs.h"
#include "gft_mul_s_inv_i_beta_matrix_defs.h"
#include "btfy_consts_gft.h"
#if CRT_C
#include "IL_defs.h"
#endif
#if defined(__has_include)
#if __has_include("gen_xor_programs.h") && !defined(FAFFT_NO_GEN_XOR)
#include "gen_xor_programs.h"
#endif
#endif
/* The board's transform saves s16-s31 once per layer (FP_FRAME below), so the tower kernels
   it calls leave out their own save (docs/board.md section 17.3). */
#if defined(FAFFT_ASM_ROUTINES) && !defined(HOST_BUILD)
#define FAFFT_FP_SAVED 1
#endif
#include "bs_tower_gen.h"
#include "bs_sub10.h"
/* FAFFT_STAGE_PREFIX: a string literal put before every stage label (fafft_m2.c, the second
   instance of a two-moduli build, sets "m2.") */
#ifndef FAFFT_STAGE_PREFIX
#define FAFFT_STAGE_PREFIX ""
#endif
#ifdef FAFFT_BENCH_STAGES
#include "platform.h"
#define STAGE_START() bench_start()
#define STAGE_STOP(s) BENCH_STOP(FAFFT_STAGE_PREFIX s)
#else
#define STAGE_START() ((void)0)
#define STAGE_STOP(s) ((void)0)
#endif

#define NG FAFFT_NGROUPS
#define NGS FAFFT_NGSTORE   /* stored groups (= NG for l >= 10) */

/* the stages, bottom up (each file's functions use only those of the files above it) */
#include "fafft_words.h"
#include "fafft_field.h"
#include "fafft_basis.h"
#include "fafft_encode.h"
#include "fafft_butterfly.h"
#include "fafft_pointwise.h"
#include "fafft_transform.h"
#include "fafft_residue.h"
#include "fafft_crt.h"
#include "fafft_split.h"
/* the ring layer over the products of one or two moduli */
#include "fafft_ring.h"
#endif
