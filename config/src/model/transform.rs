//! Shift chains and the β-dependent constants of one transform (m ∈ {8, 16, 32}, tower field):
//! the chain `γ_0 = β, …, γ_l`, the Encode/Decode columns and the XOR programs of the γ_j,
//! Encode and Decode matrices (`docs/fafft.md` §6.3, §7.3).
//!
//! The XOR programs come from [`crate::model::xorprog`] (the SLP optimiser `algebra::slp::optimise`
//! at the export's fixed budget): this is the one place that turns a transform's constant
//! matrices into programs.

use crate::model::xorprog::{naive_count, rows_of, XorProgram};
use algebra::bitmatrix::BitMatrix;

/// Errors of chain and constant construction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// The chain text is not `default`, `artifact` or `gamma:0xHEX`.
    #[error("unknown chain `{text}`: expected `default`, `artifact` or `gamma:0xHEX` (γ_l in tower hex)")]
    Parse { text: String },
    /// The artifact chain is only defined for m = 32 and l ≤ 11.
    #[error(
        "the artifact chain (gamma_11 offset 0x76) needs m = 32 and l ≤ 11, got m = {m}, l = {l}"
    )]
    ArtifactRange { m: u32, l: u32 },
    /// An explicit γ_l does not satisfy s_l(γ_l) = β.
    #[error("gamma {gamma:#010x} is not a valid γ_{l}: s_{l}(γ) has Cantor coordinates {got:#x}, β has {want:#x}")]
    NotPreimage {
        gamma: u32,
        l: u32,
        got: u64,
        want: u64,
    },
    /// The field element does not fit the field.
    #[error("{value:#x} is not an element of F_2^{m}")]
    OutOfField { value: u64, m: u32 },
    /// Encode is singular (β not of degree m).
    #[error("Encode matrix of β = {beta:#x} is singular (β must have degree m)")]
    Singular { beta: u32 },
    /// The artifact layout holds γ_1 … γ_11 of the m = 32 field.
    #[error("the artifact layout needs m = 32 and l <= 11, got m = {m}, l = {l}")]
    ArtifactLayout { m: u32, l: u32 },
    /// The XOR-program optimiser refused a matrix (a bug: the FAFFT matrices are 32 x 32).
    #[error("XOR program of the {what} matrix: {reason}")]
    Program { what: String, reason: String },
}

fn prog_err(what: &str) -> impl Fn(algebra::slp::SlpError) -> ChainError + '_ {
    move |e| ChainError::Program {
        what: what.into(),
        reason: e.to_string(),
    }
}

/// Offset of the artifact chain at level 11: `coords(γ_11) = (coords(β) << 11) XOR 0x76`, and
/// `o_j = 0x76 >> (11 − j)` below (docs/params-json.md, "chain").
pub const ARTIFACT_OFFSET_11: u64 = 0x76;

/// Which shift chain `γ_0 = β, …, γ_l = a` a transform uses (`docs/fafft.md` §7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chain {
    /// `coords(γ_j) = coords(β) << j`.
    Default,
    /// The Cortex-M4 artifact's offsets: `coords(γ_j) = (coords(β) << j) XOR (0x76 >> (11 − j))`.
    Artifact,
    /// An explicit `γ_l` (tower hex); `γ_j = s_{l−j}(γ_l)`.
    Gamma(u32),
}

