@ Constant-time support expansion for the Cortex-M4 (Thumb-2), docs/hqc.md section 6.3.
@
@   void hqc_support_expand_m4(uint64_t *out, const uint32_t *support, uint32_t weight,
@                              uint32_t words64);
@
@ out[0 .. words64) = the dense vector with bit p set for every p in support[0 .. weight).
@ Preconditions (checked by the Rust caller, hqc-verify/src/core/sampling.rs): weight <= 150,
@ positions distinct; a position >= 64*words64 sets nothing.
@
@ Method. Pass 1 turns each position p into a triple (key, lo, hi): key = the address of the
@ output word of p (out + 8*(p >> 6)), lo/hi = the bit 1 << (p mod 32) in the low or high half
@ of that word (the other one zero), with shifts and masks only. The triples, padded with
@ (0xFFFFFFFF, 0, 0) to a multiple of 3, go to a table on the stack. Pass 2 builds every
@ output word from the whole table: per entry one CMP of its key with the current output
@ address and two ORRs predicated on EQ (an ITT block), so no branch and no address depends on
@ a position: the IT block issues both ORRs whatever the flags (a failed condition executes as
@ a NOP of the same length). One LDM fetches 3 entries; the body holds 4 such groups
@ (12 entries) and is entered Duff-style at the group that makes the pass count whole; the
@ entry point depends only on the public weight.
@
@ Cost per output word (G = ceil(weight/3) groups): 13 G + 2 ceil(G/4) + 8 instructions,
@ i.e. 4.33 + O(1/weight) instructions per (word, entry) step.

    .syntax unified
    .thumb
    .text

    .equ TAB_BYTES, 36 * 50            @ 50 groups of 3 entries of 12 bytes (weight <= 150)
    .equ OFF_ENTRY, TAB_BYTES          @ Duff entry address (Thumb bit set)
    .equ OFF_END, TAB_BYTES + 4        @ out + 8*words64
    .equ FRAME, TAB_BYTES + 8

    .global hqc_support_expand_m4
    .global hqc_support_expand_m4_end
    .type hqc_support_expand_m4, %function
    .thumb_func
hqc_support_expand_m4:
    push    {r3-r11, lr}               @ 40 bytes: keeps sp 8-byte aligned
    sub     sp, sp, #FRAME
    add     r12, r0, r3, lsl #3        @ out end
    str     r12, [sp, #OFF_END]
    mov     r12, r2                    @ entries in the table
    @ ---- pass 1: positions -> (lo, hi, key) triples at sp (LDM order below)
    mov     r7, sp                     @ write pointer
    movs    r8, #1
    cbz     r2, 2f
1:  ldr     r3, [r1], #4               @ p
    lsrs    r4, r3, #6
    add     r11, r0, r4, lsl #3        @ key = out + 8*(p >> 6)
    and     r5, r3, #31
    lsl     r5, r8, r5                 @ b = 1 << (p mod 32)
    ubfx    r6, r3, #5, #1
    negs    r6, r6                     @ all ones iff p mod 64 >= 32
    and     r10, r5, r6                @ hi
    bic     r9, r5, r6                 @ lo
    stmia   r7!, {r9, r10, r11}
    subs    r2, r2, #1
    bne     1b
2:  @ padding (0, 0, 0xFFFFFFFF) up to a multiple of 3 entries, at least one group; the
    @ branches depend on the public weight only
    movs    r9, #0
    movs    r10, #0
    mvn     r11, #0
    movs    r5, #3
3:  udiv    r6, r12, r5
    mls     r4, r6, r5, r12            @ entries mod 3
    cbnz    r4, 6f
    cmp     r12, #0
    bne     4f
6:  stmia   r7!, {r9, r10, r11}
    add     r12, r12, #1
    b       3b
4:  @ r7 = table end; G = entries/3 groups; Duff entry by G mod 4
    mov     r1, r7
    udiv    r6, r12, r5
    and     r6, r6, #3
    adr     r4, entries
    ldr     r4, [r4, r6, lsl #2]
    str     r4, [sp, #OFF_ENTRY]
    @ ---- pass 2: one output word (r12 = low half, lr = high half) per outer iteration.
    @ Table entry layout (as stored): lo, hi, key. LDM of 9 words: r3..r11 =
    @ lo0 hi0 key0 lo1 hi1 key1 lo2 hi2 key2.
outer:
    mov     r12, #0
    mov     lr, #0
    mov     r2, sp
    ldr     pc, [sp, #OFF_ENTRY]
    .balign 4
g0: ldmia   r2!, {r3-r11}
    cmp     r5, r0
    itt     eq
    orreq   r12, r12, r3
    orreq   lr, lr, r4
    cmp     r8, r0
    itt     eq
    orreq   r12, r12, r6
    orreq   lr, lr, r7
    cmp     r11, r0
    itt     eq
    orreq   r12, r12, r9
    orreq   lr, lr, r10
g1: ldmia   r2!, {r3-r11}
    cmp     r5, r0
    itt     eq
    orreq   r12, r12, r3
    orreq   lr, lr, r4
    cmp     r8, r0
    itt     eq
    orreq   r12, r12, r6
    orreq   lr, lr, r7
    cmp     r11, r0
    itt     eq
    orreq   r12, r12, r9
    orreq   lr, lr, r10
g2: ldmia   r2!, {r3-r11}
    cmp     r5, r0
    itt     eq
    orreq   r12, r12, r3
    orreq   lr, lr, r4
    cmp     r8, r0
    itt     eq
    orreq   r12, r12, r6
    orreq   lr, lr, r7
    cmp     r11, r0
    itt     eq
    orreq   r12, r12, r9
    orreq   lr, lr, r10
g3: ldmia   r2!, {r3-r11}
    cmp     r5, r0
    itt     eq
    orreq   r12, r12, r3
    orreq   lr, lr, r4
    cmp     r8, r0
    itt     eq
    orreq   r12, r12, r6
    orreq   lr, lr, r7
    cmp     r11, r0
    itt     eq
    orreq   r12, r12, r9
    orreq   lr, lr, r10
    cmp     r2, r1
    bne     g0
    strd    r12, lr, [r0], #8
    ldr     r3, [sp, #OFF_END]
    cmp     r0, r3
    bne     outer
    add     sp, sp, #FRAME
hqc_support_expand_m4_end:
    pop     {r3-r11, pc}

    .balign 4
entries:                               @ by G mod 4: 0 -> g0, 1 -> g3, 2 -> g2, 3 -> g1
    .word   g0 + 1, g3 + 1, g2 + 1, g1 + 1
    .size hqc_support_expand_m4, . - hqc_support_expand_m4
