@ Constant-time support expansion for the Cortex-M4 (Thumb-2), docs/hqc.md section 6.3,
@ docs/board.md section 16 ("Support expansion").
@
@   void hqc_support_expand_m4(uint64_t *out, const uint32_t *support, uint32_t weight,
@                              uint32_t words64);
@
@ out[0 .. words64) = the dense vector with bit p set for every p in support[0 .. weight).
@ Preconditions (checked by the Rust caller, hqc-verify/src/core/sampling.rs): weight <= 150,
@ positions distinct; a position >= 64*words64 sets nothing.
@
@ Method. Pass 1 turns each position p into an entry of five words (key, v0, v1, v2, v3):
@ key = out + 16*(p >> 7), the address of the aligned pair of output words (128 bits) that
@ holds p, and v0..v3 = the 128-bit value 1 << (p mod 128) as four 32-bit words (one of them
@ 1 << (p mod 32), the others zero), with shifts and masks only. The table (20 bytes per
@ entry) goes on the stack. Pass 2 builds four output words (two pairs) per pass over the
@ whole table, in eight accumulator registers (r6-r12, lr). Per entry: one LDM of its five
@ words (the table pointer is sp itself, so that five entry registers, eight accumulators and
@ the output pointer fit in r0-r12 and lr), d = key - out pointer (SUBS), then ITTTT EQ with four
@ ORRs for the first pair and CMP d, #16 with ITTTT EQ and four ORRs for the second: no
@ branch and no address depends on a position (an IT block issues its ORRs whatever the
@ flags; a failed condition executes as a NOP of the same length). Positions are distinct, so
@ OR-ing a zero word is harmless. The 150 entry steps are unrolled (48 bytes each, all 32-bit
@ encodings so that every step has the same length) and a pass is entered at step
@ 150 - weight: the entry point depends only on the public weight. A last pass builds the
@ words64 mod 4 words left, stored by a branch on that public remainder.
@
@ Interrupts. During pass 2 the entries already read in a pass lie below sp, and the next
@ pass reads them again; an exception frame pushed there would overwrite them. The routine
@ therefore masks interrupts (CPSID i, after saving PRIMASK) for its whole run and restores the
@ caller's PRIMASK at the end. That holds in privileged code (the firmware, and pqm4-style
@ benchmark code, run privileged); unprivileged code cannot mask interrupts and must not call
@ this routine with interrupts that can preempt it. NMI and faults are not masked (they do not
@ return to the routine in this firmware).
@
@ Cost per (4 output words, entry): LDM of 5 (6 cycles) + 12 single-cycle instructions (SUBS,
@ CMP, 2 IT, 8 ORR) = 18 estimated cycles, 4.5 per (word, entry), plus per pass 8 MOVs, one
@ taken BX, an STM of 8 and the loop test. Stack: 40 bytes of saved registers, 16 of frame
@ and 20 per entry (3,056 bytes at weight 150, 1,556 at weight 75).

    .syntax unified
    .thumb
    .text

    .equ STEPS, 150                    @ unrolled entry steps (weight <= 150)
    .equ STEP_BYTES, 48                @ bytes per step (checked below)
    .equ ENTRY_BYTES, 20               @ table bytes per entry
    @ frame (16 bytes, above the table): entry address | 1, end of the whole groups
    @ (out + 32*(words64 / 4)), table bytes (20*weight), words64 mod 4
    .equ FRAME, 16

    .global hqc_support_expand_m4
    .global hqc_support_expand_m4_end
    .type hqc_support_expand_m4, %function
    .thumb_func
