/* Word-level XOR of bit vectors (GF(2) addition): dst ^= src on n words, fixed 8 and 32
   words, and the forward butterfly's fused pair, with LDM/EOR/STM on the M4.
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ word helpers */
/* dst[0..n) ^= src[0..n); on the M4 eight words per iteration with LDM/STM */
static inline void xor_into(uint32_t *dst, const uint32_t *src, unsigned n)
{
#if defined(__arm__) && !defined(HOST_BUILD)
    unsigned q = n >> 3;
    if (q) {
        __asm__ volatile(
            "1:\n\t"
            "ldmia %[s]!, {r4, r5, r6, r7}\n\t"
            "ldmia %[d], {r8, r9, r10, r11}\n\t"
            "eor r8, r8, r4\n\t"
            "eor r9, r9, r5\n\t"
            "eor r10, r10, r6\n\t"
            "eor r11, r11, r7\n\t"
            "stmia %[d]!, {r8, r9, r10, r11}\n\t"
            "ldmia %[s]!, {r4, r5, r6, r7}\n\t"
            "ldmia %[d], {r8, r9, r10, r11}\n\t"
            "eor r8, r8, r4\n\t"
            "eor r9, r9, r5\n\t"
            "eor r10, r10, r6\n\t"
            "eor r11, r11, r7\n\t"
            "stmia %[d]!, {r8, r9, r10, r11}\n\t"
            "subs %[q], %[q], #1\n\t"
            "bne 1b\n\t"
            : [s] "+r"(src), [d] "+r"(dst), [q] "+r"(q)
            :
            : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "cc", "memory");
    }
    n &= 7;
#endif
    for (unsigned i = 0; i < n; i++) dst[i] ^= src[i];
}

/* fixed sizes, unrolled (no loop, no size dispatch): dst[0..8) ^= src[0..8) and
   dst[0..32) ^= src[0..32); on the M4 LDM/EOR/STM with four words per LDM */
#if defined(__arm__) && !defined(HOST_BUILD)
#define XOR4_STEP                                   \
    "ldmia %[s]!, {r4, r5, r6, r7}\n\t"             \
    "ldmia %[d], {r8, r9, r10, r11}\n\t"            \
    "eor r8, r8, r4\n\t"                            \
    "eor r9, r9, r5\n\t"                            \
    "eor r10, r10, r6\n\t"                          \
    "eor r11, r11, r7\n\t"                          \
    "stmia %[d]!, {r8, r9, r10, r11}\n\t"
static inline void xor8(uint32_t *dst, const uint32_t *src)
{
    __asm__ volatile(XOR4_STEP XOR4_STEP
                     : [s] "+r"(src), [d] "+r"(dst)
                     :
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "memory");
}
static inline void xor32(uint32_t *dst, const uint32_t *src)
{
    __asm__ volatile(XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP XOR4_STEP
                     : [s] "+r"(src), [d] "+r"(dst)
                     :
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "memory");
}
/* the forward butterfly's two passes in one: X ^= t, then Y ^= X (32 words each) */
#define XOR2_STEP                                   \
    "ldmia %[t]!, {r4, r5, r6, r7}\n\t"             \
    "ldmia %[x], {r8, r9, r10, r11}\n\t"            \
    "eor r8, r8, r4\n\t"                            \
    "eor r9, r9, r5\n\t"                            \
    "eor r10, r10, r6\n\t"                          \
    "eor r11, r11, r7\n\t"                          \
    "stmia %[x]!, {r8, r9, r10, r11}\n\t"           \
    "ldmia %[y], {r4, r5, r6, r7}\n\t"              \
    "eor r4, r4, r8\n\t"                            \
    "eor r5, r5, r9\n\t"                            \
    "eor r6, r6, r10\n\t"                           \
    "eor r7, r7, r11\n\t"                           \
    "stmia %[y]!, {r4, r5, r6, r7}\n\t"
static inline void xor32_fused(uint32_t *x, uint32_t *y, const uint32_t *t)
{
    __asm__ volatile(XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP XOR2_STEP
                     : [t] "+r"(t), [x] "+r"(x), [y] "+r"(y)
                     :
                     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "memory");
}
#else
static inline void xor8(uint32_t *dst, const uint32_t *src) { xor_into(dst, src, 8); }
static inline void xor32(uint32_t *dst, const uint32_t *src) { xor_into(dst, src, 32); }
static inline void xor32_fused(uint32_t *x, uint32_t *y, const uint32_t *t)
{
    for (unsigned i = 0; i < 32; i++) {
        x[i] ^= t[i];
        y[i] ^= x[i];
    }
}
#endif

void FAFFT_NS(fafft_xor_words)(uint32_t *dst, const uint32_t *src, unsigned n) { xor_into(dst, src, n); }
