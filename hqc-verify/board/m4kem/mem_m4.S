@ memcpy and memset for the Cortex-M4 (Thumb-2), linked into every m4kem ELF by build.sh
@ (docs/board.md section 16, "Copies and clears"). They replace the weak definitions of the
@ Rust compiler_builtins (memcpy, memset, __aeabi_memcpy*, __aeabi_memset*, __aeabi_memclr*),
@ whose copy loop moves one word per load/store pair (about 1.25 estimated cycles per byte
@ with both pointers aligned, 4 or more when the source and destination alignments differ).
@
@ memcpy: bytes until the destination is word aligned; then, with the source aligned too,
@ LDM/STM of eight words (32 bytes in 18 cycles plus the loop's 4); with a source k = 1..3
@ bytes off, aligned words read by LDM of four and joined by shifts (word i of the output =
@ (w[i] >> 8k) | (w[i+1] << (32 - 8k))), which reads only aligned words holding at least one
@ source byte; the rest by words and bytes. memset: bytes until aligned, STM of eight words,
@ then words and bytes. Every branch depends on the pointers and the length only, never on
@ the data. No unaligned access is made.
@
@   void *memcpy(void *dst, const void *src, size_t n);      (also __aeabi_memcpy, 4, 8)
@   void *memset(void *dst, int c, size_t n);
@   void __aeabi_memset(void *dst, size_t n, int c);          (also 4, 8)
@   void __aeabi_memclr(void *dst, size_t n);                 (also 4, 8)
@
@ Stack: 32 bytes (memcpy), 24 (memset). m4kem_mem_selftest (harness.c) checks them against
@ byte loops over every pair of alignments and many lengths.

    .syntax unified
    .thumb
    .text

@ The shifted copy of memcpy: the source k bytes past the aligned address r1 (after the
@ first load), the destination ip aligned, r2 bytes left; ends at the byte tail.
    .macro SHIFTED k
    ldr     r3, [r1], #4                @ the aligned word holding the next source byte
    subs    r2, r2, #16
    blo     2f
1:  ldmia   r1!, {r4-r7}
    lsr     r3, r3, #(8 * \k)
    orr     r3, r3, r4, lsl #(32 - 8 * \k)
    lsr     r4, r4, #(8 * \k)
    orr     r4, r4, r5, lsl #(32 - 8 * \k)
    lsr     r5, r5, #(8 * \k)
    orr     r5, r5, r6, lsl #(32 - 8 * \k)
    lsr     r6, r6, #(8 * \k)
    orr     r6, r6, r7, lsl #(32 - 8 * \k)
    stmia   ip!, {r3-r6}
    mov     r3, r7
    subs    r2, r2, #16
    bhs     1b
2:  adds    r2, r2, #16
    sub     r1, r1, #(4 - \k)           @ back to the next source byte
    b       .Lcp_tail
    .endm

    .global memcpy
    .global __aeabi_memcpy
    .global __aeabi_memcpy4
    .global __aeabi_memcpy8
    .type memcpy, %function
    .type __aeabi_memcpy, %function
    .type __aeabi_memcpy4, %function
    .type __aeabi_memcpy8, %function
    .thumb_func
memcpy:
    .thumb_func
__aeabi_memcpy:
    .thumb_func
__aeabi_memcpy4:
    .thumb_func
__aeabi_memcpy8:
    mov     ip, r0
    cmp     r2, #16
    bhs     .Lcp_big
    cbz     r2, 2f
1:  ldrb    r3, [r1], #1
    strb    r3, [ip], #1
    subs    r2, r2, #1
    bne     1b
2:  bx      lr

.Lcp_big:
    push    {r0, r4-r9, lr}
    rsb     r3, r0, #0
    ands    r3, r3, #3                  @ bytes until the destination is aligned
    beq     .Lcp_dst_aligned
    sub     r2, r2, r3
1:  ldrb    r4, [r1], #1
    strb    r4, [ip], #1
    subs    r3, r3, #1
    bne     1b
.Lcp_dst_aligned:
    ands    r3, r1, #3
    bne     .Lcp_shifted
    subs    r2, r2, #32
    blo     2f
1:  ldmia   r1!, {r3-r9, lr}
    stmia   ip!, {r3-r9, lr}
    subs    r2, r2, #32
    bhs     1b
2:  adds    r2, r2, #32
.Lcp_words:
    subs    r2, r2, #4
    blo     2f
1:  ldr     r3, [r1], #4
    str     r3, [ip], #4
    subs    r2, r2, #4
    bhs     1b
2:  adds    r2, r2, #4
.Lcp_tail:
    cbz     r2, 2f
1:  ldrb    r3, [r1], #1
    strb    r3, [ip], #1
    subs    r2, r2, #1
    bne     1b
2:  pop     {r0, r4-r9, pc}

@ the source k bytes past an aligned address (k = r3 = 1..3), the destination aligned, r2 >= 13
.Lcp_shifted:
    bic     r1, r1, #3
    cmp     r3, #2
    beq     .Lcp_k2
    bhi     .Lcp_k3
    SHIFTED 1
.Lcp_k2:
    SHIFTED 2
.Lcp_k3:
    SHIFTED 3

    .size memcpy, . - memcpy

    .global memset
    .global __aeabi_memset
    .global __aeabi_memset4
    .global __aeabi_memset8
    .global __aeabi_memclr
    .global __aeabi_memclr4
    .global __aeabi_memclr8
    .type memset, %function
    .type __aeabi_memset, %function
    .type __aeabi_memset4, %function
    .type __aeabi_memset8, %function
    .type __aeabi_memclr, %function
    .type __aeabi_memclr4, %function
    .type __aeabi_memclr8, %function
    .thumb_func
__aeabi_memclr:
    .thumb_func
__aeabi_memclr4:
    .thumb_func
__aeabi_memclr8:
    movs    r2, #0
    .thumb_func
__aeabi_memset:
    .thumb_func
__aeabi_memset4:
    .thumb_func
__aeabi_memset8:
    mov     r3, r1                      @ (dst, n, c) -> (dst, c, n)
    mov     r1, r2
    mov     r2, r3
    .thumb_func
memset:
    mov     ip, r0
    and     r1, r1, #0xff
    orr     r1, r1, r1, lsl #8
    orr     r1, r1, r1, lsl #16
    cmp     r2, #16
    blo     .Lset_tail
    push    {r4-r9}
    rsb     r3, r0, #0
    ands    r3, r3, #3
    beq     .Lset_aligned
    sub     r2, r2, r3
1:  strb    r1, [ip], #1
    subs    r3, r3, #1
    bne     1b
.Lset_aligned:
    mov     r3, r1
    mov     r4, r1
    mov     r5, r1
    mov     r6, r1
    mov     r7, r1
    mov     r8, r1
    mov     r9, r1
    subs    r2, r2, #32
    blo     2f
1:  stmia   ip!, {r1, r3-r9}
    subs    r2, r2, #32
    bhs     1b
2:  adds    r2, r2, #32
    subs    r2, r2, #4
    blo     2f
1:  str     r1, [ip], #4
    subs    r2, r2, #4
    bhs     1b
2:  adds    r2, r2, #4
    pop     {r4-r9}
.Lset_tail:
    cbz     r2, 2f
1:  strb    r1, [ip], #1
    subs    r2, r2, #1
    bne     1b
2:  bx      lr
    .size memset, . - memset
