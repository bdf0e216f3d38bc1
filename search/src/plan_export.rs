//! `search export --plan FILE [--rank K]`: the configuration of a ranked plan, read from the
//! JSON report that ranked it, so nobody copies β, chain, l, c and n into flags by hand
//! (docs/cli.md §2.6).
//!
//! FILE is read by the bounded reader [`fafft_config::input`] and parsed with the writer's own
//! serde types: a `search crt --json` report as [`PlanReport`] by the crt reports' one reader
//! [`crate::crt_report`] (digest and recomputable fields checked; plans in rank order; the
//! chosen plan's modulus is recomputed from its β), a joint-search report (`search moduli
//! --objective product`) as [`JointReport`] (rank K is the K-th entry of `optimised`, best
//! modelled product first). The plan becomes the same
//! [`ExportConfig`] the flags would give, so the exported folder, its params.json and the
//! `command` recorded there are byte for byte those of the flag-based export.

use crate::crt_plan::{Plan, PlanKind, PlanReport};
use crate::crt_report::{self, ReportError};
use crate::joint::{JointReport, JOINT_SCHEMA_VERSION};
use fafft_config::beta::parse_u32;
use fafft_config::derive::Config as ExportConfig;
use fafft_config::input::{read_bytes, InputError, REPORT_JSON};
use fafft_config::rules::{Second, Split};
use fafft_config::transform::Chain;
use fafft_config::ConfigError;
use std::path::Path;
use thiserror::Error;

/// Which plan of the report `--rank` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// The plan of this 1-based rank.
    Number(usize),
    /// `first-residue-or-single`: the best plan of kind `residue` or `single` (one FAFFT
    /// modulus with or without a residue ring x^c; what `hqc-verify kat` runs on the host).
    FirstResidueOrSingle,
}

/// The spelling of [`Rank::FirstResidueOrSingle`].
pub const FIRST_RESIDUE_OR_SINGLE: &str = "first-residue-or-single";

impl std::fmt::Display for Rank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rank::Number(k) => write!(f, "{k}"),
            Rank::FirstResidueOrSingle => f.write_str(FIRST_RESIDUE_OR_SINGLE),
        }
    }
}

/// `--rank`: a number 1, 2, … or `first-residue-or-single`.
pub fn parse_rank(text: &str) -> Result<Rank, String> {
    if text == FIRST_RESIDUE_OR_SINGLE {
        return Ok(Rank::FirstResidueOrSingle);
    }
    match text.parse::<usize>() {
        Ok(k) if k >= 1 => Ok(Rank::Number(k)),
        _ => Err(format!(
            "expected a rank 1, 2, … or `{FIRST_RESIDUE_OR_SINGLE}`"
        )),
    }
}

/// "no plans", "1 plan (rank 1)", "K plans (ranks 1 to K)".
fn plans(count: usize) -> String {
    match count {
        0 => "no plans".into(),
        1 => "1 plan (rank 1)".into(),
        k => format!("{k} plans (ranks 1 to {k})"),
    }
}

