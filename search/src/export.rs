//! Firmware export: `search export --m 32 --l L --beta B --c C --n N --out DIR [--chain …]`
//! (`fafft-math.md` §10).
//!
//! Writes into DIR:
//!
//! | file | contents |
//! |---|---|
//! | `params.json` | everything needed to rebuild the multiplier (below), with a `checksum` |
//! | `fafft_params.h` | `FAFFT_M`, `FAFFT_L`, `FAFFT_N`, `CRT_C`, `HQC_N`, `FAFFT_BETA`, `FAFFT_P`, `fafft_gamma[FAFFT_L + 1]` (γ_0 = β … γ_L), `fafft_r[32]` (Encode columns `r_j = X_j(β)`) |
//! | `minpoly_mods_defs.h` | artifact layout (§10.1): `minpoly_mod_<r>` (e div 32, decreasing; zero-length arrays for empty classes, GNU C), `minpoly_mods[32]`, `minpoly_mod_lens[32]`; portable `minpoly_flat[]` + `minpoly_offsets[33]` (same order) |
//! | `IL_defs.h` | `IL_swapped_<N>[c/32]` (artifact name), `IL_plain[CRT_C/32]`, `IL_swapped[CRT_C/32]` (§10.2); only `FAFFT_HAVE_IL 0` when c = 0 |
//! | `encode_matrix_defs.h` | `encode_matrix[32][32]`, `decode_matrix[32][32]`, `[i][j]` = bit i of column j (§10.3) |
//! | `gft_mul_s_inv_i_beta_matrix_defs.h` | `gft_mul_s_inv_<j>_beta_matrix[32][32]`, column q = `γ_j·2^q`, row = tower bit, j = 1 … L, plus j = L+1 … 11 where γ_j exists (§10.4; for l = 10, γ_11 exists iff β ∈ V_21) |
//! | `btfy_consts_gft.h` | `s0_gft[2048]` (§10.5) |
//! | `gen_xor_programs.h` | `HAVE_GEN_XOR`, straight-line bitsliced `gft_mul_gamma_<j>(uint32_t *x32)`, `encode_xor`, `encode_trunc_xor`, `decode_xor` (Paar-optimised, [`crate::codegen`]) |
//!
//! Every header starts with a comment naming the parameters, the command and the params.json
//! checksum.
//!
//! ## params.json and its checksum
//!
//! Keys: `schema_version`, `tool_version`, `command`, `m`, `l`, `n`, `c`, `N`, `beta` (tower hex),
//! `beta_coords`, `basis_top`, `P` (`hex`, `exponents`), `M` (`weight`, `exponents`,
//! `residue_counts`, `occupied_residues`), `weight`, `residues`, `IL` (`words_plain` hex,
//! `sha256_plain`, `sha256_swapped`; empty when c = 0), `encode_columns`, `decode_columns`, `r`
//! (= `encode_columns`, `r_j = X_j(β)`), `chain` (`kind`, `gamma_l`, `offsets` o_j with
//! `coords(γ_j) = (coords(β) << j) XOR o_j`), `gamma` (γ_0 … γ_L), `gamma_extra` (γ_j for
//! j > L emitted in the 11-matrix layout) and `gamma_extra_note`, `s0_gft_sha256`, `xor_counts`,
//! `checksum`. All hex values are strings `0x…`; all other numbers are integers.
//!
//! `checksum` = SHA-256 (lower-case hex) of the **canonical JSON** of the object without the
//! `checksum` key: object keys sorted by their UTF-8 bytes, no whitespace, strings as serde_json
//! writes them, integers in decimal ([`canonical_json`]).
//!
//! ## Atomicity
//!
//! All files are written into a fresh temporary directory next to DIR, then the directory is
//! renamed onto DIR. An existing DIR is refused unless `--force`, which renames the old DIR aside,
//! renames the new one in, and deletes the old one. Validation happens before anything is
//! written, so a rejected configuration writes nothing.

use crate::codegen::{self, Chain, ChainError, TransformPrograms, XorProgram};
use algebra::cantor::CantorBasis;
use algebra::crt::Crt;
use algebra::fafft::{check_admissible, FafftPlan};
use algebra::field::Tower;
use algebra::gf2x::Poly;
use algebra::minpoly::minimal_polynomial;
use algebra::modulus::{extract_plan_modulus, modulus_from_minpoly, residues_mod_32};
use algebra::AlgebraError;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Version of params.json.
pub const SCHEMA_VERSION: u32 = 1;

