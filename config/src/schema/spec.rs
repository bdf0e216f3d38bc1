//! params.json, schema v3: the typed definition, its canonical JSON and checksum, and
//! [`load`] (docs/params-json.md). [`Loaded::verify`] (in [`crate::verify`]) re-derives every
//! field from (m, l, β, chain, c, n).
//!
//! * `config_id` = SHA-256 of the canonical JSON of all fields except the provenance (`command`,
//!   `tool_version`), `files`, `config_id` and `checksum`: two exports of one configuration
//!   have the same `config_id` wherever they were written. Every exported header names it in
//!   its banner.
//! * `files` = SHA-256 of every other exported file (the headers), by file name.
//! * `checksum` = SHA-256 of the canonical JSON of all fields except `checksum`: it covers the
//!   parameters and, through `files`, every exported file.
//!
//! Canonical JSON: object keys sorted by their UTF-8 bytes, no whitespace, strings as
//! serde_json writes them, integers in decimal ([`canonical_json`]).

use crate::model::derive::{Config, Derived, SecondDerived};
use crate::model::error::ConfigError;
use crate::model::layout::sha256_words;
use crate::model::transform;
use crate::model::xorprog::naive_count;
use crate::schema::hex::{Digest, Hex32, Hex64};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The schema version this build writes and reads.
pub const SCHEMA_VERSION: u32 = 3;

/// Name of the parameter file inside an export directory.
pub const PARAMS_FILE: &str = "params.json";

/// The version of the tools (recorded as `tool_version`).
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// params.json (schema v3). Field by field in docs/params-json.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// 2.
    pub schema_version: u32,
    /// Version of the tool that wrote the file.
    pub tool_version: String,
    /// The canonical `search export` command line.
    pub command: String,
    /// Field degree (32).
    pub m: u32,
    /// Transform parameter l.
    pub l: u32,
    /// HQC n.
    pub n: u64,
    /// Residue size c (0 = none).
    pub c: u64,
    /// The 2-Karatsuba split (docs/fafft.md §9.11); absent (not written) without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<crate::model::rules::Split>,
    /// The second modulus of a two-moduli export (docs/fafft.md §9.8); absent (not written)
    /// without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<SecondSpec>,
    /// N = m·2^l.
    #[serde(rename = "N")]
    pub big_n: u64,
    /// β (tower hex).
    pub beta: Hex32,
    /// Cantor coordinates of β.
    pub beta_coords: Hex64,
    /// Top element of the Cantor basis (tower hex).
    pub basis_top: Hex32,
    /// P, the minimal polynomial of β.
    #[serde(rename = "P")]
    pub p: PSpec,
    /// M = P(s_l(x)).
    #[serde(rename = "M")]
    pub modulus: MSpec,
    /// wt(M) (= `M.weight`).
    pub weight: u64,
    /// Occupied residues of supp M mod 32 (= `M.occupied_residues`).
    pub residues: u64,
    /// IL = M^{-1} mod x^c.
    #[serde(rename = "IL")]
    pub il: IlSpec,
    /// Encode columns `r_j = X_j(β)`.
    pub encode_columns: Vec<Hex32>,
    /// Decode columns (Decode = Encode^{-1}).
    pub decode_columns: Vec<Hex32>,
    /// `r_j` (= `encode_columns`).
    pub r: Vec<Hex32>,
    /// The shift chain.
    pub chain: ChainSpec,
    /// γ_0 = β, …, γ_l.
    pub gamma: Vec<Hex32>,
    /// γ_j for j > l emitted for the 11-matrix layout.
    pub gamma_extra: Vec<GammaExtraSpec>,
    /// Why `gamma_extra` is what it is.
    pub gamma_extra_note: String,
    /// SHA-256 of `s0_gft` (little-endian words).
    pub s0_gft_sha256: Digest,
    /// XOR counts of the generated programs.
    pub xor_counts: XorCounts,
    /// SHA-256 of every other exported file, by name.
    pub files: BTreeMap<String, Digest>,
    /// SHA-256 of the canonical JSON without `files`, `config_id`, `checksum`.
    pub config_id: Digest,
    /// SHA-256 of the canonical JSON without `checksum`.
    pub checksum: Digest,
}

