//! The `search crt --json` report as a file: its one reader ([`read`], [`parse`]), used by
//! every command that reads a crt report (`search export --plan`, `search plot breakdown
//! --input`, `search calibrate --crt`).
//!
//! The writer ([`crate::crt_plan::to_json`], beside the report's serde types in
//! [`crate::crt_plan::report`]) signs the report: `digest` is [`crate::digest::of_text`] of
//! the report with `digest` empty (schema_version 4 on). The reader parses the file with the writer's own type
//! [`PlanReport`], re-checks the fields that can be recomputed from the report itself
//! ([`check`]; an edit found there is named by its field), then the digest. A file without a
//! digest is refused, unless its schema_version is 3, the last one written before reports
//! carried a digest: such a legacy file is read, and the reader says on standard error that
//! only its recomputable fields vouch for it.

use crate::crt_plan::{modulus_info, product_bits, Plan, PlanKind, PlanReport, SCHEMA_VERSION};
use crate::digest::{check_member, Verdict};
use fafft_config::input::{read_bytes, InputError, REPORT_JSON};
use std::path::Path;
use thiserror::Error;

/// The last schema_version written before crt reports carried a digest: a file of this
/// schema without a digest is read as a legacy file, checked by its recomputable fields only.
pub const LEGACY_SCHEMA_VERSION: u32 = 3;

/// What every reader checks besides the digest, in words (for the legacy note).
pub const RECOMPUTED: &str = "2n − 1, each plan's components against its total, the ranks in ascending total, each transform's size m·2^l, the published ranks and the best two-moduli and 2-Karatsuba ranks";

/// Why a crt report file is refused.
#[derive(Debug, Error)]
pub enum ReportError {
    /// The file could not be read (bounded reader).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The file is no crt report.
    #[error("{path} is not a `search crt` JSON report: {reason}")]
    Json {
        /// The file.
        path: String,
        /// The parser's reason.
        reason: String,
    },
    /// A schema this tool does not read.
    #[error("{path} is a crt report of schema_version {found}; this search reads schema_version {SCHEMA_VERSION} (and {LEGACY_SCHEMA_VERSION}, written before reports carried a digest); re-run the command that wrote it")]
    Schema {
        /// The file.
        path: String,
        /// Its schema_version.
        found: u64,
    },
    /// A field that can be recomputed is wrong, or the digest does not match.
    #[error("{path} is inconsistent: {problem} (the file was edited or damaged; re-run the `search crt` command that wrote it)")]
    Inconsistent {
        /// The file.
        path: String,
        /// What is wrong, with the field named.
        problem: String,
    },
}

/// A crt report read from a file.
#[derive(Clone, Debug)]
pub struct ReadReport {
    /// The report (with the writer's type; fields it does not read back are empty).
    pub report: PlanReport,
    /// The whole file as JSON (for the fields [`PlanReport`] does not read back, such as
    /// `measured`).
    pub value: serde_json::Value,
    /// A schema_version 3 file without a digest.
    pub legacy: bool,
}

/// A check of its own a reader adds to [`check`] (run before the digest, so that its finding
/// names the field): what it checks, in words, and the check.
pub type Also<'a> = (&'a str, &'a dyn Fn(&PlanReport) -> Result<(), String>);

/// Read a crt report (bounded reader) and check it ([`parse`]).
pub fn read(file: &Path) -> Result<ReadReport, ReportError> {
    let bytes = read_bytes(file, REPORT_JSON)?;
    parse(&bytes, &file.display().to_string(), None)
}