/// Errors of the exporter.
#[derive(Debug, Error)]
pub enum ExportError {
    /// Only the Cortex-M4 field is exported.
    #[error("export supports m = 32 (the Cortex-M4 tower field) only, got m = {m}")]
    UnsupportedM { m: u32 },
    /// n is unusable.
    #[error("bad n = {n}: {reason}")]
    BadN { n: u64, reason: String },
    /// c is not a multiple of 32.
    #[error("bad c = {c}: the residue size must be a multiple of 32 bits (IL is stored in 32-bit words)")]
    BadC { c: u64 },
    /// N + c < 2n − 1.
    #[error("c = {c} is too small for N = {big_n}: N + c = {have} < 2n − 1 = {need} (n = {n}); use c ≥ {min_c}")]
    CrtTooSmall {
        c: u64,
        big_n: u64,
        n: u64,
        have: u64,
        need: u64,
        min_c: u64,
    },
    /// gcd(M, x^c) ≠ 1.
    #[error("modulus and x^{c} are not coprime (M(0) = 0): no CRT reconstruction exists")]
    NotCoprime { c: u64 },
    /// β inadmissible etc.
    #[error("inadmissible configuration: {0}")]
    Algebra(#[from] AlgebraError),
    /// Chain error.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// A self-check failed before writing (an internal inconsistency).
    #[error("self-check failed: {0}")]
    SelfCheck(String),
    /// DIR exists.
    #[error("output directory {path} already exists (use --force to replace it)")]
    Exists { path: String },
    /// DIR cannot be created.
    #[error("cannot write output directory {path}: {reason}")]
    OutDir { path: String, reason: String },
    /// Bad β text.
    #[error("bad --beta `{text}`: expected a hex field element such as 0x00103674")]
    BetaSyntax { text: String },
}

/// A configuration to export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportConfig {
    /// Field degree (32).
    pub m: u32,
    /// l.
    pub l: u32,
    /// β (tower hex).
    pub beta: u32,
    /// Residue size c (0 = no residue ring).
    pub c: u64,
    /// HQC n.
    pub n: u64,
    /// Shift chain.
    pub chain: Chain,
}

/// Everything computed for an export.
#[derive(Clone, Debug)]
pub struct Export {
    /// The configuration.
    pub cfg: ExportConfig,
    /// N.
    pub big_n: u64,
    /// P.
    pub p: Poly,
    /// M.
    pub modulus: Poly,
    /// IL plain words (c/32).
    pub il_plain: Vec<u32>,
    /// IL swapped words.
    pub il_swapped: Vec<u32>,
    /// Programs and tables of the transform (γ_0 … γ_L, Encode, Decode).
    pub tp: TransformPrograms,
    /// Extra γ_j (j > L, up to 11) for the 11-matrix layout: (j, γ_j, program).
    pub gamma_extra: Vec<(u32, u32, XorProgram)>,
    /// Note on the extra matrices.
    pub gamma_extra_note: String,
    /// s0_gft table.
    pub s0_gft: Vec<u32>,
    /// The canonical command line.
    pub command: String,
}

/// Delta swap `x ↔` bits `mask` and `mask << s`.
#[inline]
pub fn delta_swap(x: u32, mask: u32, s: u32) -> u32 {
    let t = ((x >> s) ^ x) & mask;
    x ^ t ^ (t << s)
}

/// The radix-16 layout of §10.2: plain bit `8q + r` → position `4r + σ(q)`, σ = (0, 2, 1, 3).
#[inline]
pub fn swap32(x: u32) -> u32 {
    delta_swap(
        delta_swap(delta_swap(x, 0x0000_F0F0, 12), 0x00CC_00CC, 6),
        0x0A0A_0A0A,
        3,
    )
}

/// Inverse of [`swap32`].
#[inline]
pub fn inv_swap32(x: u32) -> u32 {
    delta_swap(
        delta_swap(delta_swap(x, 0x0A0A_0A0A, 3), 0x00CC_00CC, 6),
        0x0000_F0F0,
        12,
    )
}

/// `s0_gft[k] = Σ_{t<11} k_t v_{t+1}` for k < 2048 (§10.5).
pub fn s0_gft() -> Vec<u32> {
    (0..2048u64).map(crate::cost::s0).collect()
}

/// SHA-256 (hex) of words as little-endian bytes.
pub fn sha256_words(w: &[u32]) -> String {
    let mut h = Sha256::new();
    for x in w {
        h.update(x.to_le_bytes());
    }
    hex::encode(h.finalize())
}

/// The words of a polynomial mod x^c (c multiple of 32) as 32-bit words.
pub fn poly_words32(p: &Poly, words: usize) -> Vec<u32> {
    let w64 = p.to_words(words.div_ceil(2));
    (0..words)
        .map(|i| (w64[i / 2] >> (32 * (i % 2))) as u32)
        .collect()
}

/// Check `gcd(M, x^c) = 1` (i.e. `M(0) = 1`) for c > 0.
pub fn check_crt_coprime(modulus: &Poly, c: u64) -> Result<(), ExportError> {
    if c > 0 && !modulus.bit(0) {
        return Err(ExportError::NotCoprime { c });
    }
    Ok(())
}