/// `second`: the second modulus of a two-moduli export (docs/params-json.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondSpec {
    /// l of the second transform.
    pub l: u32,
    /// β of the second transform (tower hex).
    pub beta: Hex32,
    /// N2 = m·2^l.
    #[serde(rename = "N")]
    pub big_n: u64,
    /// wt(M2).
    pub weight: u64,
    /// Exponents of M2, increasing.
    pub exponents: Vec<u64>,
    /// The folder of the second transform's headers and routines.
    pub dir: String,
    /// wt(W), W = M1^{-1} mod M2.
    pub w_weight: u64,
    /// SHA-256 of W in plain words (N2/32, little-endian).
    pub w_sha256: Digest,
    /// SHA-256 of the `F2(W)` table in the second instance's layout B (little-endian words).
    pub w_evals_sha256: Digest,
    /// The header holding the two-moduli tables.
    pub tables_file: String,
}

fn words_digest(w: &[u32]) -> Digest {
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    Digest::of(&bytes)
}

/// The folder of a two-moduli export's second transform.
pub const SECOND_DIR: &str = "second";
/// The header of a two-moduli export's tables (docs/firmware-layout.md §14).
pub const TWOMOD_FILE: &str = "twomod_defs.h";

impl SecondSpec {
    /// The rule inputs.
    pub fn rule(&self) -> crate::model::rules::Second {
        crate::model::rules::Second {
            l: self.l,
            beta: self.beta.0,
        }
    }
}

/// `P`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PSpec {
    /// P as a word, bit i = y^i.
    pub hex: Hex64,
    /// Exponents of P, increasing.
    pub exponents: Vec<u32>,
}

/// `M`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MSpec {
    /// wt(M).
    pub weight: u64,
    /// Exponents of M, increasing.
    pub exponents: Vec<u64>,
    /// `cnt[r]`, r = 0 … 31.
    pub residue_counts: Vec<u64>,
    /// `#{r : cnt[r] > 0}`.
    pub occupied_residues: u64,
}

/// `IL`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IlSpec {
    /// c/32 words, bit b of word w = coefficient of x^(32w+b) (empty when c = 0).
    pub words_plain: Vec<Hex32>,
    /// SHA-256 of the plain words (null when c = 0).
    pub sha256_plain: Option<Digest>,
    /// SHA-256 of the swap32 words (null when c = 0).
    pub sha256_swapped: Option<Digest>,
}

/// `chain`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainSpec {
    /// `default`, `artifact` or `gamma:0x…`.
    pub kind: String,
    /// γ_l.
    pub gamma_l: Hex32,
    /// o_j with `coords(γ_j) = (coords(β) << j) XOR o_j`, j = 0 … l.
    pub offsets: Vec<Hex64>,
}

/// One entry of `gamma_extra`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GammaExtraSpec {
    /// j.
    pub j: u32,
    /// γ_j.
    pub value: Hex32,
}

/// `xor_counts`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct XorCounts {
    /// `paar-greedy`.
    pub method: String,
    /// `gamma[j − 1]` = XORs of the γ_j program, j = 1 … l, then the `gamma_extra` ones.
    pub gamma: Vec<u64>,
    /// Full Encode.
    pub encode: u64,
    /// Truncated Encode (first m/2 columns).
    pub encode_trunc: u64,
    /// Decode.
    pub decode: u64,
    /// Counts without sharing.
    pub naive: NaiveCounts,
}

/// `xor_counts.naive`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NaiveCounts {
    /// γ_j, j = 1 … l.
    pub gamma: Vec<u64>,
    /// Encode.
    pub encode: u64,
    /// Decode.
    pub decode: u64,
}

/// Who wrote an export: recorded in params.json and in every header banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The canonical command line.
    pub command: String,
    /// The tool version.
    pub tool_version: String,
}

/// Canonical JSON: keys sorted bytewise, no whitespace (module docs).
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

fn digest_without(v: &Value, keys: &[&str]) -> Digest {
    let mut c = v.clone();
    if let Value::Object(m) = &mut c {
        for k in keys {
            m.remove(*k);
        }
    }
    Digest::of(canonical_json(&c).as_bytes())
}