/// Parse the bytes of the crt report `path` and check it: schema, recomputable fields (and
/// the caller's `also`), digest. A legacy file (schema_version 3, no digest) is accepted with a
/// note on standard error that names what was checked.
pub fn parse(bytes: &[u8], path: &str, also: Option<Also>) -> Result<ReadReport, ReportError> {
    let json = |reason: String| ReportError::Json {
        path: path.into(),
        reason,
    };
    let inconsistent = |problem: String| ReportError::Inconsistent {
        path: path.into(),
        problem,
    };
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| json(e.to_string()))?;
    if value.get("plans").is_none() || value.get("cost_table").is_none() {
        return Err(json(
            "it has no `plans` and `cost_table`, the members of every crt report".into(),
        ));
    }
    let schema = value
        .get("schema_version")
        .and_then(|s| s.as_u64())
        .ok_or_else(|| json("it has no `schema_version`".into()))?;
    if schema != u64::from(SCHEMA_VERSION) && schema != u64::from(LEGACY_SCHEMA_VERSION) {
        return Err(ReportError::Schema {
            path: path.into(),
            found: schema,
        });
    }
    let report: PlanReport = serde_json::from_slice(bytes).map_err(|e| json(e.to_string()))?;
    check(&report).map_err(inconsistent)?;
    if let Some((_, extra)) = also {
        extra(&report).map_err(inconsistent)?;
    }
    let verdict = check_member(&value).map_err(|e| json(e.to_string()))?;
    let legacy = schema == u64::from(LEGACY_SCHEMA_VERSION);
    match (legacy, verdict) {
        (false, Verdict::Matches) => {}
        (false, Verdict::Differs) => {
            return Err(inconsistent(
                "its `digest` does not match its content".into(),
            ))
        }
        (false, Verdict::Missing) => {
            return Err(inconsistent(format!(
                "it has no `digest` (every schema_version {SCHEMA_VERSION} report carries one), so nothing vouches for its content"
            )))
        }
        (true, Verdict::Missing) => fafft_config::output::note(format!(
            "note: {path} is a schema_version {LEGACY_SCHEMA_VERSION} crt report, written before reports carried a digest: only its recomputable fields vouch for it ({RECOMPUTED}{})",
            also.map(|(what, _)| format!("; {what}")).unwrap_or_default()
        )),
        (true, Verdict::Matches | Verdict::Differs) => {
            return Err(inconsistent(format!(
                "it carries a `digest`, which no schema_version {LEGACY_SCHEMA_VERSION} report has (reports carry one from schema_version {SCHEMA_VERSION} on)"
            )))
        }
    }
    Ok(ReadReport {
        report,
        value,
        legacy,
    })
}

/// Whether two cycle counts of the report agree (one is the sum of others, so up to rounding;
/// false for NaN).
fn agrees(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs() + 1e-6
}

/// What a crt report implies about itself ([`RECOMPUTED`]); the error names the field.
pub fn check(r: &PlanReport) -> Result<(), String> {
    if product_bits(r.n) != Some(r.product_bits) {
        return Err(format!(
            "`product_bits` {} is not 2n − 1 for `n` = {}",
            r.product_bits, r.n
        ));
    }
    check_plans(r)?;
    check_ranks(r)
}

/// Each plan's components sum to its `total_cycles`; the plans are ranked 1, 2, ... in
/// ascending total; each transform's `n_bits` is m·2^l.
fn check_plans(r: &PlanReport) -> Result<(), String> {
    let mut prev = f64::NEG_INFINITY;
    for (i, p) in r.plans.iter().enumerate() {
        let c = &p.cost;
        let sum = c.forward.cycles
            + c.pointwise.cycles
            + c.inverse.cycles
            + c.residue.cycles
            + c.reconstruction.cycles;
        let total = c.total_cycles;
        if !agrees(sum, total) {
            return Err(format!(
                "plan {}: `cost.total_cycles` {total} is not the sum {sum} of its components",
                i + 1
            ));
        }
        if p.rank != i + 1 || total < prev {
            return Err(format!(
                "plan {}: `rank` {} is not its place in ascending `total_cycles`",
                i + 1,
                p.rank
            ));
        }
        prev = total;
        for (j, t) in p.transforms.iter().enumerate() {
            let size = 1u64
                .checked_shl(t.l)
                .and_then(|x| x.checked_mul(u64::from(r.m)));
            if size != Some(t.n_bits) {
                return Err(format!(
                    "plan {}: `transforms[{j}].n_bits` {} is not m·2^l for m = {}, l = {}",
                    i + 1,
                    t.n_bits,
                    r.m,
                    t.l
                ));
            }
        }
    }
    Ok(())
}

