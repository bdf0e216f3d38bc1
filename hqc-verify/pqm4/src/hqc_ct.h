/* Constant-time helpers: masks are all-ones or zero words made by arithmetic only, so no
 * branch or memory index depends on the values compared (docs/hqc.md section 15). */
#ifndef HQC_CT_H
#define HQC_CT_H
#include <stddef.h>
#include <stdint.h>

/* keeps the compiler from turning a mask back into a branch */
static inline uint32_t hqc_barrier(uint32_t x)
{
    __asm__ volatile("" : "+r"(x));
    return x;
}

/* all-ones iff x != 0 */
static inline uint32_t hqc_mask_nonzero(uint32_t x)
{
    return (uint32_t)0 - ((x | ((uint32_t)0 - x)) >> 31);
}

/* all-ones iff a == b */
static inline uint32_t hqc_mask_eq(uint32_t a, uint32_t b)
{
    return ~hqc_mask_nonzero(a ^ b);
}

/* all-ones iff a < b (unsigned 32-bit values) */
static inline uint32_t hqc_mask_lt(uint32_t a, uint32_t b)
{
    return (uint32_t)0 - (uint32_t)(((uint64_t)a - (uint64_t)b) >> 63);
}

/* wipes a buffer; the volatile stores are not removed as dead */
static inline void hqc_zeroize(void *p, size_t len)
{
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (len--) *v++ = 0;
}

#endif
