//! The calibrated model's coefficient module, `config/src/cost/calibrated_coef.rs`, generated from
//! the fit of a board table (docs/cost-model.md §3): `search calibrate --fit
//! --write-coefficients FILE` writes it, and a test compares the committed module byte for byte
//! with the rendering of the committed table's fit, so the coefficients are never typed in.
//!
//! The fit prices a few features at the coefficients the build already has (the split's
//! residual clmul32 products and copy words, the h1 reduction of the two-moduli
//! reconstruction), so a new table takes two or three rounds of write, rebuild, write until
//! the module no longer changes (the fixed point the test checks).

use super::coefficients::GroupFit;
use super::error::FitError;
use super::table::MeasuredTable;
use crate::cost::CALIBRATED_MODEL_VERSION;

/// Where the module lives in the repository.
pub const COEF_MODULE_PATH: &str = "config/src/cost/calibrated_coef.rs";

/// One coefficient of the module: its constant, the feature the fit names it by, its doc line.
pub struct CoefSpec {
    /// The constant's name in `crate::cost::coef`.
    pub konst: &'static str,
    /// The feature's name in [`super::coefficients::fit_coefficients`].
    pub feature: &'static str,
    /// The constant's documentation.
    pub doc: &'static str,
}

const fn spec(konst: &'static str, feature: &'static str, doc: &'static str) -> CoefSpec {
    CoefSpec {
        konst,
        feature,
        doc,
    }
}

/// Every coefficient of the model, in the module's order.
pub const COEFS: [CoefSpec; 35] = [
    spec("RT_GAMMA_BASE", "RT_GAMMA_BASE", "Cycles of one γ_j routine call: constant part (prediction from the Paar count)."),
    spec("RT_GAMMA_XOR", "RT_GAMMA_XOR", "Cycles of one γ_j routine call per Paar XOR of its screening program."),
    spec("RT_ED_BASE", "RT_ED_BASE", "Cycles of one Encode / Decode routine call: constant part."),
    spec("RT_ED_XOR", "RT_ED_XOR", "Cycles of one Encode / Decode routine call per Paar XOR."),
    spec("BC_WORD", "basis-conversion words", "Per Taylor / column word of the basis conversion."),
    spec("BC_ROW", "basis-conversion row words", "Per word of the table-driven row pass (bc8 / ibc8)."),
    spec("ED_GROUP", "Encode/Decode groups", "Per group of Encode / Decode (gather or scatter, call)."),
    spec("BF_PAIR", "butterflies (group pairs)", "Per butterfly (group pair): the γ call and the two 32-word XORs."),
    spec("BF_BLOCK", "layout transposes (32-group blocks)", "Per block of 32 stored groups: the layout A <-> B transpose between layers 6 and 5."),
    spec("BF_S0", "s0 part (v1 cycles)", "Per cycle of the v1 formula for the β-independent s0 part of the butterflies."),
    spec("BF_F10", "low pairs in F_2^10", "Per butterfly of layers 5..1 whose s0 values lie below 2^10 (j = 9, 10): the F_4 terms of bits 8, 9 beside the F_256 product."),
    spec("BF_F16", "low pairs in F_2^16", "Per butterfly of layers 5..1 whose s0 values need F_2^16 (j ≥ 11): `bs_mulacc16x2` instead of the F_256 product."),
    spec("PW_GROUP", "groups", "Per group of the pointwise products."),
    spec("PW_PACK_WORD", "packed words", "Per word moved by the packing of the l < 10 pointwise product (`pack_groups`, `unpack_groups`)."),
    spec("RES_CLMUL", "clmul32 products", "Per 32×32 carry-less product (a call of `clmul32_m4`) of the residue's `kara_low` outside the Thumb-2 leaves."),
    spec("RES_WORD", "Karatsuba words", "Per word of XOR / copy / clear in the residue's Karatsuba outside the Thumb-2 leaves."),
    spec("RES_KARA4", "kara4 leaves", "Per call of the 4-word Thumb-2 leaf `clmul_kara4_m4` (9 word products in registers), in `kara_low` and the 2-Karatsuba residual's `kara_full`."),
    spec("RES_CLMUL_LO", "low-half products", "Per low-half product (`clmul32lo`) of the truncated schoolbook products of `kara_low`."),
    spec("RED_WORD", "reduction words", "Per word of one term of a reduction mod M2 of the two-moduli driver (`reduce_m2`)."),
    spec("RED_COPY_WORD", "reduction copy words", "Per word copied into or cleared in the reduction scratch (`mod_m2`, `reduce_m2`)."),
    spec("RED_LOOP", "reduction term loops", "Per term loop of a reduction mod M2 (one term of L on one chunk: set-up and exit)."),
    spec("RED_CALL", "reductions", "Per call of `mod_m2` (the stage's fixed part)."),
    spec("REC_SOLVE_TERM", "solve terms", "Per term of the sparse solve (one load and XOR with shift)."),
    spec("REC_WORD", "words of u", "Per word of u (table-driven S^{-1}, t and copies)."),
    spec("REC_SHIFT_WORD", "shifted words", "Per word of the shifted copies of u (one per occupied residue r != 0)."),
    spec("REC_XOR_WORD", "M·u XOR words", "Per word XORed into h by the sparse product M·u."),
    spec("REC_XOR3_WORD", "M·u XOR3 words", "Per word XORed into h by the Thumb-2 kernel `xor3_into_m4` (three unclipped terms per pass)."),
    spec("TM_VEC_WORD", "vector words", "Per word of the two-moduli driver's vector passes (D = E + F2(h1 mod M2), h cleared above N1)."),
    spec("TM_SHIFT_WORD", "M1·u shifted words", "Per word of the shifted copies of u in h1 + M1·u (one per occupied residue r != 0)."),
    spec("TM_XOR_WORD", "M1·u XOR words", "Per word XORed into h by M1·u."),
    spec("RES_KARA3", "residual kara3 leaves", "Per 3-word leaf (`kara3`) of the 2-Karatsuba residual's `kara_full`."),
    spec("RES_FULL_WORD", "residual Karatsuba words", "Per word XORed, copied or cleared by the residual's `kara_full` (its clmul32 products keep `RES_CLMUL`)."),
    spec("RES_FULL_CALL", "residual Karatsuba calls", "Per call of the residual's `kara_full` (call, loop set-up; leaves included)."),
    spec("SPLIT_XOR_WORD", "split XOR words", "Per word XORed by the 2-Karatsuba additions (operand sums, T = P0 + P1 + P2, the combination)."),
    spec("SPLIT_COPY_WORD", "split copy words", "Per word copied or cleared by the 2-Karatsuba additions (the sums' words above n − k, h above N)."),
];

