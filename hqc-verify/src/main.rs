//! `hqc-verify`: regenerate and check the HQC 2025-08 KATs, profile the KEM.
//!
//! ```text
//! hqc-verify kat [--level 1|3|5|all] [--flavour v5.0.0|2026-02|all]
//!                [--multiplier reference|portable] [--count K] [--json]
//!                [--kat-dir DIR] [--out DIR] [--params FILE]
//! hqc-verify profile [--level ..] [--flavour ..] [--multiplier ..] [--iterations N] [--json]
//! hqc-verify pin [--kat-dir DIR] [--out DIR]
//! ```
//!
//! Exit status of `kat`: 0 when every selected level and flavour matches, 1 on a mismatch,
//! 2 on an error (bad arguments, unreadable files, …).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};

use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::kat::{self, locate, ExpectedSource, KatError, KatRequest};
use hqc_verify::multiplier::MultiplierKind;
use hqc_verify::profile;

#[derive(Parser, Debug)]
#[command(
    name = "hqc-verify",
    version,
    about = "HQC 2025-08 (HQC-1/3/5) KAT verifier and profiler"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Regenerate the KAT entries from their seeds and compare with the official digests.
    Kat(KatArgs),
    /// Per-component time accounting of KeyGen, Encaps, Decaps.
    Profile(ProfileArgs),
    /// Regenerate the per-entry pins (kat/entries/*.txt) from the official .rsp files.
    Pin(PinArgs),
    /// Build the exported parameters into Cortex-M4 firmware, run it under QEMU, check KATs and count instructions.
    Board(hqc_verify::board::BoardArgs),
}

#[derive(Args, Debug)]
struct Selection {
    /// Level: 1, 3, 5 or all.
    #[arg(long, default_value = "all", value_parser = parse_levels)]
    level: Levels,
    /// KAT flavour: v5.0.0, 2026-02 or all.
    #[arg(long, default_value = "all", value_parser = parse_flavours)]
    flavour: Flavours,
    /// Ring multiplier: reference, portable, or fafft-crt (with --params).
    #[arg(long, default_value = "reference")]
    multiplier: String,
    /// Parameter JSON of the fafft-crt multiplier (`search export` output); selects fafft-crt.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct KatArgs {
    #[command(flatten)]
    sel: Selection,
    /// Number of entries to regenerate (1..=100).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..=100))]
    count: u16,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Folder with the official KAT files, for whole-file comparison (optional; default
    /// $HQC_KAT_DIR when set; without either, the committed per-entry pins judge the run).
    #[arg(long, value_name = "DIR")]
    kat_dir: Option<PathBuf>,
    /// Write the regenerated files to DIR/<flavour folder>/hqc-L.rsp.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ProfileArgs {
    #[command(flatten)]
    sel: Selection,
    /// Iterations per operation.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iterations: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PinArgs {
    /// Folder with the official KAT files.
    #[arg(long, value_name = "DIR")]
    kat_dir: Option<PathBuf>,
    /// Output folder (default: this crate's kat/entries).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Clone, Debug)]
struct Levels(Vec<Level>);
#[derive(Clone, Debug)]
struct Flavours(Vec<Flavour>);

fn parse_levels(s: &str) -> Result<Levels, String> {
    if s == "all" {
        return Ok(Levels(Level::ALL.to_vec()));
    }
    Level::parse(s)
        .map(|l| Levels(vec![l]))
        .ok_or_else(|| format!("unknown level {s:?}: expected 1, 3, 5 or all"))
}

fn parse_flavours(s: &str) -> Result<Flavours, String> {
    if s == "all" {
        return Ok(Flavours(Flavour::ALL.to_vec()));
    }
    Flavour::parse(s)
        .map(|f| Flavours(vec![f]))
        .ok_or_else(|| format!("unknown flavour {s:?}: expected v5.0.0, 2026-02 or all"))
}

fn multiplier(sel: &Selection) -> Result<MultiplierKind> {
    if let Some(p) = &sel.params {
        if sel.multiplier != "reference" && sel.multiplier != "fafft-crt" {
            bail!("--params selects the fafft-crt multiplier; it cannot be combined with --multiplier {}", sel.multiplier);
        }
        // The path lives for the whole run; leaking it gives the Copy kind a 'static borrow.
        let leaked: &'static std::path::Path = Box::leak(p.clone().into_boxed_path());
        return Ok(MultiplierKind::FafftCrt(leaked));
    }
    if sel.multiplier == "fafft-crt" {
        bail!(
            "--multiplier fafft-crt needs --params FILE (a params.json written by `search export`)"
        );
    }
    match MultiplierKind::parse(&sel.multiplier) {
        Some(k) => Ok(k),
        None => bail!(
            "unknown multiplier {:?}: expected reference, portable, or fafft-crt with --params FILE",
            sel.multiplier
        ),
    }
}

fn cmd_kat(a: &KatArgs) -> Result<bool> {
    let kind = multiplier(&a.sel)?;
    let kat_dir = locate::locate_kat_dir(a.kat_dir.as_deref())?;
    if !a.json {
        match &kat_dir {
            Some(d) => eprintln!("official KAT folder: {}", d.display()),
            None => eprintln!("{}", locate::PINS_ONLY_NOTE),
        }
    }
    let mut outcomes = Vec::new();
    for &flavour in &a.sel.flavour.0 {
        for &level in &a.sel.level.0 {
            let req = KatRequest {
                level,
                flavour,
                multiplier: kind,
                count: a.count as usize,
                kat_dir: kat_dir.clone(),
                out_dir: a.out.clone(),
            };
            let o = kat::run(&req).with_context(|| format!("{level} {flavour}"))?;
            if !a.json {
                let src = match o.expected_source {
                    ExpectedSource::Pinned => "pinned",
                    ExpectedSource::OfficialFile => "official file",
                    ExpectedSource::EntryPins => "per-entry pins",
                };
                println!(
                    "{:<6} {:<8} {:<10} {:>3} entries  sha256 {}  expected {} ({})  {}  [{:.2} s]",
                    o.level,
                    o.flavour,
                    o.multiplier,
                    o.count,
                    o.digest,
                    o.expected.as_deref().unwrap_or("-"),
                    src,
                    if o.matches { "OK" } else { "MISMATCH" },
                    o.seconds
                );
                if let Some(m) = &o.first_mismatch {
                    println!(
                        "       first difference: count = {}, field {}: {}",
                        m.count, m.field, m.detail
                    );
                }
                if let Some(w) = &o.written {
                    println!("       written to {}", w.display());
                }
            }
            outcomes.push(o);
        }
    }
    let ok = outcomes.iter().all(|o| o.matches);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&outcomes)?);
    } else {
        let n = outcomes.iter().filter(|o| o.matches).count();
        println!(
            "{n}/{} level/flavour combinations match ({} entries each)",
            outcomes.len(),
            a.count
        );
    }
    Ok(ok)
}