/// Why a plan could not be turned into an export configuration.
#[derive(Debug, Error)]
pub enum PlanExportError {
    /// FILE could not be read (bounded reader).
    #[error(transparent)]
    Input(#[from] InputError),
    /// FILE is not a report of either writer.
    #[error("{path} is not a `search crt` or joint-search JSON report: {reason}")]
    Json {
        /// FILE.
        path: String,
        /// The parser's reason.
        reason: String,
    },
    /// The joint-search report's schema is not the one this tool writes.
    #[error("{path} is a joint-search report of schema_version {found}; this search reads schema_version {expected} (re-run the command that wrote it)")]
    Schema {
        /// FILE.
        path: String,
        /// The file's schema.
        found: u32,
        /// This tool's schema.
        expected: u32,
    },
    /// A crt report refused by its reader (schema, an edited field, the digest).
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A joint-search shard part (no optimised plans).
    #[error("{path} is a shard part of a joint search, which lists no optimised plans; join the parts with `search merge` and export from the merged report")]
    Shard {
        /// FILE.
        path: String,
    },
    /// `--rank K` beyond the plans.
    #[error("--rank {rank}: {path} has {}", plans(*count))]
    Rank {
        /// K.
        rank: usize,
        /// FILE.
        path: String,
        /// How many plans it lists.
        count: usize,
    },
    /// `--rank first-residue-or-single` and no such plan.
    #[error("--rank {FIRST_RESIDUE_OR_SINGLE}: {path} has no plan of kind residue or single (it has {})", plans(*count))]
    NoResidueOrSingle {
        /// FILE.
        path: String,
        /// How many plans it lists.
        count: usize,
    },
    /// The plan's kind cannot be built by the export.
    #[error(
        "plan rank {rank} of {path} is a {kind} plan that `search export` cannot build: {why}"
    )]
    Kind {
        /// The plan's rank.
        rank: usize,
        /// FILE.
        path: String,
        /// Its kind as the report spells it.
        kind: String,
        /// What is missing.
        why: &'static str,
    },
    /// A value of the plan is refused (β, chain).
    #[error("plan rank {rank} of {path}: {source}")]
    Config {
        /// The plan's rank.
        rank: usize,
        /// FILE.
        path: String,
        /// The refusal.
        source: Box<ConfigError>,
    },
}

/// A plan chosen from a report, as an export configuration.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// Its rank in the report.
    pub rank: usize,
    /// Its label (`2^15 + x^3072`, or the joint entry's β and chain).
    pub label: String,
    /// The configuration the flag-based export would build from the same values.
    pub config: ExportConfig,
}

/// Read FILE (crt or joint-search report) and turn the plan `rank` selects into a configuration.
pub fn choose(file: &Path, rank: Rank) -> Result<Chosen, PlanExportError> {
    let bytes = read_bytes(file, REPORT_JSON)?;
    let path = file.display().to_string();
    let json_err = |e: serde_json::Error| PlanExportError::Json {
        path: path.clone(),
        reason: e.to_string(),
    };
    if crate::joint::is_joint(&bytes) {
        let report: JointReport = serde_json::from_slice(&bytes).map_err(json_err)?;
        joint_plan(&report, rank, &path)
    } else {
        let modulus = |r: &PlanReport| {
            select(r, rank).map_or(Ok(()), |plan| crt_report::check_modulus(r.m, plan))
        };
        let read = crt_report::parse(
            &bytes,
            &path,
            Some((
                "the exported plan's modulus recomputed from its β",
                &modulus,
            )),
        )
        .map_err(|e| match e {
            // neither report: say so for both
            ReportError::Json { path, reason } => PlanExportError::Json { path, reason },
            e => e.into(),
        })?;
        crt_plan(&read.report, rank, &path)
    }
}

fn rank_error(rank: Rank, path: &str, count: usize) -> PlanExportError {
    match rank {
        Rank::Number(k) => PlanExportError::Rank {
            rank: k,
            path: path.into(),
            count,
        },
        Rank::FirstResidueOrSingle => PlanExportError::NoResidueOrSingle {
            path: path.into(),
            count,
        },
    }
}

/// The plan of a `search crt` report (read by [`crt_report`]), its modulus recomputed from
/// its β ([`crt_report::check_modulus`]).
pub fn crt_plan(report: &PlanReport, rank: Rank, path: &str) -> Result<Chosen, PlanExportError> {
    let plan = select(report, rank).ok_or_else(|| rank_error(rank, path, report.plans.len()))?;
    crt_report::check_modulus(report.m, plan).map_err(|problem| ReportError::Inconsistent {
        path: path.into(),
        problem,
    })?;
    Ok(Chosen {
        rank: plan.rank,
        label: plan.label.clone(),
        config: plan_config(report.m, report.n, plan, path)?,
    })
}