impl Chain {
    /// Parse `default`, `artifact` or `gamma:0xHEX`.
    pub fn parse(text: &str) -> Result<Chain, ChainError> {
        let t = text.trim();
        match t {
            "default" => Ok(Chain::Default),
            "artifact" => Ok(Chain::Artifact),
            _ => {
                let hex = t
                    .strip_prefix("gamma:")
                    .ok_or_else(|| ChainError::Parse { text: t.into() })?;
                let h = hex.trim_start_matches("0x").trim_start_matches("0X");
                u32::from_str_radix(h, 16)
                    .map(Chain::Gamma)
                    .map_err(|_| ChainError::Parse { text: t.into() })
            }
        }
    }
    /// `default`, `artifact` or `gamma:0x…`.
    pub fn name(&self) -> String {
        match self {
            Chain::Default => "default".into(),
            Chain::Artifact => "artifact".into(),
            Chain::Gamma(g) => format!("gamma:{g:#010x}"),
        }
    }
    /// `γ_l`, the shift a, for β at level l in F_{2^m} (tower subfield, reference Cantor basis).
    pub fn gamma_top(&self, m: u32, l: u32, beta: u32) -> Result<u32, ChainError> {
        let cb = coords(beta);
        let mask = field_mask(m);
        let g = match *self {
            Chain::Default => element(cb << l),
            Chain::Artifact => {
                if m != 32 || l > 11 {
                    return Err(ChainError::ArtifactRange { m, l });
                }
                element((cb << l) ^ (ARTIFACT_OFFSET_11 >> (11 - l)))
            }
            Chain::Gamma(g) => {
                if u64::from(g) > mask {
                    return Err(ChainError::OutOfField { value: g.into(), m });
                }
                let got = coords(g) >> l;
                if got != cb {
                    return Err(ChainError::NotPreimage {
                        gamma: g,
                        l,
                        got,
                        want: cb,
                    });
                }
                g
            }
        };
        if u64::from(g) > mask {
            return Err(ChainError::OutOfField { value: g.into(), m });
        }
        Ok(g)
    }
}

fn basis32() -> &'static algebra::cantor::CantorBasis<algebra::field::Tower32> {
    use std::sync::OnceLock;
    static B: OnceLock<algebra::cantor::CantorBasis<algebra::field::Tower32>> = OnceLock::new();
    B.get_or_init(algebra::cantor::CantorBasis::tower32)
}

/// Cantor coordinates of a tower element (reference basis; subfield elements keep their
/// coordinates since `v_0 … v_{m−1}` of the subfield bases are those of the m = 32 basis).
pub fn coords(z: u32) -> u64 {
    basis32().coords(algebra::field::Tower32::from_bits(z.into()))
}

/// Whether an explicit β of `F_2^m` (m ≤ 32) is an admissible shift for l:
/// `β ∈ V_{m−l} \ V_{m/2}` (docs/fafft.md §7.1). Ok: its Cantor coordinates; Err: why not, in
/// the words the planner and the fit print.
pub fn admissible_coords(m: u32, l: u32, beta: u32) -> Result<u64, String> {
    let mask = if m >= 32 { u32::MAX } else { (1u32 << m) - 1 };
    if beta & !mask != 0 {
        return Err(format!("not an element of F_2^{m}"));
    }
    let c = coords(beta);
    if c >> (m - l) != 0 {
        return Err(format!(
            "Cantor coordinates {c:#x} lie outside V_{} (no preimage under s_{l})",
            m - l
        ));
    }
    if c >> (m / 2) == 0 {
        return Err(format!(
            "Cantor coordinates {c:#x} lie in the subfield V_{} (degree < m)",
            m / 2
        ));
    }
    Ok(c)
}

/// The tower element with Cantor coordinates c (bits ≥ 32 ignored).
pub fn element(c: u64) -> u32 {
    basis32().element(c).0
}

fn field_mask(m: u32) -> u64 {
    if m >= 32 {
        0xffff_ffff
    } else {
        (1u64 << m) - 1
    }
}

use algebra::field::BinaryField as _;

/// Tower product (any subfield).
pub fn tmul(a: u32, b: u32) -> u32 {
    algebra::field::tower::tower_mul_fast(a, b)
}

/// Matrix of multiplication by g in F_{2^m}: column q = `g·2^q`.
pub fn mul_matrix(m: u32, g: u32) -> BitMatrix {
    BitMatrix::from_cols((0..m).map(|q| u64::from(tmul(g, 1u32 << q))).collect())
}

/// The constant tables and XOR programs of one transform.
#[derive(Clone, Debug)]
pub struct TransformPrograms {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// β.
    pub beta: u32,
    /// γ_0 = β, …, γ_l = a.
    pub gammas: Vec<u32>,
    /// Programs of multiplication by γ_j, j = 1 … l (index j − 1).
    pub gamma_programs: Vec<XorProgram>,
    /// Naive XOR counts of the γ_j matrices.
    pub gamma_naive: Vec<usize>,
    /// Encode columns `r_j = X_j(β)`.
    pub encode_cols: Vec<u32>,
    /// Decode columns.
    pub decode_cols: Vec<u32>,
    /// Encode program (all m columns).
    pub encode: XorProgram,
    /// Encode program on the first m/2 columns (truncated Encode).
    pub encode_trunc: XorProgram,
    /// Decode program.
    pub decode: XorProgram,
}

