/* Hand-written Thumb-2 snippets with known instruction-class counts, for the insncount plugin's
   decode tests (board/tests/m4cycles.rs).  Each snippet NAME runs once, straight through,
   from the label NAME_start to the label NAME_end; the test passes pair=NAME:NAME_start:NAME_end
   to the plugin and compares the classes line with the counts written next to the code.
   Exit: semihosting SYS_EXIT with ADP_Stopped_ApplicationExit (QEMU exit status 0). */
    .syntax unified
    .cpu cortex-m4
    .fpu fpv4-sp-d16
    .thumb

    .section .vectors, "a"
    .word __stack_top__
    .word reset_handler
    .word fault, fault, fault, fault, fault

    .text
    .thumb_func
    .global reset_handler
reset_handler:
    ldr r0, =0xE000ED88          @ CPACR: CP10/CP11 full access (FPU on)
    ldr r1, [r0]
    orr r1, r1, #(0xF << 20)
    str r1, [r0]
    dsb
    isb
    ldr r7, =buf                 @ r7: data buffer for the whole program

/* eor10: 10 x alu (5 x 16-bit, 5 x 32-bit) */
    .global eor10_start, eor10_end
eor10_start:
    eors r0, r1
    eors r0, r2
    eors r0, r3
    eors r0, r4
    eors r0, r5
    eor.w r0, r1, r2, ror #3
    eor.w r0, r1, r2
    eor.w r0, r0, #0xff
    eor.w r8, r9, r10
    eor.w r0, r1, r2, lsl #7
eor10_end:

/* ldm: alu 1; ldm 2 (regs 9); stm 2 (regs 9) */
    .global ldm_start, ldm_end
ldm_start:
    mov r0, r7
    ldmia r0!, {r1-r4}           @ 16-bit, 4 registers
    ldmia.w r7, {r1-r4, r8}      @ 32-bit, 5 registers
    stmia r0!, {r1-r3}           @ 16-bit, 3 registers
    stmia.w r7, {r1-r4, r8, r9}  @ 32-bit, 6 registers
ldm_end:

/* loop: alu 6; br 5 (taken 4, untaken 1) */
    .global loop_start, loop_end
loop_start:
    movs r0, #5
1:  subs r0, #1
    bne 1b
loop_end:

/* call: br 1 (bl, taken); stm 1 (regs 5); alu 1; ldm 1 (regs 5, pc 1, taken) */
    .global call_start, call_end
call_start:
    bl func_pp
call_end:

/* vmov: vmov 4; vmov2 3; fpu 2; fmac 1; fdiv 2 */
    .global vmov_start, vmov_end
vmov_start:
    vmov s0, r0
    vmov r1, s0
    vmov.f32 s1, s0
    vmov.f32 s4, #1.0
    vmov s2, s3, r2, r3
    vmov r4, r5, s2, s3
    vmov d3, r2, r3
    vmrs r6, fpscr
    vadd.f32 s5, s4, s4
    vmla.f32 s5, s4, s4
    vdiv.f32 s6, s5, s4
    vsqrt.f32 s6, s5
vmov_end:

/* loads: ldr 9 (pipe 4); str 3; strd 1; ldrd 1; alu 1 */
    .global loads_start, loads_end