/// Validate a configuration (nothing is computed beyond what validation needs).
pub fn validate(cfg: &ExportConfig) -> Result<u64, ExportError> {
    if cfg.m != 32 {
        return Err(ExportError::UnsupportedM { m: cfg.m });
    }
    let basis = CantorBasis::tower32();
    check_admissible(&basis, cfg.l, Tower::<32>(cfg.beta))?;
    let big_n = 32u64 << cfg.l;
    if cfg.n < 2 {
        return Err(ExportError::BadN {
            n: cfg.n,
            reason: "HQC operands need n ≥ 2".into(),
        });
    }
    if cfg.n > big_n {
        return Err(ExportError::BadN {
            n: cfg.n,
            reason: format!("an n-bit operand does not fit the transform size N = {big_n}"),
        });
    }
    if cfg.c & 31 != 0 {
        return Err(ExportError::BadC { c: cfg.c });
    }
    let need = 2 * cfg.n - 1;
    if big_n + cfg.c < need {
        return Err(ExportError::CrtTooSmall {
            c: cfg.c,
            big_n,
            n: cfg.n,
            have: big_n + cfg.c,
            need,
            min_c: (need - big_n).div_ceil(32) * 32,
        });
    }
    cfg.chain.gamma_top(cfg.m, cfg.l, cfg.beta)?;
    Ok(big_n)
}

/// The canonical command line of a configuration.
pub fn command_of(cfg: &ExportConfig, out: &Path) -> String {
    format!(
        "search export --m {} --l {} --beta {:#010x} --c {} --n {} --chain {} --out {}",
        cfg.m,
        cfg.l,
        cfg.beta,
        cfg.c,
        cfg.n,
        cfg.chain.name(),
        out.display()
    )
}

/// Compute and self-check everything for an export.
pub fn build(cfg: &ExportConfig, command: &str) -> Result<Export, ExportError> {
    let big_n = validate(cfg)?;
    let basis = CantorBasis::tower32();
    let gl = cfg.chain.gamma_top(cfg.m, cfg.l, cfg.beta)?;
    let plan = FafftPlan::with_shift(&basis, cfg.l, Tower::<32>(cfg.beta), Tower::<32>(gl))?;
    let p = minimal_polynomial(Tower::<32>(cfg.beta))?;
    let modulus = modulus_from_minpoly(&p, cfg.l);
    // Self-checks (fafft-math.md §10.6): degree, black-box modulus, Encode/Decode, γ chain.
    if modulus.degree() != Some(big_n as usize) {
        return Err(ExportError::SelfCheck(format!(
            "deg M = {:?} ≠ N = {big_n}",
            modulus.degree()
        )));
    }
    if extract_plan_modulus(&plan)? != modulus {
        return Err(ExportError::SelfCheck(
            "the FAFFT black box does not reduce by P(s_l(x))".into(),
        ));
    }
    check_crt_coprime(&modulus, cfg.c)?;
    let tp = TransformPrograms::new(cfg.m, cfg.l, cfg.beta, gl)?;
    let plan_cols: Vec<u32> = plan
        .encode_matrix()
        .cols()
        .iter()
        .map(|&c| c as u32)
        .collect();
    if plan_cols != tp.encode_cols {
        return Err(ExportError::SelfCheck(
            "Encode columns disagree with algebra".into(),
        ));
    }
    if !tp.decode_matrix().mul(&tp.encode_matrix()).is_identity() {
        return Err(ExportError::SelfCheck("Decode·Encode ≠ I".into()));
    }
    let plan_g: Vec<u32> = plan.gammas().iter().map(|g| g.0).collect();
    if plan_g != tp.gammas {
        return Err(ExportError::SelfCheck(
            "γ chain disagrees with algebra".into(),
        ));
    }
    let (il_plain, il_swapped) = if cfg.c > 0 {
        let crt = Crt::new(modulus.clone(), cfg.c as usize)?;
        let il = crt.il().clone();
        if !il.mul_mod_xn(&modulus, cfg.c as usize).is_one() {
            return Err(ExportError::SelfCheck("IL·M ≢ 1 (mod x^c)".into()));
        }
        let plain = poly_words32(&il, (cfg.c / 32) as usize);
        let sw: Vec<u32> = plain.iter().map(|&w| swap32(w)).collect();
        (plain, sw)
    } else {
        (Vec::new(), Vec::new())
    };
    // Extra γ_j for the artifact's 11-matrix layout.
    let mut gamma_extra = Vec::new();
    let cgl = codegen::coords(gl);
    let mut note = String::new();
    for j in cfg.l + 1..=11 {
        let k = j - cfg.l;
        if cgl >> (32 - k) == 0 {
            let g = codegen::element(cgl << k);
            let (prog, _) = codegen::programs_for(&codegen::mul_matrix(32, g));
            gamma_extra.push((j, g, prog));
        } else {
            note = format!(
                "γ_{j} does not exist for this β (β ∉ V_{}: coords(β) = {:#x}); the 11-matrix layout's slots {j}…11 are omitted",
                32 - j,
                codegen::coords(cfg.beta)
            );
            break;
        }
    }
    if note.is_empty() {
        note = if gamma_extra.is_empty() {
            format!("no extra matrices: l = {} already fills the layout", cfg.l)
        } else {
            let range = if cfg.l + 1 == 11 {
                "γ_11".to_string()
            } else {
                format!("γ_{}…γ_11", cfg.l + 1)
            };
            format!(
                "{range} emitted for the artifact's 11-matrix layout (γ_11 exists: β ∈ V_21); coords(γ_j) = coords(γ_L) << (j − L)"
            )
        };
    }
    Ok(Export {
        cfg: cfg.clone(),
        big_n,
        p,
        modulus,
        il_plain,
        il_swapped,
        tp,
        gamma_extra,
        gamma_extra_note: note,
        s0_gft: s0_gft(),
        command: command.into(),
    })
}