/// The plan of `report` that `rank` selects.
fn select(report: &PlanReport, rank: Rank) -> Option<&Plan> {
    match rank {
        Rank::Number(k) => report.plans.iter().find(|p| p.rank == k),
        Rank::FirstResidueOrSingle => report
            .plans
            .iter()
            .find(|p| matches!(p.kind, PlanKind::Residue | PlanKind::Single)),
    }
}

/// The kind as the report spells it (`two_moduli`).
fn kind_name(kind: PlanKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{kind:?}"))
}

/// The flags of a crt plan: `--l --beta --chain` of its (first) transform, `--c` (0 for a
/// split, whose `c` is the residual's size, and for two moduli, whose `c` is N2),
/// `--split-k --split-words` of a karatsuba2 plan, `--second-l --second-beta` of a two-moduli
/// plan's second transform.
pub fn plan_config(
    m: u32,
    n: u64,
    plan: &Plan,
    path: &str,
) -> Result<ExportConfig, PlanExportError> {
    let refuse = |why: &'static str| PlanExportError::Kind {
        rank: plan.rank,
        path: path.into(),
        kind: kind_name(plan.kind),
        why,
    };
    let config_err = |e: ConfigError| PlanExportError::Config {
        rank: plan.rank,
        path: path.into(),
        source: Box::new(e),
    };
    let t0 = plan
        .transforms
        .first()
        .ok_or_else(|| refuse("the plan lists no transform"))?;
    let (c, split, second) = match plan.kind {
        PlanKind::Single | PlanKind::Residue => (plan.c, None, None),
        PlanKind::Karatsuba2 => {
            let s = plan
                .split
                .as_ref()
                .ok_or_else(|| refuse("the plan lists no split (its k and residual words)"))?;
            let split = Split {
                k: s.k,
                residual_words: s.residual_words,
            };
            (0, Some(split), None)
        }
        PlanKind::TwoModuli => {
            let t2 = plan
                .transforms
                .get(1)
                .ok_or_else(|| refuse("the plan lists no second transform"))?;
            let beta = parse_u32(&t2.beta).map_err(|e| config_err(e.into()))?;
            (0, None, Some(Second { l: t2.l, beta }))
        }
    };
    let beta = parse_u32(&t0.beta).map_err(|e| config_err(e.into()))?;
    let chain = Chain::parse(&t0.chain).map_err(|e| config_err(e.into()))?;
    Ok(ExportConfig::new(m, t0.l, beta, chain, c, n)
        .with_split(split)
        .with_second(second))
}

/// The plan of a joint-search report: the K-th of `optimised` (a residue plan of the run's
/// l, c and n, or a single FAFFT when c = 0).
pub fn joint_plan(report: &JointReport, rank: Rank, path: &str) -> Result<Chosen, PlanExportError> {
    let cfg = &report.config;
    if cfg.schema_version != JOINT_SCHEMA_VERSION {
        return Err(PlanExportError::Schema {
            path: path.into(),
            found: cfg.schema_version,
            expected: JOINT_SCHEMA_VERSION,
        });
    }
    if cfg.shard.is_some() {
        return Err(PlanExportError::Shard { path: path.into() });
    }
    let k = match rank {
        Rank::Number(k) => k,
        Rank::FirstResidueOrSingle => 1,
    };
    let entry = k
        .checked_sub(1)
        .and_then(|i| report.optimised.get(i))
        .ok_or_else(|| rank_error(rank, path, report.optimised.len()))?;
    let config_err = |e: ConfigError| PlanExportError::Config {
        rank: k,
        path: path.into(),
        source: Box::new(e),
    };
    let e = &entry.config;
    let beta = parse_u32(&e.beta).map_err(|x| config_err(x.into()))?;
    let chain = Chain::parse(&e.chain).map_err(|x| config_err(x.into()))?;
    Ok(Chosen {
        rank: k,
        label: format!(
            "β = {}, chain {} (orbit {}, conjugate {}, offset {})",
            e.beta, e.chain, e.orbit, e.conjugate, e.offset
        ),
        config: ExportConfig::new(cfg.m, cfg.l, beta, chain, cfg.c, cfg.n),
    })
}