loads_start:
    ldr r1, [r7]
    ldr r2, [r7, #4]             @ pipelined
    ldr.w r3, [r7, #8]           @ pipelined
    str r1, [r7, #12]
    ldrb r4, [r7]
    ldr r5, =0x12345678          @ pipelined (literal)
    ldrh r6, [r7, #2]            @ pipelined
    strd r1, r2, [r7]
    ldrd r1, r2, [r7]
    ldr r3, [r7, #4]             @ after LDRD: not pipelined
    strb r3, [r7, #16]
    strh.w r3, [r7, #18]
    ldrsb.w r0, [r7, #1]
    movs r0, #0
    ldr r0, [r7, r0]
loads_end:

/* vls: vldr 2 (words 3); vstr 1 (words 1); vldm 2 (words 8); vstm 2 (words 8) */
    .global vls_start, vls_end
vls_start:
    vldr s0, [r7]
    vstr s0, [r7, #4]
    vldr d1, [r7]
    vpush {s0-s3}
    vpop {s0-s3}
    vldmia r7, {s4-s7}
    vstmia r7, {d2-d3}
vls_end:

/* muldiv: alu 2; mul 6; div 2 */
    .global muldiv_start, muldiv_end
muldiv_start:
    movs r3, #7
    movs r4, #3
    muls r1, r3, r1
    mul r2, r3, r4
    mla r2, r3, r4, r2
    mls r2, r3, r4, r2
    umull r5, r6, r3, r4
    smlal r5, r6, r3, r4
    udiv r1, r3, r4
    sdiv r1, r3, r4
muldiv_end:

/* brs: alu 9; it 2; br 6; tbb 1; ldr_pc 1; taken 6, untaken 2 */
    .global brs_start, brs_end
brs_start:
    movs r0, #0
    cbz r0, 1f                   @ taken
    nop
1:  cbnz r0, 2f                  @ untaken
    adr r1, fn_ret
    adds r1, #1
    blx r1                       @ taken; fn_ret: bx lr, taken
2:  cmp r0, #0
    it eq
    addeq r0, #1
    cmp r0, #1
    it ne
    bxne lr                      @ untaken
    b.w 3f                       @ taken
    nop
3:  movs r2, #1
    tbb [pc, r2]                 @ taken, to c1
tbl:
    .byte (c0 - tbl) / 2
    .byte (c1 - tbl) / 2
    .balign 2
c0: nop
c1: adr r3, ptrs
    ldr pc, [r3]                 @ taken, to 4f
    .balign 4
ptrs:
    .word 4f + 1
4:  nop
brs_end:

/* deps: the address rules. alu 8; ldr 10 (pipe 5, dep 1, lit 2); str 6 (str_reg 2); ldm 1
   (regs 2); vldr 1 (words 1); vmov 2; it 2 (it_fold 1); agu 5 */
    .global deps_start, deps_end
deps_start:
    nop                          @ alu
    str r7, [r7, #32]            @ str
    ldr r4, [r7, #32]            @ ldr (after a store: not pipelined)
    ldr r5, [r4]                 @ ldr pipe dep: its base is the previous load's destination
    ldr r6, [r7, #4]             @ ldr pipe
    str r6, [r7, #8]             @ str: after a load, stores the loaded value (no stall)
    ldr r4, [r7, #32]            @ ldr
    str r1, [r4, #12]            @ str agu: its base is the previous load's destination
    adds r4, r7, #0              @ alu
    ldr r1, [r4]                 @ ldr agu: base written by ADDS
    ldr r2, [r4, #4]             @ ldr pipe
    movs r0, #4                  @ alu
    ldr r3, [r7, r0]             @ ldr agu: offset written by MOVS
    str r3, [r7, r0]             @ str: register offset right after a load (pipelined)
    str r3, [r7, r0]             @ str str_reg: register offset after a store
    str.w r3, [r7, r0, lsl #2]   @ str str_reg
    mov r2, r7                   @ alu
    ldmia r2, {r0, r1}           @ ldm (regs 2) agu
    vmov s1, r7                  @ vmov
    vmov r3, s1                  @ vmov (a transfer result)
    ldr r0, [r3]                 @ ldr agu
    ldr r0, =0x12345678          @ ldr pipe lit (pc is no destination of the previous load)
    ldr.w r1, =0x9abcdef0        @ ldr pipe lit
    vldr s2, [r2]                @ vldr (words 1): r2 not written by the previous
    movs r0, #1                  @ alu (16-bit)
    it eq                        @ it it_fold: after a 16-bit instruction
    addeq r0, #1                 @ alu
    mov.w r1, #0                 @ alu (32-bit)
    it ne                        @ it: after a 32-bit instruction
    addne r1, #1                 @ alu
deps_end:

/* xpage: ldr 4 (pipe 3): the second load ends a 4 KiB page, so QEMU ends the translation
   block there and the third load is pipelined across blocks */
    b.w xpage_start
    .thumb_func
func_pp:
    push {r4-r7, lr}
    movs r4, #1
    pop {r4-r7, pc}

    .balign 4
fn_ret:
    bx lr

    .ltorg
    .balign 4096
    .fill 2046, 2, 0xbf00
    .global xpage_start, xpage_end
xpage_start:
    ldr r1, [r7]
    ldr r2, [r7, #4]
    ldr r3, [r7, #8]             @ first instruction of a new block
    ldr r4, [r7, #12]
xpage_end:

/* xagu, xstr, xit: the address rules across a translation-block boundary with no branch (the
   first instruction of each ends a 4 KiB page).
   xagu: alu 1; ldr 1; agu 1.  xstr: ldr 1; str 1 (a register offset right after a load: no
   str_reg).  xit: alu 2; it 1 (it_fold 1). */
    movs r0, #0
    b.w xagu_start
    .balign 4096
    .fill 2047, 2, 0xbf00
    .global xagu_start, xagu_end
xagu_start:
    adds r4, r7, #0
    ldr r1, [r4]                 @ agu: base written by the ADDS in the previous block
xagu_end:
    b.w xstr_start
    .balign 4096
    .fill 2047, 2, 0xbf00
    .global xstr_start, xstr_end
xstr_start:
    ldr r1, [r7]
    str r1, [r7, r0]             @ register offset, pipelined after the load of the previous block
xstr_end:
    b.w xit_start
    .balign 4096
    .fill 2047, 2, 0xbf00
    .global xit_start, xit_end
xit_start:
    movs r0, #1
    it eq                        @ it_fold: after the 16-bit MOVS of the previous block
    addeq r0, #1
xit_end:

    movs r0, #0x18               @ SYS_EXIT
    ldr r1, =0x20026             @ ADP_Stopped_ApplicationExit
    bkpt 0xab
    b .

    .thumb_func
fault:
    movs r0, #0x18
    ldr r1, =0x20024             @ ADP_Stopped_RunTimeErrorUnknown (non-zero exit)
    bkpt 0xab
    b .
    .ltorg

    .bss
    .balign 8
buf:
    .space 64