impl TransformPrograms {
    /// Build for (m, l, β) with shift γ_l, every program from the SLP optimiser at the export
    /// budget (what exports, the board and the model comparison of one configuration use).
    pub fn new(m: u32, l: u32, beta: u32, gamma_l: u32) -> Result<Self, ChainError> {
        Self::build(m, l, beta, gamma_l, &|what, rows, n| {
            XorProgram::optimised(rows, n).map_err(prog_err(what))
        })
    }

    /// The same matrices with Paar's greedy CSE alone (the optimiser's deterministic baseline):
    /// the planner's screening proxy, cheap enough to price every candidate transform of
    /// `search crt` (docs/slp.md). Its XOR counts are an upper bound of the optimised ones.
    pub fn screening(m: u32, l: u32, beta: u32, gamma_l: u32) -> Result<Self, ChainError> {
        Self::build(m, l, beta, gamma_l, &|what, rows, n| {
            XorProgram::paar_baseline(rows, n).map_err(prog_err(what))
        })
    }

    /// The tables of (m, l, β, γ_l) with each program from `program(what, rows, n_in)`, `what`
    /// being `gamma_j`, `Encode`, `truncated Encode` or `Decode` (the optimiser, or the
    /// programs of an export that `verify` proves, [`crate::model::artefacts`]).
    #[allow(clippy::type_complexity)]
    pub fn build(
        m: u32,
        l: u32,
        beta: u32,
        gamma_l: u32,
        program: &dyn Fn(&str, &[u64], usize) -> Result<XorProgram, ChainError>,
    ) -> Result<Self, ChainError> {
        let t = m.trailing_zeros();
        let gl = coords(gamma_l);
        let gammas: Vec<u32> = (0..=l).map(|j| element(gl >> (l - j))).collect();
        let cb = coords(beta);
        let sk: Vec<u32> = (0..t).map(|k| element(cb >> k)).collect();
        let encode_cols: Vec<u32> = (0..m as usize)
            .map(|j| {
                (0..t as usize)
                    .filter(|&k| (j >> k) & 1 == 1)
                    .fold(1u32, |acc, k| tmul(acc, sk[k]))
            })
            .collect();
        let enc = BitMatrix::from_cols(encode_cols.iter().map(|&c| u64::from(c)).collect());
        let dec = enc.inverse().map_err(|_| ChainError::Singular { beta })?;
        let decode_cols: Vec<u32> = dec.cols().iter().map(|&c| c as u32).collect();
        let n = m as usize;
        let mut gamma_programs = Vec::new();
        let mut gamma_naive = Vec::new();
        for (j, &g) in gammas.iter().enumerate().skip(1) {
            let mm = mul_matrix(m, g);
            let p = program(&format!("gamma_{j}"), &rows_of(&mm, n, n), n)?;
            gamma_programs.push(p);
            gamma_naive.push(naive_count(&mm));
        }
        let enc_rows = rows_of(&enc, n, n);
        let enc_trunc_rows = rows_of(&enc, n, n / 2);
        Ok(TransformPrograms {
            m,
            l,
            beta,
            gammas,
            gamma_programs,
            gamma_naive,
            encode: program("Encode", &enc_rows, n)?,
            encode_trunc: program("truncated Encode", &enc_trunc_rows, n / 2)?,
            decode: program("Decode", &rows_of(&dec, n, n), n)?,
            encode_cols,
            decode_cols,
        })
    }

    /// Encode as a matrix.
    pub fn encode_matrix(&self) -> BitMatrix {
        BitMatrix::from_cols(self.encode_cols.iter().map(|&c| u64::from(c)).collect())
    }
    /// Decode as a matrix.
    pub fn decode_matrix(&self) -> BitMatrix {
        BitMatrix::from_cols(self.decode_cols.iter().map(|&c| u64::from(c)).collect())
    }
}

/// An extra γ_j (j > l, up to 11) for the artifact's 11-matrix layout.
#[derive(Clone, Debug)]
pub struct GammaExtra {
    /// j.
    pub j: u32,
    /// γ_j.
    pub value: u32,
    /// Its XOR program.
    pub program: XorProgram,
}
