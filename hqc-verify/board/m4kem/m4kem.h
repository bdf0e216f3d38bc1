/* C ABI of the m4kem staticlib (src/lib.rs): HQC 2025-08 KEM (HQC-1/3/5) on Cortex-M4.
 *
 * level: 1, 3 or 5.  flavour: 0 = v5.0.0, 1 = 2026-02 (post-v5.0.0 sampling update).
 * Every function returns a negative M4KEM_E_* code on bad arguments, else >= 0.
 * Buffer sizes per level (bytes): pk 2241/4514/7237, sk 2321/4602/7333, ct 4433/8978/14421,
 * k (message) 16/24/32; ss and digests are 32 bytes, KAT seeds 48, salt 16. */
#ifndef M4KEM_H
#define M4KEM_H
#include <stdint.h>

#define M4KEM_E_LEVEL   (-1)
#define M4KEM_E_FLAVOUR (-2)
#define M4KEM_E_NULL    (-3)
#define M4KEM_E_MULDEG  (-4)   /* the multiplier was built for another ring degree */
#define M4KEM_E_LENGTH  (-5)

#define M4KEM_MAX_PK 7237
#define M4KEM_MAX_SK 7333
#define M4KEM_MAX_CT 14421
#define M4KEM_MAX_K  32

/* one-time multiplier set-up (C FAFFT tables with c-fafft); optional, done on first use */
void m4kem_init(void);
int32_t m4kem_sizes(uint32_t level, uint32_t *pk, uint32_t *sk, uint32_t *ct, uint32_t *k);
/* seeds of KAT entries first .. first+count-1 (48 bytes each) from the outer PRNG */
int32_t m4kem_kat_seeds(uint32_t first, uint32_t count, uint8_t *out);
/* seed_kem (32), m (k), salt (16) of one entry, drawn from its seed as the KAT generator does */
int32_t m4kem_kat_randomness(uint32_t level, const uint8_t *seed48, uint8_t *seed_kem, uint8_t *m,
                             uint8_t *salt);
int32_t m4kem_keygen(uint32_t level, uint32_t flavour, const uint8_t *seed_kem, uint8_t *pk, uint8_t *sk);
int32_t m4kem_encaps(uint32_t level, uint32_t flavour, const uint8_t *pk, const uint8_t *m,
                     const uint8_t *salt, uint8_t *ct, uint8_t *ss);
int32_t m4kem_decaps(uint32_t level, uint32_t flavour, const uint8_t *sk, const uint8_t *ct, uint8_t *ss);
/* out = SHA3-256(pk || sk || ct || ss) */
int32_t m4kem_entry_digest(uint32_t level, const uint8_t *pk, const uint8_t *sk, const uint8_t *ct,
                           const uint8_t *ss, uint8_t *out);
/* one KAT entry from its seed: out_digest = SHA3-256(pk || sk || ct || ss);
   returns 1 if Decaps reproduced ss, 0 if not, < 0 on error */
int32_t hqc_kat_entry(uint32_t level, uint32_t flavour, const uint8_t *seed48, uint8_t *out_digest);
/* "portable" or "c-fafft" */
const char *m4kem_multiplier_name(void);
/* "bm" or "eea": the Reed-Solomon decoder of this build (cargo feature eea) */
const char *m4kem_decoder_name(void);
/* 1 when built with the profiling markers (cargo feature profile), else 0 */
uint32_t m4kem_profiled(void);
/* region-discipline violations of the profiling probe so far (0 without the feature) */
uint32_t m4kem_probe_violations(void);

/* support expansion (src/expand.rs): the expansion in use against the portable reference on
   seeded supports of HQC-1/3/5 (returns the number of mismatches); words64 of a level; a fixed
   support of `weight` positions; one expansion (reference = 0: the one in use, 1: the
   portable reference) */
uint32_t m4kem_expand_selftest(uint32_t seed, uint32_t trials);
uint32_t m4kem_expand_words(uint32_t level);
int32_t m4kem_expand_prepare(uint32_t level, uint32_t weight, uint32_t *sup);
int32_t m4kem_expand_once(uint32_t level, uint32_t reference, const uint32_t *sup, uint32_t weight,
                          uint64_t *out);

/* Keccak (src/keccak.rs): the permutation and sponge in use against the portable ones (returns
   the number of mismatches); a fixed interleaved state (50 words); one permutation of it
   (which = 0: the one in use, 1: the portable one with the interleaving, 2: the portable one
   alone on the words as 25 lanes; state 8-byte aligned) */
uint32_t m4kem_keccak_selftest(uint32_t seed, uint32_t trials);
int32_t m4kem_keccak_prepare(uint32_t *state);
int32_t m4kem_keccak_once(uint32_t which, uint32_t *state);

/* key caching (src/cache.rs, only with the m4kem feature cache: build.sh FEATURES=cache): Encaps / Decaps through the level's static key cache (same
   results as m4kem_encaps / m4kem_decaps); its RAM (bytes of the cache object, bytes of one C
   transform slot, slots held on a hit) and hit/miss counts */
int32_t m4kem_encaps_cached(uint32_t level, uint32_t flavour, const uint8_t *pk, const uint8_t *m,
                            const uint8_t *salt, uint8_t *ct, uint8_t *ss);
int32_t m4kem_decaps_cached(uint32_t level, uint32_t flavour, const uint8_t *sk, const uint8_t *ct,
                            uint8_t *ss);
int32_t m4kem_cache_info(uint32_t level, uint32_t *bytes, uint32_t *slot_bytes, uint32_t *slots,
                         uint32_t *hits, uint32_t *misses);

/* provided by the C side: called by the Rust panic handler, must not return */
void m4kem_panic(void) __attribute__((noreturn));
#endif
