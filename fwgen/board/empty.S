@ Calibration routine for the board test: the same signature as the generated routines and a
@ single instruction, so a routine's count is (its region) - (this region) + 1.
    .syntax unified
    .thumb
    .cpu cortex-m4
    .text
    .align 2
    .global fw_empty
    .type fw_empty, %function
    .thumb_func
fw_empty:
    bx lr
    .size fw_empty, .-fw_empty
