//! `search moduli`: set up and run a scan (Cantor or sparse-P mode), then prove and report.

use crate::bounds::check_ml;
use crate::driver::{run, RunConfig};
use crate::engine::RunOptions;
use crate::error::{Result, SearchError};
use crate::fields::{field_ctx, FieldCtx, SPARSE_MS};
use crate::report::{finalize, orbit_count, ScanReport, SCHEMA_VERSION, TOOL_VERSION};
use crate::scan::{ChunkSource, SparseSource, SparseSpace};
use crate::shard::Shard;

/// What to scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuliArgs {
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// `--within K` (Cantor mode).
    pub within: Option<u32>,
    /// `--top T`.
    pub top: usize,
    /// `--max-poly-weight W` (selects the sparse-P mode).
    pub max_poly_weight: Option<u32>,
    /// `--max-exp-popcount K` (sparse mode).
    pub max_exp_popcount: Option<u32>,
    /// `--shard I/S`.
    pub shard: Option<Shard>,
}

/// A configured scan: its configuration, field and chunk source.
pub struct Prepared {
    /// Configuration (what the result depends on).
    pub config: RunConfig,
    /// The field (None for m = 128).
    pub ctx: Option<Box<dyn FieldCtx>>,
    /// The chunks.
    pub source: Box<dyn ChunkSource>,
}

/// Validate the arguments and build the scan.
pub fn prepare(a: &ModuliArgs) -> Result<Prepared> {
    let (m, l) = (a.m, a.l);
    let mut config = RunConfig {
        schema_version: SCHEMA_VERSION,
        tool_version: TOOL_VERSION.to_string(),
        mode: String::new(),
        m,
        l,
        within: None,
        max_poly_weight: a.max_poly_weight,
        max_exp_popcount: a.max_exp_popcount,
        top_limit: a.top,
        shard: a.shard,
    };
    if a.top == 0 {
        return Err(SearchError::BadOption("--top must be at least 1".into()));
    }
    match a.max_poly_weight {
        Some(w) => {
            if ![8, 16, 32, 64, 128].contains(&m) {
                return Err(SearchError::UnknownM {
                    m,
                    what: "the sparse-P search",
                    supported: SPARSE_MS,
                });
            }
            if a.within.is_some() {
                return Err(SearchError::BadOption(
                    "--within restricts Cantor coordinates of beta; it cannot be combined with --max-poly-weight".into(),
                ));
            }
            check_ml(m, l)?;
            config.mode = "sparse-minpoly".into();
            let ctx = if m <= 64 { Some(field_ctx(m)?) } else { None };
            let space = SparseSpace::new(m, w, a.max_exp_popcount)?;
            let source = Box::new(SparseSource::new(space, l, a.top)?);
            Ok(Prepared {
                config,
                ctx,
                source,
            })
        }
        None => {
            if a.max_exp_popcount.is_some() {
                return Err(SearchError::BadOption(
                    "--max-exp-popcount only applies to the sparse-P search (--max-poly-weight)"
                        .into(),
                ));
            }
            if m == 64 || m == 128 {
                check_ml(m, l).or_else(|e| match e {
                    SearchError::TooLarge { .. } => Ok(()),
                    e => Err(e),
                })?;
                return Err(SearchError::BadOption(format!(
                    "m = {m}: the admissible space has (2^{} - 2^{})/{m} = {} orbits, far too many to enumerate; use the sparse-P search --max-poly-weight W",
                    m - l,
                    m / 2,
                    orbit_count(m, m - l)
                )));
            }
            let ctx = field_ctx(m).map_err(|_| SearchError::UnknownM {
                m,
                what: "the Cantor scan",
                supported: "8, 16, 32 (and 64, 128 with --max-poly-weight)",
            })?;
            check_ml(m, l)?;
            let k = a.within.unwrap_or(m - l);
            if k <= m / 2 || k > m - l {
                return Err(SearchError::WithinOutOfRange {
                    k,
                    m,
                    l,
                    lo: m / 2 + 1,
                    hi: m - l,
                });
            }
            config.mode = "cantor".into();
            config.within = Some(k);
            let source = ctx.cantor_source(l, k, a.top)?;
            Ok(Prepared {
                config,
                ctx: Some(ctx),
                source,
            })
        }
    }
}

/// Run a scan end to end.
pub fn run_moduli(a: &ModuliArgs, opts: &RunOptions) -> Result<ScanReport> {
    let p = prepare(a)?;
    let acc = run(p.source.as_ref(), &p.config, opts)?;
    finalize(&p.config, p.ctx.as_deref(), &acc, opts.threads)
}