/// `x` rounded to 4 significant digits, as a Rust `f64` literal (always with a decimal point).
pub fn sig4(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0.0".into();
    }
    let mag = x.abs().log10().floor() as i32;
    let decimals = 3 - mag;
    if decimals > 0 {
        format!("{x:.*}", decimals as usize)
    } else {
        let q = 10f64.powi(-decimals);
        format!("{:.1}", (x / q).round() * q)
    }
}

/// The module's text: every coefficient of `groups` (the fit of `table`), rounded to 4
/// significant digits, with the table's timing rules and row counts in its header.
pub fn render_coef_module(table: &MeasuredTable, groups: &[GroupFit]) -> Result<String, FitError> {
    // every fitted coefficient has its constant
    if let Some(x) = groups
        .iter()
        .flat_map(|g| g.coefficients.iter())
        .find(|x| !COEFS.iter().any(|c| c.feature == x.0))
    {
        return Err(FitError::Table {
            path: "the fit".into(),
            reason: format!("fitted coefficient `{}` has no constant in the module", x.0),
        });
    }
    let fitted = table.rows.iter().filter(|r| r.fitted).count();
    let mut s = format!(
        "//! The fitted coefficients of the calibrated model `{CALIBRATED_MODEL_VERSION}`: cycles per unit of\n\
         //! each feature, in estimated Cortex-M4 cycles of the rules `{}` (docs/m4-timing.md).\n\
         //!\n\
         //! GENERATED, do not edit: `search calibrate --fit --write-coefficients {COEF_MODULE_PATH}`\n\
         //! wrote it from the fit of results/model/measured.json ({} rows, {fitted} fitted;\n\
         //! docs/cost-model.md §3). The test `the_coefficient_module_is_generated_from_the_committed_table`\n\
         //! (search/tests/calibrate.rs) fails when this file and that fit disagree.\n\n\
         /// The timing rules of the board table the coefficients were fitted on.\n\
         pub const TIMING: &str = \"{}\";\n",
        table.timing,
        table.rows.len(),
        table.timing
    );
    for c in &COEFS {
        let k = groups
            .iter()
            .flat_map(|g| g.coefficients.iter())
            .find(|x| x.0 == c.feature)
            .map(|x| x.1)
            .ok_or_else(|| FitError::Table {
                path: "the fit".into(),
                reason: format!("no fitted coefficient `{}` ({})", c.feature, c.konst),
            })?;
        s += &format!("/// {}\npub const {}: f64 = {};\n", c.doc, c.konst, sig4(k));
    }
    Ok(s)
}