/// Canonical JSON: keys sorted bytewise, no whitespace (see the module docs).
pub fn canonical_json(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            let parts: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap_or_default(),
                        canonical_json(&map[k.as_str()])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical_json).collect::<Vec<_>>().join(",")
        ),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// SHA-256 of the canonical JSON of `v` without its `checksum` key.
pub fn checksum_of(v: &Value) -> String {
    let mut c = v.clone();
    if let Value::Object(m) = &mut c {
        m.remove("checksum");
    }
    hex::encode(Sha256::digest(canonical_json(&c).as_bytes()))
}

fn hex32(x: u32) -> String {
    format!("{x:#010x}")
}

impl Export {
    /// XOR counts of the generated programs.
    pub fn xor_counts(&self) -> Value {
        let mut m = serde_json::Map::new();
        for (j, p) in self.tp.gamma_programs.iter().enumerate() {
            m.insert(format!("gamma_{}", j + 1), json!(p.xor_count()));
        }
        for (j, _, p) in &self.gamma_extra {
            m.insert(format!("gamma_{j}"), json!(p.xor_count()));
        }
        m.insert("encode".into(), json!(self.tp.encode.xor_count()));
        m.insert(
            "encode_trunc".into(),
            json!(self.tp.encode_trunc.xor_count()),
        );
        m.insert("decode".into(), json!(self.tp.decode.xor_count()));
        let mut naive = serde_json::Map::new();
        for (j, c) in self.tp.gamma_naive.iter().enumerate() {
            naive.insert(format!("gamma_{}", j + 1), json!(c));
        }
        naive.insert(
            "encode".into(),
            json!(codegen::naive_count(&self.tp.encode_matrix())),
        );
        naive.insert(
            "decode".into(),
            json!(codegen::naive_count(&self.tp.decode_matrix())),
        );
        m.insert("naive".into(), Value::Object(naive));
        m.insert("method".into(), json!("paar-greedy"));
        Value::Object(m)
    }

    /// params.json as a value (with its checksum).
    pub fn params_json(&self) -> Value {
        let cfg = &self.cfg;
        let m_exps = self.modulus.exponents();
        let (occ, cnt) = residues_mod_32(&self.modulus);
        let cb = codegen::coords(cfg.beta);
        let offsets: Vec<String> = self
            .tp
            .gammas
            .iter()
            .enumerate()
            .map(|(j, &g)| format!("{:#x}", codegen::coords(g) ^ (cb << j)))
            .collect();
        let p_word = self.p.words().first().copied().unwrap_or(0);
        let mut v = json!({
            "schema_version": SCHEMA_VERSION,
            "tool_version": env!("CARGO_PKG_VERSION"),
            "command": self.command,
            "m": cfg.m,
            "l": cfg.l,
            "n": cfg.n,
            "c": cfg.c,
            "N": self.big_n,
            "beta": hex32(cfg.beta),
            "beta_coords": format!("{cb:#x}"),
            "basis_top": hex32(algebra::cantor::TOWER_CANTOR_TOP),
            "P": { "hex": format!("{p_word:#x}"), "exponents": self.p.exponents() },
            "M": {
                "weight": m_exps.len(),
                "exponents": m_exps,
                "residue_counts": cnt.to_vec(),
                "occupied_residues": occ,
            },
            "weight": self.modulus.weight(),
            "residues": occ,
            "IL": {
                "words_plain": self.il_plain.iter().map(|&w| hex32(w)).collect::<Vec<_>>(),
                "sha256_plain": if self.il_plain.is_empty() { String::new() } else { sha256_words(&self.il_plain) },
                "sha256_swapped": if self.il_swapped.is_empty() { String::new() } else { sha256_words(&self.il_swapped) },
                "layout_note": "words_plain: bit b of word w = coefficient of x^(32w+b); the headers also carry swap32(word) (fafft-math.md §10.2)",
            },
            "encode_columns": self.tp.encode_cols.iter().map(|&w| hex32(w)).collect::<Vec<_>>(),
            "decode_columns": self.tp.decode_cols.iter().map(|&w| hex32(w)).collect::<Vec<_>>(),
            "r": self.tp.encode_cols.iter().map(|&w| hex32(w)).collect::<Vec<_>>(),
            "chain": {
                "kind": cfg.chain.name(),
                "gamma_l": hex32(self.tp.gammas[cfg.l as usize]),
                "offsets": offsets,
                "note": "coords(γ_j) = (coords(β) << j) XOR offsets[j]; γ_(j−1) = s_1(γ_j) (fafft-math.md §10.4)",
            },
            "gamma": self.tp.gammas.iter().map(|&g| hex32(g)).collect::<Vec<_>>(),
            "gamma_extra": self.gamma_extra.iter().map(|(j, g, _)| json!({"j": j, "value": hex32(*g)})).collect::<Vec<_>>(),
            "gamma_extra_note": self.gamma_extra_note,
            "s0_gft_sha256": sha256_words(&self.s0_gft),
            "xor_counts": self.xor_counts(),
        });
        let sum = checksum_of(&v);
        if let Value::Object(m) = &mut v {
            m.insert("checksum".into(), json!(sum));
        }
        v
    }

