//! `search`: low-weight FAFFT multiplier moduli (`docs/fafft.md` §8, §11).
//!
//! ```text
//! search modulus --m 32 --l 10 --beta 0x00103674 [--json] [--out FILE]
//! search moduli  --m 32 --l 10 [--within K] [--top T] [--threads N] [--json] [--out FILE]
//!                [--checkpoint FILE] [--shard I/S]
//! search moduli  --m 64 --l 9 --max-poly-weight W [--max-exp-popcount K] [--top T] ...
//! search moduli  --m 32 --l 10 --objective product [--orbits K] [--conjugates J] [--offset-bits B]
//!                [--n N] [--c C] [--optimise F] [--top T] [--threads N] [--checkpoint FILE]
//!                [--shard I/S] [--json] [--out FILE]        (docs/joint-search.md)
//! search merge   PARTS... [--json] [--out FILE]
//! ```
//!
//! One vocabulary for every command: `--json` prints the JSON report on stdout, `--out FILE`
//! writes the same bytes to FILE (by the one output rule of `fafft_config::output`: atomic for
//! a regular file, through a symbolic link, FIFO or character device, refused for a directory);
//! `moduli` and `merge` print the JSON on stdout also when no `--out` is given. An unwritable
//! `--out` is refused before any work.
//!
//! Exit codes: 0 success, 1 error (message on stderr), 2 usage error (clap), 3 stopped on purpose
//! by the hidden test hook `--stop-after-chunks` (checkpoint saved), 141 (quietly) when the
//! reader of stdout went away (`| head`).

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use fafft_config::output::write_atomic;
use search::engine::RunOptions;
use search::merge::merge_reports;
use search::moduli::{run_moduli, ModuliArgs};
use search::report::{summary, to_json};
use search::shard::Shard;
use search::single::{modulus_report, render_text};
use search::SearchError;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "search",
    version,
    about = "Low-weight FAFFT multiplier moduli M = P(s_l(x)) (docs/fafft.md §8, §11)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// `search moduli --objective`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Objective {
    /// wt(M), the weight scan.
    Weight,
    /// Modelled product cycles (joint search over orbit, conjugate, chain offset).
    Product,
}

#[derive(Subcommand)]
enum Cmd {
    /// The modulus of one configuration (m, l, beta), proven by running the FAFFT.
    Modulus(ModulusCmd),
    /// Scan all admissible shifts (one per Frobenius orbit) or sparse minimal polynomials.
    Moduli(ModuliCmd),
    /// Join shard outputs into exactly the file one unsharded run writes.
    Merge(MergeCmd),
    /// CRT split planner: FAFFT sizes, residue rings x^c, two coprime moduli; modelled Cortex-M4 costs.
    Crt(search::crt::CrtArgs),
    /// The calibrated cost model against board reports (docs/cost-model.md): table and fit.
    Calibrate(search::calibrate::CalibrateArgs),
    /// Plots: histogram | cost | breakdown (SVG or PNG by the output's extension).
    Plot(search::plot::PlotArgs),
    /// Firmware export: params.json + C headers (docs/firmware-layout.md) + generated XOR programs.
    Export(search::export::ExportArgs),
    /// Shortest XOR program for a binary matrix (Paar, Boyar-Peralta, seeded restarts; docs/slp.md).
    Slp(search::slp_cmd::SlpArgs),
}

