/* Word-array kernels of the CRT reconstruction (docs/fafft.md sec. 9.4) on the Cortex-M4.
   Fixed loops whose trip counts are public sizes; no address depends on the data. */
    .syntax unified
    .thumb
    .text

/* void shl_words_m4(uint32_t *dst, const uint32_t *src, uint32_t n, uint32_t r):
   dst[0..n] = src[0..n) * x^r (0 < r < 32, n >= 1, n % 4 == 0): dst[i] = src[i] << r |
   src[i-1] >> (32 - r) with src[-1] = 0, and dst[n] = src[n-1] >> (32 - r). */
    .global shl_words_m4
    .type shl_words_m4, %function
    .thumb_func
shl_words_m4:
    push {r4-r11, lr}
    rsb r12, r3, #32            /* 32 - r */
    movs lr, #0                 /* src[i-1] */
1:
    ldm r1!, {r4, r5, r6, r7}
    lsl r8, r4, r3
    lsr r9, lr, r12
    orr r8, r8, r9
    lsl r9, r5, r3
    lsr r10, r4, r12
    orr r9, r9, r10
    lsl r10, r6, r3
    lsr r11, r5, r12
    orr r10, r10, r11
    lsl r11, r7, r3
    lsr lr, r6, r12
    orr r11, r11, lr
    mov lr, r7
    stm r0!, {r8, r9, r10, r11}
    subs r2, r2, #4
    bne 1b
    lsr lr, lr, r12
    str lr, [r0]
    pop {r4-r11, pc}
    .size shl_words_m4, . - shl_words_m4

/* void xor3_into_m4(uint32_t *const d[3], const uint32_t *s, uint32_t n):
   d[k][0..n) ^= s[0..n) for k = 0, 1, 2 (n % 4 == 0, n >= 4): each block of four source words
   is loaded once for the three destinations. */
    .global xor3_into_m4
    .type xor3_into_m4, %function
    .thumb_func
xor3_into_m4:
    push {r4-r11, lr}
    ldm r0, {r0, r3, r12}
1:
    ldm r1!, {r4, r5, r6, r7}
    ldm r0, {r8, r9, r10, r11}
    eor r8, r8, r4
    eor r9, r9, r5
    eor r10, r10, r6
    eor r11, r11, r7
    stm r0!, {r8, r9, r10, r11}
    ldm r3, {r8, r9, r10, r11}
    eor r8, r8, r4
    eor r9, r9, r5
    eor r10, r10, r6
    eor r11, r11, r7
    stm r3!, {r8, r9, r10, r11}
    ldm r12, {r8, r9, r10, r11}
    eor r8, r8, r4
    eor r9, r9, r5
    eor r10, r10, r6
    eor r11, r11, r7
    stm r12!, {r8, r9, r10, r11}
    subs r2, r2, #4
    bne 1b
    pop {r4-r11, pc}
    .size xor3_into_m4, . - xor3_into_m4