    fn banner(&self, file: &str, what: &str, checksum: &str) -> String {
        let c = &self.cfg;
        format!(
            "/*\n * {file}: {what}\n * Generated by: {}\n * Parameters: m = {}, l = {}, N = {}, c = {}, n = {}, beta = {} (tower hex; Cantor top {}), chain = {}\n * search {} (params.json schema {}); params.json checksum (SHA-256) = {checksum}\n * Layout: fafft-math.md §10. Do not edit by hand.\n */\n",
            self.command,
            c.m,
            c.l,
            self.big_n,
            c.c,
            c.n,
            hex32(c.beta),
            hex32(algebra::cantor::TOWER_CANTOR_TOP),
            c.chain.name(),
            env!("CARGO_PKG_VERSION"),
            SCHEMA_VERSION,
        )
    }

    /// All files of the export: (name, contents).
    pub fn files(&self) -> Vec<(String, String)> {
        let pj = self.params_json();
        let checksum = pj
            .get("checksum")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        let params = serde_json::to_string_pretty(&pj).unwrap_or_default() + "\n";
        vec![
            ("params.json".into(), params),
            ("fafft_params.h".into(), self.fafft_params_h(&checksum)),
            ("minpoly_mods_defs.h".into(), self.minpoly_h(&checksum)),
            ("IL_defs.h".into(), self.il_h(&checksum)),
            ("encode_matrix_defs.h".into(), self.encode_h(&checksum)),
            (
                "gft_mul_s_inv_i_beta_matrix_defs.h".into(),
                self.gft_h(&checksum),
            ),
            ("btfy_consts_gft.h".into(), self.s0_h(&checksum)),
            ("gen_xor_programs.h".into(), self.xor_h(&checksum)),
        ]
    }

    fn fafft_params_h(&self, ck: &str) -> String {
        let c = &self.cfg;
        let mut s = self.banner("fafft_params.h", "FAFFT and CRT parameters", ck);
        let p_word = self.p.words().first().copied().unwrap_or(0);
        s += "#ifndef FAFFT_PARAMS_H\n#define FAFFT_PARAMS_H\n\n#include <stdint.h>\n\n";
        s += &format!("#define FAFFT_M {}\n", c.m);
        s += &format!("#define FAFFT_L {}\n", c.l);
        s += &format!("#define FAFFT_N {}\n", self.big_n);
        s += &format!(
            "#define CRT_C {}{}\n",
            c.c,
            if c.c == 0 {
                "  /* no residue ring */"
            } else {
                ""
            }
        );
        s += &format!("#define HQC_N {}\n", c.n);
        s += &format!("#define FAFFT_BETA {}u\n", hex32(c.beta));
        s += &format!(
            "#define FAFFT_P {p_word:#x}ULL  /* minimal polynomial of beta, bit i = y^i */\n"
        );
        s += &format!("#define FAFFT_M_WEIGHT {}\n", self.modulus.weight());
        s += &format!(
            "#define FAFFT_CANTOR_TOP {}u\n\n",
            hex32(algebra::cantor::TOWER_CANTOR_TOP)
        );
        s += &format!(
            "/* gamma chain ({}): index j = gamma_j, index 0 = beta, index FAFFT_L = shift a */\n",
            c.chain.name()
        );
        s += &c_u32_array(
            "static const uint32_t fafft_gamma[FAFFT_L + 1]",
            &self.tp.gammas,
            4,
        );
        s += "\n/* Encode columns r_j = X_j(beta) (tower hex) */\n";
        s += &c_u32_array("static const uint32_t fafft_r[32]", &self.tp.encode_cols, 4);
        s += "\n#endif /* FAFFT_PARAMS_H */\n";
        s
    }

    fn classes(&self) -> Vec<Vec<usize>> {
        let mut cl = vec![Vec::new(); 32];
        for e in self.modulus.exponents().into_iter().rev() {
            cl[e % 32].push(e / 32);
        }
        cl
    }