/// `published` lists exactly the plans that reproduce a published configuration, with their
/// ranks and totals; `best_two_moduli_rank` and `best_karatsuba2_rank` are the ranks of the
/// first plans of their kinds.
fn check_ranks(r: &PlanReport) -> Result<(), String> {
    let marked = r.plans.iter().filter(|p| p.published.is_some()).count();
    if marked != r.published.len() {
        return Err(format!(
            "`published` lists {} plan(s), but {marked} plan(s) carry a `published` label",
            r.published.len()
        ));
    }
    for (k, pr) in r.published.iter().enumerate() {
        let plan = pr.rank.checked_sub(1).and_then(|i| r.plans.get(i));
        let fits = plan.is_some_and(|p| {
            p.published.as_deref() == Some(pr.label.as_str())
                && p.cost.total_cycles == pr.total_cycles
        });
        if !fits {
            return Err(format!(
                "`published[{k}]` ({}) names rank {} with {} cycles, which is not that plan's label and total",
                pr.label, pr.rank, pr.total_cycles
            ));
        }
    }
    let first = |kind: PlanKind| r.plans.iter().find(|p| p.kind == kind).map(|p| p.rank);
    for (field, stated, kind) in [
        (
            "best_two_moduli_rank",
            r.best_two_moduli_rank,
            PlanKind::TwoModuli,
        ),
        (
            "best_karatsuba2_rank",
            r.best_karatsuba2_rank,
            PlanKind::Karatsuba2,
        ),
    ] {
        if stated != first(kind) {
            return Err(format!(
                "`{field}` {} is not the rank of the first plan of its kind ({})",
                rank_text(stated),
                rank_text(first(kind))
            ));
        }
    }
    Ok(())
}

fn rank_text(r: Option<usize>) -> String {
    r.map_or_else(|| "null".into(), |k| k.to_string())
}

/// The modulus of each transform of `plan`, recomputed from its β: P, wt(M) and the occupied
/// residues must be what the report states (what `search export --plan` checks before it
/// builds the plan). The error names the plan and the field.
pub fn check_modulus(m: u32, plan: &Plan) -> Result<(), String> {
    for (j, t) in plan.transforms.iter().enumerate() {
        let field = |name: &str| format!("plan rank {}: `transforms[{j}].{name}`", plan.rank);
        let beta = fafft_config::beta::parse_u32(&t.beta)
            .map_err(|e| format!("{} {}: {e}", field("beta"), t.beta))?;
        let md = modulus_info(m, t.l, beta).map_err(|e| format!("{}: {e}", field("beta")))?;
        let stated = [
            ("p", t.p.clone(), format!("{:#x}", md.p)),
            ("weight", t.weight.to_string(), md.weight.to_string()),
            (
                "occupied_residues",
                t.occupied_residues.to_string(),
                md.occupied.to_string(),
            ),
        ];
        for (name, file, recomputed) in stated {
            if file != recomputed {
                return Err(format!(
                    "{} is {file}, but the modulus of its β {} (l = {}) has {recomputed}",
                    field(name),
                    t.beta,
                    t.l
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crt_plan::{plan, to_json, PlanConfig, PublishedRank, ScanCache};

    /// An edit of a report and the field its refusal names.
    type Edit = (&'static str, fn(&mut PlanReport));

    fn report() -> PlanReport {
        plan(20, &PlanConfig::new(8), &ScanCache::new()).expect("plan")
    }

    #[test]
    fn a_written_report_reads_back_and_a_recomputable_edit_is_named() {
        let r = report();
        let text = to_json(&r).expect("json");
        let read = parse(text.as_bytes(), "r.json", None).expect("reads back");
        assert!(!read.legacy);
        assert_eq!(read.report.plans.len(), r.plans.len());
        let edits: [Edit; 4] = [
            ("`product_bits`", |r| r.product_bits += 1),
            ("`transforms[0].n_bits`", |r| {
                r.plans[0].transforms[0].n_bits *= 2
            }),
            ("`published` lists 1 plan(s)", |r| {
                r.published.push(PublishedRank {
                    label: "x".into(),
                    rank: 1,
                    total_cycles: r.plans[0].cost.total_cycles,
                })
            }),
            ("`best_karatsuba2_rank`", |r| {
                r.best_karatsuba2_rank = Some(1)
            }),
        ];
        for (field, edit) in edits {
            let mut e = r.clone();
            edit(&mut e);
            let err = check(&e).expect_err(field);
            assert!(err.contains(field), "{field}: {err}");
        }
    }

    #[test]
    fn the_modulus_of_a_plan_is_recomputed_from_its_beta() {
        let r = report();
        assert_eq!(check_modulus(r.m, &r.plans[0]), Ok(()));
        let mut p = r.plans[0].clone();
        p.transforms[0].p = "0x3".into();
        let err = check_modulus(r.m, &p).expect_err("edited P");
        assert!(err.contains("`transforms[0].p` is 0x3"), "{err}");
    }
}
