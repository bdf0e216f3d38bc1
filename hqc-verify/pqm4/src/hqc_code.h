/* The concatenated code (docs/hqc.md section 9): Reed-Solomon outer code over GF(2^8),
 * duplicated Reed-Muller RM(1,7) inner code. */
#ifndef HQC_CODE_H
#define HQC_CODE_H
#include <stdint.h>
#include "hqc_params.h"

/* cw[0 .. n1) = parity (2 delta bytes) || msg (k bytes) */
void hqc_rs_encode(uint8_t *cw, const uint8_t *msg);
/* corrects cw in place (up to delta errors) and writes its last k bytes to msg */
void hqc_rs_decode(uint8_t *msg, uint8_t *cw);
/* out[0 .. HQC_V_WORDS) = the RM codewords of cw[0 .. n1), each repeated mult times */
void hqc_rm_encode(uint32_t *out, const uint8_t *cw);
/* cw[0 .. n1) = the decoded symbols of w[0 .. HQC_V_WORDS) */
void hqc_rm_decode(uint8_t *cw, const uint32_t *w);
#endif