    fn minpoly_h(&self, ck: &str) -> String {
        let mut s = self.banner(
            "minpoly_mods_defs.h",
            "the modulus M = P(s_L(x)): exponents e grouped by e mod 32, storing e div 32 in decreasing order (artifact layout; empty classes are zero-length arrays, a GNU C extension), plus a portable flat form",
            ck,
        );
        s += "#ifndef MINPOLY_MODS_DEFS_H\n#define MINPOLY_MODS_DEFS_H\n\n";
        let cl = self.classes();
        for (r, v) in cl.iter().enumerate() {
            s += &c_int_array(&format!("static const int minpoly_mod_{r}[{}]", v.len()), v);
            s += "\n";
        }
        s += "static const int *minpoly_mods[32] = {\n";
        for r in 0..32 {
            s += &format!("    minpoly_mod_{r},\n");
        }
        s += "};\n\n";
        let lens: Vec<usize> = cl.iter().map(|v| v.len()).collect();
        s += &c_int_array("static const int minpoly_mod_lens[32]", &lens);
        s += "\n/* Portable form: minpoly_flat[minpoly_offsets[r] .. minpoly_offsets[r+1]) = minpoly_mod_<r> */\n";
        let flat: Vec<usize> = cl.iter().flatten().copied().collect();
        s += &c_int_array(
            &format!("static const int minpoly_flat[{}]", flat.len()),
            &flat,
        );
        let mut offs = vec![0usize];
        for v in &cl {
            offs.push(offs.last().copied().unwrap_or(0) + v.len());
        }
        s += &c_int_array("static const int minpoly_offsets[33]", &offs);
        s += "\n#endif /* MINPOLY_MODS_DEFS_H */\n";
        s
    }

    fn il_h(&self, ck: &str) -> String {
        let mut s = self.banner(
            "IL_defs.h",
            "IL = M^(-1) mod x^CRT_C: plain words (bit b of word w = x^(32w+b)) and swap32 words (radix-16 layout)",
            ck,
        );
        s += "#ifndef IL_DEFS_H\n#define IL_DEFS_H\n\n#include <stdint.h>\n#include \"fafft_params.h\"\n\n";
        if self.cfg.c == 0 {
            s += "/* CRT_C = 0: no residue ring, no IL. */\n#define FAFFT_HAVE_IL 0\n";
        } else {
            s += "#define FAFFT_HAVE_IL 1\n\n";
            s += &format!(
                "/* artifact name: swap32 layout (SHA-256 {}) */\n",
                sha256_words(&self.il_swapped)
            );
            s += &c_u32_array(
                &format!(
                    "static const uint32_t IL_swapped_{}[{}]",
                    self.big_n,
                    self.il_swapped.len()
                ),
                &self.il_swapped,
                4,
            );
            s += &format!(
                "\n/* plain layout (SHA-256 {}) */\n",
                sha256_words(&self.il_plain)
            );
            s += &c_u32_array(
                "static const uint32_t IL_plain[CRT_C / 32]",
                &self.il_plain,
                4,
            );
            s += "\n/* swap32 layout (same values as the artifact-named array) */\n";
            s += &c_u32_array(
                "static const uint32_t IL_swapped[CRT_C / 32]",
                &self.il_swapped,
                4,
            );
        }
        s += "\n#endif /* IL_DEFS_H */\n";
        s
    }

    fn encode_h(&self, ck: &str) -> String {
        let mut s = self.banner(
            "encode_matrix_defs.h",
            "Encode (column j = r_j = X_j(beta)) and Decode = Encode^(-1); [i][j] = bit i of column j",
            ck,
        );
        s +=
            "#ifndef ENCODE_MATRIX_DEFS_H\n#define ENCODE_MATRIX_DEFS_H\n\n#include <stdint.h>\n\n";
        s += &c_matrix(
            "static const uint8_t encode_matrix[32][32]",
            &self.tp.encode_cols,
        );
        s += "\n";
        s += &c_matrix(
            "static const uint8_t decode_matrix[32][32]",
            &self.tp.decode_cols,
        );
        s += "\n#endif /* ENCODE_MATRIX_DEFS_H */\n";
        s
    }