fn cmd_profile(a: &ProfileArgs) -> Result<()> {
    let kind = multiplier(&a.sel)?;
    let mut all = Vec::new();
    for &flavour in &a.sel.flavour.0 {
        for &level in &a.sel.level.0 {
            let p = profile::profile(level, flavour, kind, a.iterations as usize)?;
            if !a.json {
                println!("{}", profile::render_table(&p));
            }
            all.push(p);
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(())
}

fn cmd_pin(a: &PinArgs) -> Result<()> {
    let dir = locate::locate_kat_dir(a.kat_dir.as_deref())?
        .context("official KAT folder not found; pass --kat-dir")?;
    let out = a.out.clone().unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("kat")
            .join("entries")
    });
    for flavour in Flavour::ALL {
        for level in Level::ALL {
            let (path, text) = kat::read_official(&dir, flavour, level)?.with_context(|| {
                format!(
                    "official file of {level} {flavour} missing in {}",
                    dir.display()
                )
            })?;
            let parsed = kat::rsp::parse(&text).map_err(|source| KatError::Rsp { path, source })?;
            let target = out.join(format!("{}-hqc-{}.txt", flavour.name(), level.digit()));
            kat::write_atomically(&target, &kat::entry_pin_text(flavour, level, &parsed))?;
            println!("wrote {}", target.display());
        }
    }
    if let Some(target) = kat::write_intermediate_pins(&dir, &out)? {
        println!("wrote {}", target.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Cmd::Board(a) = &cli.cmd {
        return match hqc_verify::board::run(a) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::from(2)
            }
        };
    }
    let res = match &cli.cmd {
        Cmd::Board(_) => Ok(false),
        Cmd::Kat(a) => cmd_kat(a),
        Cmd::Profile(a) => cmd_profile(a).map(|_| true),
        Cmd::Pin(a) => cmd_pin(a).map(|_| true),
    };
    match res {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