/// The options of `search modulus`.
#[derive(clap::Args)]
struct ModulusCmd {
    /// Field degree: 8, 16, 32 (tower bases) or 64 (Poly64, bitpolymul2 Cantor basis).
    #[arg(long)]
    m: u32,
    /// log2 of the number of FAFFT points (l < m/2).
    #[arg(long)]
    l: u32,
    /// Shift beta as m/4 hex digits in the field representation, or `canonical` (= v_{m/2}).
    #[arg(long)]
    beta: String,
    /// Print the JSON report on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the JSON report to FILE (atomically).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The options of `search moduli`.
#[derive(clap::Args)]
struct ModuliCmd {
    /// Field degree: 8, 16, 32 (Cantor scan); 64, 128 need --max-poly-weight.
    #[arg(long)]
    m: u32,
    /// log2 of the number of FAFFT points (l < m/2).
    #[arg(long)]
    l: u32,
    /// Restrict beta to V_K (m/2 < K <= m - l); default: the full range V_{m-l}.
    #[arg(long, value_name = "K")]
    within: Option<u32>,
    /// How many of the lightest moduli to list.
    #[arg(long, value_name = "T", default_value_t = 10)]
    top: usize,
    /// Worker threads (1: run on the current thread); default: all cores.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Print the JSON report on stdout (the default when no --out is given).
    #[arg(long)]
    json: bool,
    /// Write the JSON report to FILE (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Save progress to FILE after every batch and resume from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Run only shard I of S (0 <= I < S); join the parts with `search merge`.
    #[arg(long, value_name = "I/S")]
    shard: Option<String>,
    /// Sparse-P mode: enumerate degree-m P of odd weight <= W (representation-free).
    #[arg(long, value_name = "W")]
    max_poly_weight: Option<u32>,
    /// Sparse-P mode: only middle exponents e with popcount(e) <= K.
    #[arg(long, value_name = "K")]
    max_exp_popcount: Option<u32>,
    /// Test hook: stop (exit code 3) after this many chunks, checkpoint saved.
    #[arg(long, hide = true, value_name = "K")]
    stop_after_chunks: Option<usize>,
    /// What to rank by: wt(M) (the weight scan) or modelled product cycles over
    /// (orbit, conjugate, chain offset) (the joint search, docs/joint-search.md).
    #[arg(long, value_enum, default_value_t = Objective::Weight)]
    objective: Objective,
    /// Joint search: the K lightest orbits (default 64).
    #[arg(long, value_name = "K")]
    orbits: Option<usize>,
    /// Joint search: conjugates beta^(2^k), k < J, per orbit (default m: all).
    #[arg(long, value_name = "J")]
    conjugates: Option<u32>,
    /// Joint search: chain offsets o < 2^B (default l: all of V_l).
    #[arg(long, value_name = "B")]
    offset_bits: Option<u32>,
    /// Joint search: operand bits n (default: the published configuration of this l).
    #[arg(long, value_name = "N")]
    n: Option<u64>,
    /// Joint search: residue ring x^c (default: the published configuration of this l).
    #[arg(long, value_name = "C")]
    c: Option<u64>,
    /// Joint search: how many of the best screened configurations to optimise fully (default 8).
    #[arg(long, value_name = "F")]
    optimise: Option<usize>,
}

/// The options of `search merge`.
#[derive(clap::Args)]
struct MergeCmd {
    /// Shard outputs of `search moduli --shard I/S` (all S of them).
    #[arg(required = true, value_name = "PARTS")]
    parts: Vec<PathBuf>,
    /// Print the merged JSON report on stdout (the default when no --out is given).
    #[arg(long)]
    json: bool,
    /// Where to write the merged report.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Worker threads for re-proving the optima.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

/// Fail early, before a long run, if FILE cannot be written (the up-front check of the one
/// output rule).
fn check_writable(path: &Path) -> Result<()> {
    fafft_config::output::check_writable(path)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

fn write_out(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// `--json` / `--out`: the same bytes on stdout and in the file.
fn emit(bytes: &[u8], out: Option<&Path>, json: bool) -> Result<()> {
    if let Some(o) = out {
        write_out(o, bytes)?;
    }
    if json || out.is_none() {
        fafft_config::output::print(bytes)?;
    }
    Ok(())
}

/// An error and its causes, each once (a cause already quoted by its parent is not repeated).
fn error_text(e: &anyhow::Error) -> String {
    let mut s = String::new();
    for cause in e.chain() {
        let t = cause.to_string();
        if !s.contains(&t) {
            if !s.is_empty() {
                s.push_str(": ");
            }
            s.push_str(&t);
        }
    }
    s
}

/// `merge`: refuse an `--out` that names a part (or cannot be written), then read the parts
/// with the bounded reader.
fn read_parts(parts: Vec<PathBuf>, out: Option<&Path>) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    if let Some(o) = out {
        if let Some(p) = parts.iter().find(|p| fafft_config::output::same_file(o, p)) {
            anyhow::bail!(
                "--out {} names the part {}: the merged report would replace one of its inputs; give another file",
                o.display(),
                p.display()
            );
        }
        check_writable(o)?;
    }
    let mut data = Vec::new();
    for p in parts {
        let b = fafft_config::input::read_bytes(&p, fafft_config::input::REPORT_JSON)?;
        data.push((p, b));
    }
    Ok(data)
}

fn run(cli: Cli) -> Result<()> {
    match cli.cmd {
        Cmd::Modulus(a) => run_modulus(a)?,
        Cmd::Moduli(a) => run_moduli_cmd(a)?,
        Cmd::Merge(a) => run_merge(a)?,
        Cmd::Crt(a) => search::crt::run(&a)?,
        Cmd::Calibrate(a) => search::calibrate::run_calibrate(&a)?,
        Cmd::Plot(a) => search::plot::run(&a)?,
        Cmd::Export(a) => search::export::run(&a)?,
        Cmd::Slp(a) => search::slp_cmd::run(&a)?,
    }
    Ok(())
}

/// `search modulus`.
fn run_modulus(a: ModulusCmd) -> Result<()> {
    let ModulusCmd {
        m,
        l,
        beta,
        json,
        out,
    } = a;
    if let Some(o) = &out {
        check_writable(o)?;
    }
    let r = modulus_report(m, l, &beta)?;
    let bytes = to_json(&r)?;
    if let Some(o) = &out {
        write_out(o, &bytes)?;
    }
    if json {
        fafft_config::output::print(&bytes)?;
    } else {
        fafft_config::output::print(render_text(&r))?;
    }
    if !r.verified {
        anyhow::bail!(
            "the FAFFT for beta = {} does not reduce modulo P(s_l(x)) (verification failed)",
            r.beta
        );
    }
    Ok(())
}

/// `search moduli`: the weight scan, or the joint search with `--objective product`.
fn run_moduli_cmd(a: ModuliCmd) -> Result<()> {
    let shard = a.shard.as_ref().map(|s| s.parse::<Shard>()).transpose()?;
    let joint_flags = [
        ("--orbits", a.orbits.is_some()),
        ("--conjugates", a.conjugates.is_some()),
        ("--offset-bits", a.offset_bits.is_some()),
        ("--n", a.n.is_some()),
        ("--c", a.c.is_some()),
        ("--optimise", a.optimise.is_some()),
    ];
    if a.objective == Objective::Weight {
        if let Some((f, _)) = joint_flags.iter().find(|(_, set)| *set) {
            anyhow::bail!("{f} only applies to the joint search: add --objective product");
        }
    } else {
        if a.max_poly_weight.is_some() || a.max_exp_popcount.is_some() {
            anyhow::bail!("--objective product searches the Cantor orbits of m = 32; it cannot be combined with --max-poly-weight or --max-exp-popcount");
        }
        let args = search::joint::JointArgs {
            m: a.m,
            l: a.l,
            within: a.within,
            orbits: a.orbits.unwrap_or(64),
            conjugates: a.conjugates.unwrap_or(a.m),
            offset_bits: a.offset_bits.unwrap_or(a.l),
            n: a.n,
            c: a.c,
            top: a.top,
            optimise: a.optimise.unwrap_or(8),
            shard,
        };
        return run_joint_cli(
            &args,
            a.threads,
            a.out,
            a.checkpoint,
            a.json,
            a.stop_after_chunks,
        );
    }
    run_weight_scan(a, shard)
}

/// `search moduli` by wt(M): the weight scan.
fn run_weight_scan(a: ModuliCmd, shard: Option<Shard>) -> Result<()> {
    let (out, checkpoint) = (a.out, a.checkpoint);
    if let (Some(o), Some(c)) = (&out, &checkpoint) {
        if fafft_config::output::same_file(o, c) {
            anyhow::bail!(
                "--out {} and --checkpoint {} are the same file: the report would overwrite the checkpoint; give two different files",
                o.display(),
                c.display()
            );
        }
    }
    if let Some(o) = &out {
        check_writable(o)?;
    }
    if let Some(c) = &checkpoint {
        check_writable(c).with_context(|| format!("unusable --checkpoint {}", c.display()))?;
    }
    let args = ModuliArgs {
        m: a.m,
        l: a.l,
        within: a.within,
        top: a.top,
        max_poly_weight: a.max_poly_weight,
        max_exp_popcount: a.max_exp_popcount,
        shard,
    };
    let opts = RunOptions {
        threads: a.threads.map(|t| t as usize),
        checkpoint,
        progress: true,
        stop_after_chunks: a.stop_after_chunks,
    };
    let report = run_moduli(&args, &opts)?;
    let bytes = to_json(&report)?;
    emit(&bytes, out.as_deref(), a.json)?;
    if let Some(o) = &out {
        fafft_config::output::note(format_args!(
            "{}\nwritten to {}",
            summary(&report),
            o.display()
        ));
    }
    Ok(())
}

/// `search merge`: joint-search parts or weight-scan parts.
fn run_merge(a: MergeCmd) -> Result<()> {
    let MergeCmd {
        parts,
        json,
        out,
        threads,
    } = a;
    let data = read_parts(parts, out.as_deref())?;
    if data
        .first()
        .is_some_and(|(_, b)| search::joint::is_joint(b))
    {
        let report = search::joint::merge(&data, threads.map(|t| t as usize))?;
        emit(&to_json(&report)?, out.as_deref(), json)?;
        if let Some(o) = &out {
            fafft_config::output::note(format_args!(
                "{}\nwritten to {}",
                search::joint::summary(&report),
                o.display()
            ));
        }
        return Ok(());
    }
    let report = merge_reports(
        &data,
        |m| search::fields::field_ctx(m).ok(),
        threads.map(|t| t as usize),
    )?;
    emit(&to_json(&report)?, out.as_deref(), json)?;
    if let Some(o) = &out {
        fafft_config::output::note(format_args!(
            "{}\nwritten to {}",
            summary(&report),
            o.display()
        ));
    }
    Ok(())
}

/// `search moduli --objective product` (docs/joint-search.md).
fn run_joint_cli(
    args: &search::joint::JointArgs,
    threads: Option<u32>,
    out: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    json: bool,
    stop_after_chunks: Option<usize>,
) -> Result<()> {
    if let (Some(o), Some(c)) = (&out, &checkpoint) {
        if fafft_config::output::same_file(o, c) {
            anyhow::bail!(
                "--out {} and --checkpoint {} are the same file: the report would overwrite the checkpoint; give two different files",
                o.display(),
                c.display()
            );
        }
    }
    if let Some(o) = &out {
        check_writable(o)?;
    }
    if let Some(c) = &checkpoint {
        check_writable(c).with_context(|| format!("unusable --checkpoint {}", c.display()))?;
    }
    let opts = RunOptions {
        threads: threads.map(|t| t as usize),
        checkpoint,
        progress: true,
        stop_after_chunks,
    };
    let t0 = std::time::Instant::now();
    let p = search::joint::prepare(args, opts.threads)?;
    let t1 = std::time::Instant::now();
    let acc = search::joint::screen(&p, &opts)?;
    let t2 = std::time::Instant::now();
    let report = search::joint::finalize(&p, &acc, opts.progress)?;
    emit(&to_json(&report)?, out.as_deref(), json)?;
    fafft_config::output::note(format_args!(
        "{}\nwall time {:.1} s (orbit scan {:.1} s, screen {:.1} s, full stage {:.1} s){}",
        search::joint::summary(&report),
        t0.elapsed().as_secs_f64(),
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        t2.elapsed().as_secs_f64(),
        out.as_ref()
            .map(|o| format!(", written to {}", o.display()))
            .unwrap_or_default()
    ));
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if fafft_config::output::is_broken_pipe(e.as_ref()) {
                // the reader of stdout went away (`| head`): end quietly
                return ExitCode::from(fafft_config::output::BROKEN_PIPE_STATUS);
            }
            if let Some(SearchError::Stopped { .. }) = e.downcast_ref::<SearchError>() {
                fafft_config::output::note(format_args!("search: {e}"));
                return ExitCode::from(3);
            }
            fafft_config::output::note(format_args!("error: {}", error_text(&e)));
            ExitCode::FAILURE
        }
    }
}
