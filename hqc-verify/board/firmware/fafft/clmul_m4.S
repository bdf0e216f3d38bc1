/* Carry-less products on the Cortex-M4 (docs/fafft.md sec. 9.10): the 32x32 -> 64 product
   from integer multiplies and the 64x64 -> 128 Karatsuba leaf of clmul_full / clmul_low.
   Straight-line code: no branch, no address depends on the data (constant time).

   CLMUL32: r0 = a, r1 = b  ->  r1:r0 = a * b over GF(2); clobbers r2-r12, lr.
   Split both operands into the four residue classes of bit positions mod 4; a class-i by
   class-j integer product has at most 8 terms per output position, and positions of one class
   are 4 apart, so no carry reaches the next position of the same class; keep class (i+j) mod 4
   of the sum of the four products of each class (8 AND, 16 UMULL, 24 EOR, 8 AND, 6 ORR). */
    .syntax unified
    .thumb
    .text

.macro CLMUL32
    and r2, r0, #0x11111111
    and r3, r0, #0x22222222
    and r4, r0, #0x44444444
    and r5, r0, #0x88888888
    and r6, r1, #0x11111111
    and r7, r1, #0x22222222
    and r8, r1, #0x44444444
    and r9, r1, #0x88888888
    /* class 0: a0b0 a1b3 a2b2 a3b1 */
    umull r10, r11, r2, r6
    umull r12, lr, r3, r9
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r4, r8
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r5, r7
    eor r10, r10, r12
    eor r11, r11, lr
    and r0, r10, #0x11111111
    and r1, r11, #0x11111111
    /* class 1: a0b1 a1b0 a2b3 a3b2 */
    umull r10, r11, r2, r7
    umull r12, lr, r3, r6
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r4, r9
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r5, r8
    eor r10, r10, r12
    eor r11, r11, lr
    and r10, r10, #0x22222222
    and r11, r11, #0x22222222
    orr r0, r0, r10
    orr r1, r1, r11
    /* class 2: a0b2 a1b1 a2b0 a3b3 */
    umull r10, r11, r2, r8
    umull r12, lr, r3, r7
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r4, r6
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r5, r9
    eor r10, r10, r12
    eor r11, r11, lr
    and r10, r10, #0x44444444
    and r11, r11, #0x44444444
    orr r0, r0, r10
    orr r1, r1, r11
    /* class 3: a0b3 a1b2 a2b1 a3b0 */
    umull r10, r11, r2, r9
    umull r12, lr, r3, r8
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r4, r7
    eor r10, r10, r12
    eor r11, r11, lr
    umull r12, lr, r5, r6
    eor r10, r10, r12
    eor r11, r11, lr
    and r10, r10, #0x88888888
    and r11, r11, #0x88888888
    orr r0, r0, r10
    orr r1, r1, r11
.endm

/* uint64_t clmul32_m4(uint32_t a, uint32_t b): AAPCS, result in r1:r0 */
    .global clmul32_m4
    .type clmul32_m4, %function
    .thumb_func
clmul32_m4:
    push {r4-r11, lr}
    CLMUL32
    pop {r4-r11, pc}
    .size clmul32_m4, . - clmul32_m4

/* KARA2: the body of clmul_kara2_m4: r0 = r, r1 = a, r2 = b, a 20-byte scratch frame at sp;
   clobbers r0-r12, lr */