/// `checksum` of a params.json value: SHA-256 of its canonical JSON without `checksum`.
pub fn checksum_of(v: &Value) -> Digest {
    digest_without(v, &["checksum"])
}

/// `config_id` of a params.json value: SHA-256 of its canonical JSON without the provenance
/// (`command`, `tool_version`), `files`, `config_id` and `checksum` (module docs).
pub fn config_id_of(v: &Value) -> Digest {
    digest_without(
        v,
        &["command", "tool_version", "files", "config_id", "checksum"],
    )
}

/// Recompute `config_id` and `checksum` of a params.json value in place (for tools and tests
/// that re-stamp a value; `files` is kept as it is).
pub fn restamp(v: &mut Value) {
    let id = config_id_of(v);
    if let Value::Object(m) = v {
        m.insert("config_id".into(), Value::String(id.to_string()));
    }
    let sum = checksum_of(v);
    if let Value::Object(m) = v {
        m.insert("checksum".into(), Value::String(sum.to_string()));
    }
}

fn hexes(v: &[u32]) -> Vec<Hex32> {
    v.iter().map(|&x| Hex32(x)).collect()
}

impl SecondSpec {
    /// The `second` object of a two-moduli derivation.
    fn of(s2: &SecondDerived) -> SecondSpec {
        SecondSpec {
            l: s2.block.cfg.l,
            beta: Hex32(s2.block.cfg.beta),
            big_n: s2.block.big_n,
            weight: s2.block.modulus.weight() as u64,
            exponents: s2
                .block
                .modulus
                .exponents()
                .iter()
                .map(|&e| e as u64)
                .collect(),
            dir: SECOND_DIR.into(),
            w_weight: s2.w.weight() as u64,
            w_sha256: words_digest(&s2.w_plain),
            w_evals_sha256: words_digest(&s2.w_evals),
            tables_file: TWOMOD_FILE.into(),
        }
    }
}

impl XorCounts {
    /// The `xor_counts` object of a derivation (the γ_j of the 11-matrix layout included).
    fn of(d: &Derived) -> XorCounts {
        let mut gamma_xor: Vec<u64> =
            d.tp.gamma_programs
                .iter()
                .map(|p| p.xor_count() as u64)
                .collect();
        gamma_xor.extend(d.gamma_extra.iter().map(|g| g.program.xor_count() as u64));
        XorCounts {
            method: d.programs_method.clone(),
            gamma: gamma_xor,
            encode: d.tp.encode.xor_count() as u64,
            encode_trunc: d.tp.encode_trunc.xor_count() as u64,
            decode: d.tp.decode.xor_count() as u64,
            naive: NaiveCounts {
                gamma: d.tp.gamma_naive.iter().map(|&c| c as u64).collect(),
                encode: naive_count(&d.tp.encode_matrix()) as u64,
                decode: naive_count(&d.tp.decode_matrix()) as u64,
            },
        }
    }
}

impl Params {
    /// The configuration this file records (m, l, β, chain, c, n, split, second): the inputs of
    /// its derivation, converted once here for every reader ([`Loaded::verify`], the reuse of
    /// an export by `search crt --measure`).
    pub fn config(&self) -> Result<Config, transform::ChainError> {
        let chain = transform::Chain::parse(&self.chain.kind)?;
        Ok(
            Config::new(self.m, self.l, self.beta.0, chain, self.c, self.n)
                .with_split(self.split)
                .with_second(self.second.as_ref().map(|s| s.rule())),
        )
    }