    fn gft_h(&self, ck: &str) -> String {
        let mut s = self.banner(
            "gft_mul_s_inv_i_beta_matrix_defs.h",
            "butterfly constants: multiplication by gamma_j, column q = gamma_j * 2^q, row = tower bit",
            ck,
        );
        s += "#ifndef GFT_MUL_S_INV_I_BETA_MATRIX_DEFS_H\n#define GFT_MUL_S_INV_I_BETA_MATRIX_DEFS_H\n\n#include <stdint.h>\n\n";
        let total = self.cfg.l as usize + self.gamma_extra.len();
        s += &format!("/* {} */\n", self.gamma_extra_note);
        s += &format!("#define FAFFT_GFT_MATRICES {total}\n");
        let has11 = self.cfg.l >= 11 || self.gamma_extra.iter().any(|(j, _, _)| *j == 11);
        s += &format!("#define FAFFT_HAVE_GAMMA_11 {}\n\n", u8::from(has11));
        let mut all: Vec<(u32, u32)> = self.tp.gammas[1..]
            .iter()
            .enumerate()
            .map(|(i, &g)| (i as u32 + 1, g))
            .collect();
        all.extend(self.gamma_extra.iter().map(|(j, g, _)| (*j, *g)));
        for (j, g) in all {
            let cols: Vec<u32> = codegen::mul_matrix(32, g)
                .cols()
                .iter()
                .map(|&c| c as u32)
                .collect();
            s += &format!("/* gamma_{j} = {} */\n", hex32(g));
            s += &c_matrix(
                &format!("static const uint8_t gft_mul_s_inv_{j}_beta_matrix[32][32]"),
                &cols,
            );
            s += "\n";
        }
        s += "#endif /* GFT_MUL_S_INV_I_BETA_MATRIX_DEFS_H */\n";
        s
    }

    fn s0_h(&self, ck: &str) -> String {
        let mut s = self.banner(
            "btfy_consts_gft.h",
            "beta-independent butterfly table s0_gft[k] = sum_t k_t v_(t+1), k < 2048 (fafft-math.md §10.5)",
            ck,
        );
        s += "#ifndef BTFY_CONSTS_GFT_H\n#define BTFY_CONSTS_GFT_H\n\n#include <stdint.h>\n\n";
        s += &format!(
            "/* SHA-256 of the 8192 little-endian bytes: {} */\n",
            sha256_words(&self.s0_gft)
        );
        s += &c_u32_array_w("static const uint32_t s0_gft[2048]", &self.s0_gft, 8, 3);
        s += "\n#endif /* BTFY_CONSTS_GFT_H */\n";
        s
    }

    fn xor_h(&self, ck: &str) -> String {
        let mut s = self.banner(
            "gen_xor_programs.h",
            "straight-line bitsliced XOR programs (word q = bit q of 32 elements) for the gamma_j, Encode and Decode matrices (Paar greedy CSE)",
            ck,
        );
        s += "#ifndef GEN_XOR_PROGRAMS_H\n#define GEN_XOR_PROGRAMS_H\n\n#include <stdint.h>\n\n#define HAVE_GEN_XOR 1\n\n";
        let mut progs: Vec<(u32, u32, &XorProgram)> = self
            .tp
            .gamma_programs
            .iter()
            .enumerate()
            .map(|(i, p)| (i as u32 + 1, self.tp.gammas[i + 1], p))
            .collect();
        progs.extend(self.gamma_extra.iter().map(|(j, g, p)| (*j, *g, p)));
        for (j, g, p) in progs {
            s += &format!(
                "/* x32 <- gamma_{j} * x32, gamma_{j} = {}: {} XORs */\nstatic inline void gft_mul_gamma_{j}(uint32_t *x32)\n{{\n",
                hex32(g),
                p.xor_count()
            );
            s += &p.c_body("x32", "x32", "    ");
            s += "}\n\n";
        }
        for (name, p, n_in, what) in [
            ("encode_xor", &self.tp.encode, 32, "Encode (all 32 columns)"),
            (
                "encode_trunc_xor",
                &self.tp.encode_trunc,
                16,
                "truncated Encode (inputs 0..15, operands of at most N/2 bits)",
            ),
            ("decode_xor", &self.tp.decode, 32, "Decode"),
        ] {
            s += &format!(
                "/* {what}: out32[i] = XOR of in32[q] with matrix[i][q] = 1 ({n_in} inputs); {} XORs; in32 == out32 allowed */\nstatic inline void {name}(const uint32_t *in32, uint32_t *out32)\n{{\n",
                p.xor_count()
            );
            s += &p.c_body("in32", "out32", "    ");
            s += "}\n\n";
        }
        s += "#endif /* GEN_XOR_PROGRAMS_H */\n";
        s
    }
}

fn c_u32_array(decl: &str, v: &[u32], per_line: usize) -> String {
    let mut s = format!("{decl} = {{\n");
    for chunk in v.chunks(per_line) {
        s += "    ";
        s += &chunk
            .iter()
            .map(|&x| format!("{x:#010x},"))
            .collect::<Vec<_>>()
            .join(" ");
        s += "\n";
    }
    s += "};\n";
    s
}

fn c_u32_array_w(decl: &str, v: &[u32], per_line: usize, digits: usize) -> String {
    let mut s = format!("{decl} = {{\n");
    for chunk in v.chunks(per_line) {
        s += "    ";
        s += &chunk
            .iter()
            .map(|&x| format!("0x{x:0digits$x},"))
            .collect::<Vec<_>>()
            .join(" ");
        s += "\n";
    }
    s += "};\n";
    s
}

