/* Layout A <-> B of the butterflies (docs/fafft.md sec. 6): the 32x32 bit transposition of
   the words p[32 b] (b = 0..31), the same five SWAPMOVE levels as transpose32_strided in
   fafft.c (x[r] bit c <-> x[c] bit r), on the Cortex-M4:
   pass 1, per i = 0..7: rows i, i+8, i+16, i+24 from the groups, level 16 by PKHBT/PKHTB,
   level 8 by SWAPMOVE, into a stack block y[4 i + q] = x[i + 8 q] with one STM;
   pass 2, per j = 0..3: rows 8j..8j+7 (y[4 k + j]), levels 4, 2, 1, back to the groups.
   SWAPMOVE(a, b, s, m): t = (b ^ (a >> s)) & m, b ^= t, a ^= t << s (4 instructions).
   Fixed addresses, no branch on data (the loop count is public). */
    .syntax unified
    .thumb
    .text

.macro SWAPMOVE a, b, s, m
    eor r12, \b, \a, lsr #\s
    and r12, r12, #\m
    eor \b, \b, r12
    eor \a, \a, r12, lsl #\s
.endm

.macro PASS1 i
    ldr r4, [r0, #(128 * \i)]
    ldr r5, [r0, #(128 * (\i + 8))]
    ldr r8, [r0, #(128 * (\i + 16))]
    ldr r9, [r0, #(128 * (\i + 24))]
    pkhtb r6, r8, r4, asr #16
    pkhbt r4, r4, r8, lsl #16
    pkhtb r7, r9, r5, asr #16
    pkhbt r5, r5, r9, lsl #16
    SWAPMOVE r4, r5, 8, 0x00ff00ff
    SWAPMOVE r6, r7, 8, 0x00ff00ff
    stm r1!, {r4, r5, r6, r7}
.endm

.macro PASS2 j
    ldr r4, [sp, #(4 * \j)]
    ldr r5, [sp, #(16 + 4 * \j)]
    ldr r6, [sp, #(32 + 4 * \j)]
    ldr r7, [sp, #(48 + 4 * \j)]
    ldr r8, [sp, #(64 + 4 * \j)]
    ldr r9, [sp, #(80 + 4 * \j)]
    ldr r10, [sp, #(96 + 4 * \j)]
    ldr r11, [sp, #(112 + 4 * \j)]
    SWAPMOVE r4, r8, 4, 0x0f0f0f0f
    SWAPMOVE r5, r9, 4, 0x0f0f0f0f
    SWAPMOVE r6, r10, 4, 0x0f0f0f0f
    SWAPMOVE r7, r11, 4, 0x0f0f0f0f
    SWAPMOVE r4, r6, 2, 0x33333333
    SWAPMOVE r5, r7, 2, 0x33333333
    SWAPMOVE r8, r10, 2, 0x33333333
    SWAPMOVE r9, r11, 2, 0x33333333
    SWAPMOVE r4, r5, 1, 0x55555555
    SWAPMOVE r6, r7, 1, 0x55555555
    SWAPMOVE r8, r9, 1, 0x55555555
    SWAPMOVE r10, r11, 1, 0x55555555
    str r4, [r0, #(1024 * \j)]
    str r5, [r0, #(1024 * \j + 128)]
    str r6, [r0, #(1024 * \j + 256)]
    str r7, [r0, #(1024 * \j + 384)]
    str r8, [r0, #(1024 * \j + 512)]
    str r9, [r0, #(1024 * \j + 640)]
    str r10, [r0, #(1024 * \j + 768)]
    str r11, [r0, #(1024 * \j + 896)]
.endm

/* void transpose32_m4(uint32_t *p, uint32_t count): for c = 0 .. count-1 (count >= 1), the
   transposition of the words p[c + 32 b], b = 0..31 (one block of 32 groups of 32 words). */
    .global transpose32_m4
    .type transpose32_m4, %function
    .thumb_func
transpose32_m4:
    push {r4-r11, lr}
    sub sp, sp, #128
    mov lr, r1
1:
    mov r1, sp
    PASS1 0
    PASS1 1
    PASS1 2
    PASS1 3
    PASS1 4
    PASS1 5
    PASS1 6
    PASS1 7
    PASS2 0
    PASS2 1
    PASS2 2
    PASS2 3
    adds r0, r0, #4
    subs lr, lr, #1
    bne 1b
    add sp, sp, #128
    pop {r4-r11, pc}
    .size transpose32_m4, . - transpose32_m4
