//! `search crt`: its arguments, the planner configuration they make (cost table, moduli
//! files, `--beta`) and the run (plan, model error, `--measure`, the report written).

use crate::crt_plan::{
    modulus_info, parse_moduli_file, plan, render_text, to_json, CrtError, PlanConfig, ScanCache,
};
use fafft_config::cost::CostTable;
use std::path::PathBuf;

/// Arguments of `search crt`.
#[derive(clap::Args, Debug, Clone)]
pub struct CrtArgs {
    /// Operand length n in bits (HQC: 17669, 35851, 57637).
    #[arg(long)]
    pub n: u64,
    /// Field degree m (tower field: 8, 16 or 32).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(8..=32))]
    pub m: u32,
    /// Print the report as JSON (deterministic).
    #[arg(long)]
    pub json: bool,
    /// Write the JSON report to this file (atomically) in addition to stdout output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Cycle table JSON (fields name, xor, and, shift, mul32, load, store).
    #[arg(long)]
    pub cost_table: Option<PathBuf>,
    /// Moduli JSON from `search moduli` (repeatable; one (m, l) each).
    #[arg(long)]
    pub moduli: Vec<PathBuf>,
    /// Explicit β for a transform size, `L:0xHEX` (repeatable; skips the scan for that l).
    #[arg(long)]
    pub beta: Vec<String>,
    /// Lightest moduli per l tried for the lowest total cost.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub candidates: u64,
    /// Consider residue rings with c_min ≤ RATIO·N.
    #[arg(long, default_value_t = 1.0)]
    pub max_residue_ratio: f64,
    /// Model one cached operand transform (one forward transform per product).
    #[arg(long)]
    pub cached_operand: bool,
    /// Skip the two-moduli plans.
    #[arg(long)]
    pub no_two_moduli: bool,
    /// Export, build and count the top K plans on the emulated board (docs/cost-model.md §5).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=20))]
    pub measure: Option<u64>,
    /// The hqc-verify binary for --measure (default: next to this search binary).
    #[arg(long, value_name = "PATH")]
    pub hqc_verify: Option<PathBuf>,
    /// Work folder of --measure (exports and firmware builds; default: a fresh folder under
    /// the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    pub measure_dir: Option<PathBuf>,
}

impl CrtArgs {
    /// The canonical command line of these arguments.
    pub fn command(&self) -> String {
        let mut s = format!("search crt --n {} --m {}", self.n, self.m);
        if self.json {
            s += " --json";
        }
        if let Some(p) = &self.out {
            s += &format!(" --out {}", p.display());
        }
        if let Some(p) = &self.cost_table {
            s += &format!(" --cost-table {}", p.display());
        }
        for p in &self.moduli {
            s += &format!(" --moduli {}", p.display());
        }
        for b in &self.beta {
            s += &format!(" --beta {b}");
        }
        if self.candidates != 4 {
            s += &format!(" --candidates {}", self.candidates);
        }
        if self.max_residue_ratio != 1.0 {
            s += &format!(" --max-residue-ratio {}", self.max_residue_ratio);
        }
        if self.cached_operand {
            s += " --cached-operand";
        }
        if self.no_two_moduli {
            s += " --no-two-moduli";
        }
        if let Some(k) = self.measure {
            s += &format!(" --measure {k}");
        }
        if let Some(p) = &self.hqc_verify {
            s += &format!(" --hqc-verify {}", p.display());
        }
        if let Some(p) = &self.measure_dir {
            s += &format!(" --measure-dir {}", p.display());
        }
        s
    }

    /// Build the planner configuration (parses files and `--beta`).
    pub fn config(&self) -> Result<PlanConfig, CrtError> {
        let mut cfg = PlanConfig::new(self.m);
        if let Some(p) = &self.cost_table {
            cfg.table = load_cost_table(p)?;
        }
        cfg.candidates = self.candidates as usize;
        cfg.max_residue_ratio = self.max_residue_ratio;
        cfg.cached_operand = self.cached_operand;
        cfg.two_moduli = !self.no_two_moduli;
        for path in &self.moduli {
            let (fm, l, betas, coverage) = parse_moduli_file(path)?;
            if let crate::report::Coverage::Shard { index, count } = coverage {
                return Err(CrtError::PartialModuli {
                    path: path.display().to_string(),
                    what: format!(
                        "shard {index}/{count} of a split scan: it holds only part of the admissible orbits, so its lightest modulus need not be the lightest"
                    ),
                    fix: format!(
                        "join all {count} parts with `search merge PARTS... --out FILE` and give the merged file"
                    ),
                });
            }
            if fm != self.m {
                return Err(CrtError::ModuliFile {
                    path: path.display().to_string(),
                    msg: format!("file is for m = {fm}, planning for m = {}", self.m),
                });
            }
            let mut v = betas
                .iter()
                .map(|&b| modulus_info(self.m, l, b))
                .collect::<Result<Vec<_>, _>>()?;
            v.sort_by_key(|x| x.key());
            v.dedup_by_key(|x| x.key());
            let source = if coverage.is_complete() {
                format!("file {}", path.display())
            } else {
                format!("file {} ({})", path.display(), coverage.describe())
            };
            cfg.given.insert(l, (v, source));
        }
        for b in &self.beta {
            let (l, beta) = parse_beta_arg(b)?;
            let md = modulus_info(self.m, l, beta)?;
            let entry = cfg
                .given
                .entry(l)
                .or_insert_with(|| (Vec::new(), "--beta".into()));
            entry.0.push(md);
            entry.0.sort_by_key(|x| x.key());
        }
        Ok(cfg)
    }
}