fn c_int_array(decl: &str, v: &[usize]) -> String {
    let mut s = format!("{decl} = {{\n");
    for chunk in v.chunks(8) {
        s += "    ";
        s += &chunk
            .iter()
            .map(|&x| format!("{x:>4},"))
            .collect::<Vec<_>>()
            .join(" ");
        s += "\n";
    }
    s += "};\n";
    s
}

fn c_matrix(decl: &str, cols: &[u32]) -> String {
    let mut s = format!("{decl} = {{\n");
    for i in 0..32 {
        let row: Vec<String> = (0..32).map(|j| ((cols[j] >> i) & 1).to_string()).collect();
        let _ = writeln!(s, "    {{{}}},", row.join(","));
    }
    s += "};\n";
    s
}

/// Write `files` into DIR atomically (see the module docs).
pub fn write_dir(out: &Path, files: &[(String, String)], force: bool) -> Result<(), ExportError> {
    let out_s = out.display().to_string();
    let dir_err = |reason: String| ExportError::OutDir {
        path: out_s.clone(),
        reason,
    };
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| dir_err("the path has no final component".into()))?;
    if out.exists() {
        if !out.is_dir() {
            return Err(dir_err("it exists and is not a directory".into()));
        }
        if !force {
            return Err(ExportError::Exists { path: out_s });
        }
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| dir_err(format!("cannot create parent {}: {e}", parent.display())))?;
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    std::fs::create_dir(&tmp)
        .map_err(|e| dir_err(format!("cannot create {}: {e}", tmp.display())))?;
    let result = (|| -> Result<(), ExportError> {
        for (f, text) in files {
            crate::atomic::write_atomic(&tmp.join(f), text.as_bytes())
                .map_err(|e| dir_err(format!("cannot write {f}: {e}")))?;
        }
        if out.exists() {
            let old = parent.join(format!(".{name}.old-{}", std::process::id()));
            std::fs::rename(out, &old)
                .map_err(|e| dir_err(format!("cannot move the old directory aside: {e}")))?;
            if let Err(e) = std::fs::rename(&tmp, out) {
                let _ = std::fs::rename(&old, out);
                return Err(dir_err(format!("cannot rename the new directory in: {e}")));
            }
            let _ = std::fs::remove_dir_all(&old);
        } else {
            std::fs::rename(&tmp, out)
                .map_err(|e| dir_err(format!("cannot rename the new directory in: {e}")))?;
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

/// Arguments of `search export`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExportArgs {
    /// Field degree (only 32, the Cortex-M4 tower field).
    #[arg(long, default_value_t = 32)]
    pub m: u32,
    /// Transform parameter l (N = 32·2^l).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..16))]
    pub l: u32,
    /// β in tower hex, e.g. 0x00103674.
    #[arg(long)]
    pub beta: String,
    /// Residue size c in bits (multiple of 32; 0 = no residue ring).
    #[arg(long, default_value_t = 0)]
    pub c: u64,
    /// HQC n (operand length in bits).
    #[arg(long)]
    pub n: u64,
    /// Output directory (written atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Shift chain: default | artifact | gamma:0xHEX (γ_l).
    #[arg(long, default_value = "default")]
    pub chain: String,
    /// Replace an existing output directory.
    #[arg(long)]
    pub force: bool,
}

/// Parse a hex field element.
pub fn parse_hex_u32(text: &str) -> Result<u32, ExportError> {
    let t = text.trim();
    let h = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    u32::from_str_radix(h, 16).map_err(|_| ExportError::BetaSyntax { text: t.into() })
}

impl ExportArgs {
    /// The configuration these arguments describe.
    pub fn config(&self) -> Result<ExportConfig, ExportError> {
        Ok(ExportConfig {
            m: self.m,
            l: self.l,
            beta: parse_hex_u32(&self.beta)?,
            c: self.c,
            n: self.n,
            chain: Chain::parse(&self.chain)?,
        })
    }
}

/// Build and write an export (library entry point used by `run` and the tests).
pub fn export(cfg: &ExportConfig, out: &Path, force: bool) -> Result<Export, ExportError> {
    validate(cfg)?;
    if out.exists() && !force {
        return Err(ExportError::Exists {
            path: out.display().to_string(),
        });
    }
    let e = build(cfg, &command_of(cfg, out))?;
    write_dir(out, &e.files(), force)?;
    Ok(e)
}

/// Run `search export`.
pub fn run(args: &ExportArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let e = export(&cfg, &args.out, args.force)?;
    println!(
        "exported m = {}, l = {}, N = {}, c = {}, n = {}, β = {:#010x} (wt(M) = {}, chain {}) to {}",
        cfg.m,
        cfg.l,
        e.big_n,
        cfg.c,
        cfg.n,
        cfg.beta,
        e.modulus.weight(),
        cfg.chain.name(),
        args.out.display()
    );
    Ok(())
}
