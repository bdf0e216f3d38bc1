@ gft_mul_s_inv_11_beta: PLACEHOLDER. gamma_11 does not exist for this configuration:
@ gamma_11 does not exist for this beta (beta not in V_21: coords(beta) = 0x25c01c); the 11-matrix layout's slots 11..11 are omitted
@ Linking this file keeps a build that names gft_mul_s_inv_11_beta unchanged; the transform of this
@ configuration never multiplies by gamma_11. If it is called, udf #11 raises a
@ HardFault instead of returning a wrong product.
@ static counts: eor 0 vmov 0 load 0 store 0 push/pop 0 other 1 total 1
    .syntax unified
    .thumb
    .cpu cortex-m4
    .text
    .align 2
    .global gft_mul_s_inv_11_beta
    .type gft_mul_s_inv_11_beta, %function
    .thumb_func
gft_mul_s_inv_11_beta:
    udf #11
    .size gft_mul_s_inv_11_beta, .-gft_mul_s_inv_11_beta
