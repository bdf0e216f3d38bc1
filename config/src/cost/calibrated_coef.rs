//! The fitted coefficients of the calibrated model `m4-firmware-fit-v9`: cycles per unit of
//! each feature, in estimated Cortex-M4 cycles of the rules `m4-trm-r0p1-v2` (docs/m4-timing.md).
//!
//! GENERATED, do not edit: `search calibrate --fit --write-coefficients config/src/cost/calibrated_coef.rs`
//! wrote it from the fit of results/model/measured.json (45 rows, 24 fitted;
//! docs/cost-model.md §3). The test `the_coefficient_module_is_generated_from_the_committed_table`
//! (search/tests/calibrate.rs) fails when this file and that fit disagree.

/// The timing rules of the board table the coefficients were fitted on.
pub const TIMING: &str = "m4-trm-r0p1-v2";
/// Cycles of one γ_j routine call: constant part (prediction from the Paar count).
pub const RT_GAMMA_BASE: f64 = 38.49;
/// Cycles of one γ_j routine call per Paar XOR of its screening program.
pub const RT_GAMMA_XOR: f64 = 2.002;
/// Cycles of one Encode / Decode routine call: constant part.
pub const RT_ED_BASE: f64 = 0.0;
/// Cycles of one Encode / Decode routine call per Paar XOR.
pub const RT_ED_XOR: f64 = 2.171;
/// Per Taylor / column word of the basis conversion.
pub const BC_WORD: f64 = 6.323;
/// Per word of the table-driven row pass (bc8 / ibc8).
pub const BC_ROW: f64 = 38.86;
/// Per group of Encode / Decode (gather or scatter, call).
pub const ED_GROUP: f64 = 75.58;
/// Per butterfly (group pair): the γ call and the two 32-word XORs.
pub const BF_PAIR: f64 = 636.5;
/// Per block of 32 stored groups: the layout A <-> B transpose between layers 6 and 5.
pub const BF_BLOCK: f64 = 57610.0;
/// Per cycle of the v1 formula for the β-independent s0 part of the butterflies.
pub const BF_S0: f64 = 0.0;
/// Per butterfly of layers 5..1 whose s0 values lie below 2^10 (j = 9, 10): the F_4 terms of bits 8, 9 beside the F_256 product.
pub const BF_F10: f64 = 0.0;
/// Per butterfly of layers 5..1 whose s0 values need F_2^16 (j ≥ 11): `bs_mulacc16x2` instead of the F_256 product.
pub const BF_F16: f64 = 623.2;
/// Per group of the pointwise products.
pub const PW_GROUP: f64 = 3059.0;
/// Per word moved by the packing of the l < 10 pointwise product (`pack_groups`, `unpack_groups`).
pub const PW_PACK_WORD: f64 = 4.592;
/// Per 32×32 carry-less product (a call of `clmul32_m4`) of the residue's `kara_low` outside the Thumb-2 leaves.
pub const RES_CLMUL: f64 = 86.75;
/// Per word of XOR / copy / clear in the residue's Karatsuba outside the Thumb-2 leaves.
pub const RES_WORD: f64 = 8.091;
/// Per call of the 4-word Thumb-2 leaf `clmul_kara4_m4` (9 word products in registers), in `kara_low` and the 2-Karatsuba residual's `kara_full`.
pub const RES_KARA4: f64 = 760.6;
/// Per low-half product (`clmul32lo`) of the truncated schoolbook products of `kara_low`.
pub const RES_CLMUL_LO: f64 = 152.8;
/// Per word of one term of a reduction mod M2 of the two-moduli driver (`reduce_m2`).
pub const RED_WORD: f64 = 9.291;
/// Per word copied into or cleared in the reduction scratch (`mod_m2`, `reduce_m2`).
pub const RED_COPY_WORD: f64 = 1.969;
/// Per term loop of a reduction mod M2 (one term of L on one chunk: set-up and exit).
pub const RED_LOOP: f64 = 24.38;
/// Per call of `mod_m2` (the stage's fixed part).
pub const RED_CALL: f64 = 6.000;
/// Per term of the sparse solve (one load and XOR with shift).
pub const REC_SOLVE_TERM: f64 = 2.752;
/// Per word of u (table-driven S^{-1}, t and copies).
pub const REC_WORD: f64 = 75.32;
/// Per word of the shifted copies of u (one per occupied residue r != 0).
pub const REC_SHIFT_WORD: f64 = 0.0;
/// Per word XORed into h by the sparse product M·u.
pub const REC_XOR_WORD: f64 = 6.408;
/// Per word XORed into h by the Thumb-2 kernel `xor3_into_m4` (three unclipped terms per pass).
pub const REC_XOR3_WORD: f64 = 4.294;
/// Per word of the two-moduli driver's vector passes (D = E + F2(h1 mod M2), h cleared above N1).
pub const TM_VEC_WORD: f64 = 11.81;
/// Per word of the shifted copies of u in h1 + M1·u (one per occupied residue r != 0).
pub const TM_SHIFT_WORD: f64 = 5.403;
/// Per word XORed into h by M1·u.
pub const TM_XOR_WORD: f64 = 5.669;
/// Per 3-word leaf (`kara3`) of the 2-Karatsuba residual's `kara_full`.
pub const RES_KARA3: f64 = 317.4;
/// Per word XORed, copied or cleared by the residual's `kara_full` (its clmul32 products keep `RES_CLMUL`).
pub const RES_FULL_WORD: f64 = 3.439;
/// Per call of the residual's `kara_full` (call, loop set-up; leaves included).
pub const RES_FULL_CALL: f64 = 297.7;
/// Per word XORed by the 2-Karatsuba additions (operand sums, T = P0 + P1 + P2, the combination).
pub const SPLIT_XOR_WORD: f64 = 5.646;
/// Per word copied or cleared by the 2-Karatsuba additions (the sums' words above n − k, h above N).
pub const SPLIT_COPY_WORD: f64 = 2.612;