.macro KARA2
    ldrd r4, r5, [r1]
    ldrd r6, r7, [r2]
    str r0, [sp]
    eor r8, r4, r5
    eor r9, r6, r7
    strd r5, r7, [sp, #4]
    strd r8, r9, [sp, #12]
    mov r0, r4
    mov r1, r6
    CLMUL32                     /* p0 */
    ldr r2, [sp]
    strd r0, r1, [r2]
    ldrd r0, r1, [sp, #4]
    CLMUL32                     /* p1 */
    ldr r2, [sp]
    strd r0, r1, [r2, #8]
    ldrd r0, r1, [sp, #12]
    CLMUL32                     /* pm */
    ldr r2, [sp]
    ldm r2, {r3, r4, r5, r6}    /* p0.lo p0.hi p1.lo p1.hi */
    eor r7, r4, r5
    eor r0, r0, r3
    eor r0, r0, r7
    eor r1, r1, r6
    eor r1, r1, r7
    strd r0, r1, [r2, #4]
.endm

/* void clmul_kara2_m4(uint32_t r[4], const uint32_t a[2], const uint32_t b[2]):
   r = a * b (2 x 2 words) by Karatsuba, three CLMUL32 in one frame:
   p0 = a0 b0, p1 = a1 b1, pm = (a0 + a1)(b0 + b1);
   r = p0 + x^32 (pm + p0 + p1) + x^64 p1, with mid = p0.hi + p1.lo:
   r0 = p0.lo, r1 = pm.lo + p0.lo + mid, r2 = pm.hi + p1.hi + mid, r3 = p1.hi.
   Stack frame: [sp] = r, [sp+4] a1, [sp+8] b1, [sp+12] a0 + a1, [sp+16] b0 + b1. */
    .global clmul_kara2_m4
    .type clmul_kara2_m4, %function
    .thumb_func
clmul_kara2_m4:
    push {r4-r11, lr}
    sub sp, sp, #20
    KARA2
    add sp, sp, #20
    pop {r4-r11, pc}
    .size clmul_kara2_m4, . - clmul_kara2_m4

/* void kara_combine_m4(uint32_t *r, const uint32_t *m, uint32_t h): the Karatsuba
   recombination of kara_full on n = 2h words (h even, h >= 2), r = (L, M1, H1, H2) holding
   a0 b0 = (L, M1) and a1 b1 = (H1, H2) in quarters of h words, m = (m0, m1) the middle
   product (a0 + a1)(b0 + b1):  r += x^(32h) (m + a0 b0 + a1 b1), i.e. with t = M1 + H1:
   M1 = m0 + L + t, H1 = m1 + H2 + t.  One pass, two words of each quarter per iteration
   (LDM/STM with write-back); the same result as the three xor_into passes. */
    .global kara_combine_m4
    .type kara_combine_m4, %function
    .thumb_func
kara_combine_m4:
    push {r4-r11, lr}
    lsl r2, r2, #2              /* h in bytes */
    add r3, r0, r2              /* M1 */
    add r4, r3, r2              /* H1 */
    add r5, r4, r2              /* H2 */
    add r6, r1, r2              /* m1 */
    mov lr, r3                  /* end of L */
1:
    ldm r3, {r7, r8}            /* M1 */
    ldm r4, {r9, r10}           /* H1 */
    eor r7, r7, r9
    eor r8, r8, r10             /* t */
    ldm r0!, {r9, r10}          /* L */
    ldm r1!, {r11, r12}         /* m0 */
    eor r9, r9, r7
    eor r10, r10, r8
    eor r9, r9, r11
    eor r10, r10, r12
    stm r3!, {r9, r10}
    ldm r5!, {r9, r10}          /* H2 */
    ldm r6!, {r11, r12}         /* m1 */
    eor r9, r9, r7
    eor r10, r10, r8
    eor r9, r9, r11
    eor r10, r10, r12
    stm r4!, {r9, r10}
    cmp r0, lr
    bne 1b
    pop {r4-r11, pc}
    .size kara_combine_m4, . - kara_combine_m4

/* void clmul_kara4_m4(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]): r = a * b
   (4 x 4 words), one Karatsuba level over three inline KARA2 bodies (one frame, no calls):
   m = (a0 + a1)(b0 + b1), r = (a0 b0, a1 b1), then the recombination of kara_combine_m4 for
   h = 2 (t = M1 + H1, M1 = m0 + L + t, H1 = m1 + H2 + t). Frame: [sp] KARA2 scratch (20 bytes),
   [sp+20] r, [sp+24] a, [sp+28] b, [sp+32] a0 + a1, [sp+40] b0 + b1, [sp+48] m. */
    .global clmul_kara4_m4
    .type clmul_kara4_m4, %function
    .thumb_func
clmul_kara4_m4:
    push {r4-r11, lr}
    sub sp, sp, #64
    add r3, sp, #20
    stm r3, {r0, r1, r2}
    ldrd r4, r5, [r1]
    ldrd r6, r7, [r1, #8]
    eor r4, r4, r6
    eor r5, r5, r7
    strd r4, r5, [sp, #32]
    ldrd r4, r5, [r2]
    ldrd r6, r7, [r2, #8]
    eor r4, r4, r6
    eor r5, r5, r7
    strd r4, r5, [sp, #40]
    add r0, sp, #48
    add r1, sp, #32
    add r2, sp, #40
    KARA2                       /* m */
    add r3, sp, #20
    ldm r3, {r0, r1, r2}
    KARA2                       /* a0 b0 -> r[0..4) */
    add r3, sp, #20
    ldm r3, {r0, r1, r2}
    add r0, r0, #16
    add r1, r1, #8
    add r2, r2, #8
    KARA2                       /* a1 b1 -> r[4..8) */
    ldr r4, [sp, #20]
    ldrd r0, r1, [r4, #8]       /* M1 */
    ldrd r2, r3, [r4, #16]      /* H1 */
    eor r0, r0, r2
    eor r1, r1, r3              /* t */
    ldrd r2, r3, [r4]           /* L */
    ldrd r5, r6, [sp, #48]      /* m0 */
    eor r2, r2, r0
    eor r3, r3, r1
    eor r2, r2, r5
    eor r3, r3, r6
    strd r2, r3, [r4, #8]
    ldrd r2, r3, [r4, #24]      /* H2 */
    ldrd r5, r6, [sp, #56]      /* m1 */
    eor r2, r2, r0
    eor r3, r3, r1
    eor r2, r2, r5
    eor r3, r3, r6
    strd r2, r3, [r4, #16]
    add sp, sp, #64
    pop {r4-r11, pc}
    .size clmul_kara4_m4, . - clmul_kara4_m4
