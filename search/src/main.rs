//! `search`: low-weight FAFFT multiplier moduli (`docs/fafft.md` §8, §11).
//!
//! ```text
//! search modulus --m 32 --l 10 --beta 0x00103674 [--json] [--out FILE]
//! search moduli  --m 32 --l 10 [--within K] [--top T] [--threads N] [--out FILE]
//!                [--checkpoint FILE] [--shard I/S]
//! search moduli  --m 64 --l 9 --max-poly-weight W [--max-exp-popcount K] [--top T] ...
//! search merge   PARTS... --out FILE
//! ```
//!
//! Exit codes: 0 success, 1 error (message on stderr), 2 usage error (clap), 3 stopped on purpose
//! by the hidden test hook `--stop-after-chunks` (checkpoint saved).

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use search::atomic::write_atomic;
use search::driver::RunOptions;
use search::moduli::{run_moduli, ModuliArgs};
use search::params::Shard;
use search::report::{merge_reports, summary, to_json};
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

#[derive(Subcommand)]
enum Cmd {
    /// The modulus of one configuration (m, l, beta), proven by running the FAFFT.
    Modulus {
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
    },
    /// Scan all admissible shifts (one per Frobenius orbit) or sparse minimal polynomials.
    Moduli {
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
    },
    /// Join shard outputs into exactly the file one unsharded run writes.
    Merge {
        /// Shard outputs of `search moduli --shard I/S` (all S of them).
        #[arg(required = true, value_name = "PARTS")]
        parts: Vec<PathBuf>,
        /// Where to write the merged report.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Worker threads for re-proving the optima.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
    },
    /// CRT split planner: FAFFT sizes, residue rings x^c, two coprime moduli; modelled Cortex-M4 costs.
    Crt(search::crt_plan::CrtArgs),
    /// Plots: histogram | cost | breakdown (SVG or PNG by the output's extension).
    Plot(search::plot::PlotArgs),
    /// Firmware export: params.json + C headers (docs/firmware-layout.md) + generated XOR programs.
    Export(search::export::ExportArgs),
}

/// Fail early, before a long run, if FILE cannot be created in its directory.
fn check_writable(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let probe = dir.join(format!(".search-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(|| {
        format!(
            "cannot write {}: directory {} is not writable",
            path.display(),
            dir.display()
        )
    })?;
    let _ = std::fs::remove_file(&probe);
    if path.is_dir() {
        anyhow::bail!("cannot write {}: it is a directory", path.display());
    }
    Ok(())
}

fn write_out(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

fn run(cli: Cli) -> Result<()> {
    match cli.cmd {
        Cmd::Modulus {
            m,
            l,
            beta,
            json,
            out,
        } => {
            if let Some(o) = &out {
                check_writable(o)?;
            }
            let r = modulus_report(m, l, &beta)?;
            let bytes = to_json(&r)?;
            if let Some(o) = &out {
                write_out(o, &bytes)?;
            }
            if json {
                print!("{}", String::from_utf8_lossy(&bytes));
            } else {
                print!("{}", render_text(&r));
            }
            if !r.verified {
                anyhow::bail!(
                    "the FAFFT for beta = {} does not reduce modulo P(s_l(x)) (verification failed)",
                    r.beta
                );
            }
        }
        Cmd::Moduli {
            m,
            l,
            within,
            top,
            threads,
            out,
            checkpoint,
            shard,
            max_poly_weight,
            max_exp_popcount,
            stop_after_chunks,
        } => {
            let shard = shard.map(|s| s.parse::<Shard>()).transpose()?;
            if let Some(o) = &out {
                check_writable(o)?;
            }
            let args = ModuliArgs {
                m,
                l,
                within,
                top,
                max_poly_weight,
                max_exp_popcount,
                shard,
            };
            let opts = RunOptions {
                threads: threads.map(|t| t as usize),
                checkpoint,
                progress: true,
                stop_after_chunks,
            };
            let report = run_moduli(&args, &opts)?;
            let bytes = to_json(&report)?;
            match &out {
                Some(o) => {
                    write_out(o, &bytes)?;
                    eprintln!("{}\nwritten to {}", summary(&report), o.display());
                }
                None => print!("{}", String::from_utf8_lossy(&bytes)),
            }
        }
        Cmd::Merge {
            parts,
            out,
            threads,
        } => {
            check_writable(&out)?;
            let mut data = Vec::new();
            for p in parts {
                let b =
                    std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
                data.push((p, b));
            }
            let report = merge_reports(
                &data,
                |m| search::params::field_ctx(m).ok(),
                threads.map(|t| t as usize),
            )?;
            write_out(&out, &to_json(&report)?)?;
            eprintln!("{}\nwritten to {}", summary(&report), out.display());
        }
        Cmd::Crt(a) => search::crt_plan::run(&a)?,
        Cmd::Plot(a) => search::plot::run(&a)?,
        Cmd::Export(a) => search::export::run(&a)?,
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(SearchError::Stopped { .. }) = e.downcast_ref::<SearchError>() {
                eprintln!("search: {e}");
                return ExitCode::from(3);
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