/// Load `--cost-table FILE`: a regular file within the table limit holding a JSON object that
/// sets at least one field (fields it leaves out take the default values; an empty object or
/// anything but an object is refused rather than silently meaning the default table).
pub fn load_cost_table(path: &std::path::Path) -> Result<CostTable, CrtError> {
    let err = |msg: String| CrtError::CostTableFile {
        path: path.display().to_string(),
        msg,
    };
    let text = fafft_config::input::read_text(path, fafft_config::input::TABLE_JSON)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
    match v.as_object() {
        None => {
            return Err(err(format!(
            "holds {}, not a JSON object with the fields name, xor, and, shift, mul32, load, store",
            match v {
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::Null => "null",
                _ => "a single value",
            }
        )))
        }
        Some(o) if o.is_empty() => return Err(err(
            "is an empty object: it sets no cycle count (omit --cost-table for the default table)"
                .into(),
        )),
        Some(_) => {}
    }
    Ok(CostTable::from_json_file(path)?)
}

/// Parse `L:HEX` (β by the one rule of [`fafft_config::beta`]: `0x` optional, at most 8 hex
/// digits, no sign).
pub fn parse_beta_arg(text: &str) -> Result<(u32, u32), CrtError> {
    let bad = |reason: String| CrtError::BetaSyntax {
        text: crate::error::printable(text),
        reason: crate::error::printable(&reason),
    };
    let (l, b) = text
        .split_once(':')
        .ok_or_else(|| bad("no ':' between L and β".into()))?;
    let l: u32 = l
        .trim()
        .parse()
        .map_err(|_| bad(format!("L = '{}' is not a non-negative integer", l.trim())))?;
    let beta = fafft_config::beta::parse_u32(b).map_err(|e| bad(e.to_string()))?;
    Ok((l, beta))
}

/// Run `search crt`.
pub fn run(args: &CrtArgs) -> anyhow::Result<()> {
    if let Some(out) = &args.out {
        let inputs = args.moduli.iter().chain(&args.cost_table);
        if let Some(i) = inputs
            .into_iter()
            .find(|i| fafft_config::output::same_file(out, i))
        {
            return Err(CrtError::OutIsInput {
                out: out.display().to_string(),
                input: i.display().to_string(),
            }
            .into());
        }
        fafft_config::output::check_writable(out).map_err(|source| CrtError::Write {
            path: out.display().to_string(),
            source,
        })?;
    }
    let cfg = args.config()?;
    // the orbit scans show progress on a terminal (stderr); the report does not depend on it
    let cache = ScanCache::with_options(crate::engine::RunOptions {
        progress: true,
        ..Default::default()
    });
    let mut report = plan(args.n, &cfg, &cache)?;
    report.command = args.command();
    let table = crate::measured_table::committed()?;
    report.model_error = Some(crate::model_error::fit(&table)?.1);
    if let Some(k) = args.measure {
        let work = match &args.measure_dir {
            Some(d) => d.clone(),
            None => std::env::temp_dir().join(format!("search-measure-{}", std::process::id())),
        };
        report.measured = Some(crate::measure::measure_plans(
            &report,
            k as usize,
            args.hqc_verify.as_deref(),
            &work,
        )?);
    }
    let json = to_json(&report)?;
    if let Some(out) = &args.out {
        fafft_config::output::write_atomic(out, json.as_bytes()).map_err(|source| {
            CrtError::Write {
                path: out.display().to_string(),
                source,
            }
        })?;
    }
    if args.json {
        fafft_config::output::print(&json)?;
    } else {
        fafft_config::output::print(render_text(&report))?;
    }
    Ok(())
}