hqc_support_expand_m4:
    push    {r3-r11, lr}               @ 40 bytes: keeps sp 8-byte aligned
    mrs     r12, primask
    cpsid   i                          @ sp walks the table (see the note above)
    str     r12, [sp]                  @ the caller's PRIMASK, in the slot of the pushed r3
    sub     sp, sp, #FRAME
    @ ---- frame: entry = steps + (150 - weight)*48 + 1 (Thumb bit)
    adr.w   r4, steps
    movs    r5, #STEPS
    subs    r5, r5, r2
    movs    r6, #STEP_BYTES
    mla     r4, r5, r6, r4
    adds    r4, r4, #1
    bic     r5, r3, #3
    add     r5, r0, r5, lsl #3         @ end of the whole groups of 4 words
    movs    r6, #ENTRY_BYTES
    mul     r6, r2, r6                 @ table bytes
    and     r7, r3, #3                 @ words left after the whole groups
    stm     sp, {r4-r7}
    sub     sp, sp, r6                 @ sp = table
    @ ---- pass 1: positions -> entries (key, v0, v1, v2, v3) at sp
    mov     r7, sp                     @ write pointer
    movs    r8, #1
    cbz     r2, 2f
1:  ldr     r3, [r1], #4               @ p
    lsrs    r4, r3, #7
    add     r4, r0, r4, lsl #4         @ key = out + 16*(p >> 7)
    and     r5, r3, #31
    lsl     r5, r8, r5                 @ b = 1 << (p mod 32)
    ubfx    r6, r3, #5, #1
    negs    r6, r6                     @ all ones iff bit 5 of p (high half of a word)
    ubfx    r9, r3, #6, #1
    negs    r9, r9                     @ all ones iff bit 6 of p (second word of the pair)
    bic     r10, r5, r6                @ b in the low half
    and     r11, r5, r6                @ b in the high half
    bic     r5, r10, r9                @ v0
    bic     r6, r11, r9                @ v1
    and     r10, r10, r9               @ v2
    and     r11, r11, r9               @ v3
    stmia   r7!, {r4-r6, r10, r11}
    subs    r2, r2, #1
    bne     1b
2:  ldr     r1, [r7]                   @ entry address (r7 = frame)
    @ ---- pass 2: four output words in r6-r12, lr per pass; r0 = their address
outer:
    mov     r6, #0
    mov     r7, #0
    mov     r8, #0
    mov     r9, #0
    mov     r10, #0
    mov     r11, #0
    mov     r12, #0
    mov     lr, #0
    bx      r1
    .balign 4
steps:
    .rept   STEPS
    ldmia.w sp!, {r1-r5}               @ key, v0, v1, v2, v3
    subs.w  r1, r1, r0                 @ d = key - out pointer
    itttt   eq                         @ d = 0: the first pair
    orreq.w r6, r6, r2
    orreq.w r7, r7, r3
    orreq.w r8, r8, r4
    orreq.w r9, r9, r5
    cmp.w   r1, #16
    itttt   eq                         @ d = 16: the second pair
    orreq.w r10, r10, r2
    orreq.w r11, r11, r3
    orreq.w r12, r12, r4
    orreq.w lr, lr, r5
    .endr
steps_end:
    .if (steps_end - steps) != STEPS * STEP_BYTES
    .error "support_expand.S: an entry step is not STEP_BYTES long"
    .endif
    @ sp = frame again
    ldm     sp, {r1-r4}                @ entry, end of whole groups, table bytes, left
    sub     sp, sp, r3                 @ sp = table
    cmp     r0, r2
    beq     tail                       @ this pass built the last, partial group
    stmia   r0!, {r6-r12, lr}
    cmp     r0, r2
    bne     outer
    cbz     r4, done                   @ words64 a multiple of 4
    b       outer                      @ one more pass for the words left
tail:                                  @ r4 = words left (public): 0 to 3
    cbz     r4, done
    cmp     r4, #2
    bhi     3f
    beq     4f
    strd    r6, r7, [r0]
    b       done
4:  stmia   r0, {r6-r9}
    b       done
3:  stmia   r0, {r6-r11}
done:
    add     sp, sp, r3
    add     sp, sp, #FRAME
    ldr     r3, [sp]
    msr     primask, r3                @ interrupts as the caller had them
hqc_support_expand_m4_end:
    pop     {r3-r11, pc}
    .size hqc_support_expand_m4, . - hqc_support_expand_m4