    /// The params of a derivation, with the given `files` map; `config_id` and `checksum` are
    /// computed here.
    pub fn new(d: &Derived, prov: &Provenance, files: BTreeMap<String, Digest>) -> Params {
        let cfg = &d.cfg;
        let cb = transform::coords(cfg.beta);
        let offsets =
            d.tp.gammas
                .iter()
                .enumerate()
                .map(|(j, &g)| Hex64(transform::coords(g) ^ (cb << j)))
                .collect();
        let exps: Vec<u64> = d.modulus.exponents().iter().map(|&e| e as u64).collect();
        let nonempty = |w: &[u32]| {
            (!w.is_empty())
                .then(|| Digest::new(&sha256_words(w)))
                .flatten()
        };
        let zero = Digest::of(b"");
        let mut p = Params {
            schema_version: SCHEMA_VERSION,
            tool_version: prov.tool_version.clone(),
            command: prov.command.clone(),
            m: cfg.m,
            l: cfg.l,
            n: cfg.n,
            c: cfg.c,
            split: cfg.split,
            second: d.second.as_ref().map(|s2| SecondSpec::of(s2)),
            big_n: d.big_n,
            beta: Hex32(cfg.beta),
            beta_coords: Hex64(cb),
            basis_top: Hex32(algebra::cantor::TOWER_CANTOR_TOP),
            p: PSpec {
                hex: Hex64(d.p_word()),
                exponents: d.p.exponents().iter().map(|&e| e as u32).collect(),
            },
            modulus: MSpec {
                weight: exps.len() as u64,
                exponents: exps,
                residue_counts: d.residue_counts.iter().map(|&k| k as u64).collect(),
                occupied_residues: d.occupied_residues as u64,
            },
            weight: d.modulus.weight() as u64,
            residues: d.occupied_residues as u64,
            il: IlSpec {
                words_plain: hexes(&d.il_plain),
                sha256_plain: nonempty(&d.il_plain),
                sha256_swapped: nonempty(&d.il_swapped),
            },
            encode_columns: hexes(&d.tp.encode_cols),
            decode_columns: hexes(&d.tp.decode_cols),
            r: hexes(&d.tp.encode_cols),
            chain: ChainSpec {
                kind: cfg.chain.name(),
                gamma_l: Hex32(d.gamma_l()),
                offsets,
            },
            gamma: hexes(&d.tp.gammas),
            gamma_extra: d
                .gamma_extra
                .iter()
                .map(|g| GammaExtraSpec {
                    j: g.j,
                    value: Hex32(g.value),
                })
                .collect(),
            gamma_extra_note: d.gamma_extra_note.clone(),
            s0_gft_sha256: Digest::new(&sha256_words(&d.s0_gft)).unwrap_or(zero.clone()),
            xor_counts: XorCounts::of(d),
            files,
            config_id: zero.clone(),
            checksum: zero,
        };
        p.stamp();
        p
    }

    /// The params as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Recompute `config_id` and `checksum` from the other fields.
    fn stamp(&mut self) {
        let v = self.to_value();
        self.config_id = config_id_of(&v);
        let v = self.to_value();
        self.checksum = checksum_of(&v);
    }

    /// The file text: pretty JSON and a final newline.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// A params.json that parsed, has schema v3 and a matching checksum (not yet verified).
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The file as given.
    pub path: PathBuf,
    /// Its directory (where the exported files are).
    pub dir: PathBuf,
    /// The parameters.
    pub params: Params,
}

/// Read and parse a params.json: schema_version must be [`SCHEMA_VERSION`], the fields the
/// typed ones (unknown fields are refused), and the checksum must match. Then call
/// [`Loaded::verify`].
pub fn load(path: &Path) -> Result<Loaded, ConfigError> {
    let ps = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
        path: ps.clone(),
        source,
    })?;
    let v: Value = serde_json::from_str(&text).map_err(|e| ConfigError::Json {
        path: ps.clone(),
        reason: e.to_string(),
    })?;
    let obj = v.as_object().ok_or_else(|| ConfigError::Json {
        path: ps.clone(),
        reason: "expected a JSON object".into(),
    })?;
    match obj.get("schema_version").and_then(Value::as_u64) {
        Some(s) if s == u64::from(SCHEMA_VERSION) => {}
        other => {
            return Err(ConfigError::Schema {
                path: ps,
                found: match (other, obj.get("schema_version")) {
                    (Some(s), _) => s.to_string(),
                    (None, Some(x)) => x.to_string(),
                    (None, None) => "missing".into(),
                },
                expected: SCHEMA_VERSION,
            })
        }
    }
    let params: Params = serde_json::from_value(v.clone()).map_err(|e| ConfigError::Field {
        path: ps.clone(),
        reason: e.to_string(),
    })?;
    let actual = checksum_of(&v);
    if actual != params.checksum {
        return Err(ConfigError::Checksum {
            path: ps,
            stated: params.checksum.to_string(),
            actual: actual.to_string(),
        });
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok(Loaded {
        path: path.to_path_buf(),
        dir,
        params,
    })
}
