/* HQC-PKE (docs/hqc.md section 7). */
#ifndef HQC_PKE_H
#define HQC_PKE_H
#include <stdint.h>
#include "hqc_params.h"

/* ek = seed_ek || s; writes seed_dk */
void hqc_pke_keygen(uint8_t *ek, uint8_t seed_dk[32], const uint8_t seed_pke[32]);
/* ct[0 .. BYTES) = u, ct[BYTES .. BYTES + V_BYTES) = v */
void hqc_pke_encrypt(uint8_t *ct, const uint8_t *ek, const uint8_t *m, const uint8_t theta[32]);
void hqc_pke_decrypt(uint8_t *m, const uint8_t seed_dk[32], const uint8_t *ct);
#endif
