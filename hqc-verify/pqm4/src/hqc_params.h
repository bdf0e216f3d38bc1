/* HQC 2025-08 parameter sets (docs/hqc.md section 3) and derived sizes. The level and the
 * KAT flavour come from hqc_config.h, which `hqc-verify package` writes for each package. */
#ifndef HQC_PARAMS_H
#define HQC_PARAMS_H
#include "hqc_config.h"

#if HQC_LEVEL == 1
#define HQC_PN 17669u
#define HQC_N1 46u
#define HQC_K 16u
#define HQC_DELTA 15u
#define HQC_MULT 3u
#define HQC_W 66u
#define HQC_WR 75u
#define HQC_WE 75u
#define HQC_G_INIT { 89, 69, 153, 116, 176, 117, 111, 75, 73, 233, 242, 233, 65, 210, 21, 139, \
    103, 173, 67, 118, 105, 210, 174, 110, 74, 69, 228, 82, 255, 181, 1 }
#elif HQC_LEVEL == 3
#define HQC_PN 35851u
#define HQC_N1 56u
#define HQC_K 24u
#define HQC_DELTA 16u
#define HQC_MULT 5u
#define HQC_W 100u
#define HQC_WR 114u
#define HQC_WE 114u
#define HQC_G_INIT { 45, 216, 239, 24, 253, 104, 27, 40, 107, 50, 163, 210, 227, 134, 224, 158, \
    119, 13, 158, 1, 238, 164, 82, 43, 15, 232, 246, 142, 50, 189, 29, 232, 1 }
#elif HQC_LEVEL == 5
#define HQC_PN 57637u
#define HQC_N1 90u
#define HQC_K 32u
#define HQC_DELTA 29u
#define HQC_MULT 5u
#define HQC_W 131u
#define HQC_WR 149u
#define HQC_WE 149u
#define HQC_G_INIT { 49, 167, 49, 39, 200, 121, 124, 91, 240, 63, 148, 71, 150, 123, 87, 101, \
    32, 215, 159, 71, 201, 115, 97, 210, 186, 183, 141, 217, 123, 12, 31, 243, 180, 219, 152, \
    239, 99, 141, 4, 246, 191, 144, 8, 232, 47, 27, 141, 178, 130, 64, 124, 47, 39, 188, 216, \
    48, 199, 187, 1 }
#else
#error "HQC_LEVEL must be 1, 3 or 5"
#endif

#define HQC_SEED_BYTES 32u
#define HQC_SALT_BYTES 16u
#define HQC_SS_BYTES 32u
#define HQC_N2 (128u * HQC_MULT)                       /* duplicated RM(1,7) length */
#define HQC_T (2u * HQC_DELTA)                         /* RS parity bytes */
#define HQC_BYTES ((HQC_PN + 7u) / 8u)                 /* a ring element, serialized */
#define HQC_WORDS64 ((HQC_PN + 63u) / 64u)
#define HQC_PWORDS (2u * HQC_WORDS64)                  /* a ring element in 32-bit words */
#define HQC_V_WORDS (HQC_N1 * HQC_N2 / 32u)            /* n1 n2 bits in 32-bit words */
#define HQC_V_BYTES (HQC_N1 * HQC_N2 / 8u)
#define HQC_PAD_BITS (8u * HQC_BYTES - HQC_PN)
#define HQC_EK_BYTES (HQC_SEED_BYTES + HQC_BYTES)
#define HQC_DK_BYTES (HQC_EK_BYTES + HQC_SEED_BYTES + HQC_K + HQC_SEED_BYTES)
#define HQC_CT_BYTES (HQC_BYTES + HQC_V_BYTES + HQC_SALT_BYTES)
/* 24-bit rejection threshold floor(2^24 / n) n and Barrett constant floor(2^32 / n) */
#define HQC_REJECT ((((uint32_t)1 << 24) / HQC_PN) * HQC_PN)
#define HQC_BARRETT_MU ((uint32_t)(((uint64_t)1 << 32) / HQC_PN))
#define HQC_MAX_W (HQC_WR > HQC_W ? HQC_WR : HQC_W)

#endif
