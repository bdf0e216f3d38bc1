//! `hqc-verify`: regenerate and check the HQC 2025-08 KATs, profile the KEM, run an exported
//! FAFFT+CRT configuration on the emulated Cortex-M4 (docs/cli.md).
//!
//! ```text
//! hqc-verify kat [--level 1|3|5|all] [--flavour v5.0.0|2026-02|all]
//!                [--multiplier reference|portable] [--params FILE] [--count K]
//!                [--kat-dir DIR] [--rsp-out DIR] [--json] [--out FILE]
//! hqc-verify profile [--level ..] [--flavour ..] [--multiplier ..] [--params FILE]
//!                    [--iterations N] [--json] [--out FILE]
//! hqc-verify pin --kat-dir DIR [--pins-dir DIR] [--json] [--out FILE]
//! hqc-verify board --params FILE [...] [--json] [--out FILE]
//! hqc-verify package --params FILE --out-dir DIR [--flavour v5.0.0|2026-02] [--force]
//!                    [--board [--kat-count K]] [--json] [--out FILE]
//! ```
//!
//! One vocabulary for every command: `--json` prints the JSON report on stdout instead of
//! text; `--out FILE` writes the same bytes to FILE (checked writable before any work, written
//! through `fafft_config::output`: atomically for a regular file, through for a device, FIFO
//! or symbolic link). With `--params FILE` and no `--level`, `kat` and `profile` run the level
//! of the file's n.
//!
//! Exit status: 0 when every check matched, 1 on a mismatch or failed check (the output
//! names the first one), 2 on an error (bad arguments, unreadable or invalid files), printed
//! once as a sentence; 141, quietly, when the reader of stdout went away (`| head`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use serde::Serialize;

use hqc_board::{ct, package, pipeline, render, BoardArgs};
use hqc_verify::core::code::Decoder;
use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::kat::{self, locate, ExpectedSource, KatError, KatRequest};
use hqc_verify::multiplier::MultiplierKind;
use hqc_verify::profile;

#[derive(Parser, Debug)]
#[command(
    name = "hqc-verify",
    version,
    about = "HQC 2025-08 (HQC-1/3/5) KAT verifier, profiler and board runner"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Regenerate the KAT entries from their seeds and compare with the committed pins.
    Kat(KatArgs),
    /// Per-component time accounting of KeyGen, Encaps, Decaps.
    Profile(ProfileArgs),
    /// Regenerate the per-entry pins (kat/entries/*.txt) from the official .rsp files.
    Pin(PinArgs),
    /// Build the exported parameters into Cortex-M4 firmware, run it under QEMU, check KATs and count instructions.
    Board(BoardCmd),
    /// Write a pqm4 implementation folder (crypto_kem/hqc-<L>/m4f) for an exported configuration.
    Package(PackageCmd),
}

/// `--json` and `--out`, the same for every command.
#[derive(Args, Debug)]
struct Output {
    /// Print the JSON report on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the JSON report (the bytes `--json` prints) to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct Selection {
    /// Level: 1, 3, 5 or all (default: all; with --params, the level of the file's n).
    #[arg(long, value_parser = parse_levels)]
    level: Option<Levels>,
    /// KAT flavour: v5.0.0, 2026-02 or all.
    #[arg(long, default_value = "all", value_parser = parse_flavours)]
    flavour: Flavours,
    /// Ring multiplier: reference, portable, or fafft-crt (with --params).
    #[arg(long, default_value = "reference")]
    multiplier: String,
    /// Parameter JSON of the fafft-crt multiplier (`search export` output); selects fafft-crt.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Reed-Solomon decoder in Decaps: bm (Berlekamp-Massey) or eea (extended Euclid).
    #[arg(long, default_value = "bm", value_parser = parse_decoder)]
    decoder: Decoder,
}

#[derive(Args, Debug)]
struct KatArgs {
    #[command(flatten)]
    sel: Selection,
    /// Number of entries to regenerate (1..=100).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..=100))]
    count: u16,
    /// Folder with the official KAT files, for whole-file comparison (optional; default
    /// $HQC_KAT_DIR when set; without either, the committed per-entry pins judge the run).
    #[arg(long, value_name = "DIR")]
    kat_dir: Option<PathBuf>,
    /// Write the regenerated files to DIR/<flavour folder>/hqc-L.rsp.
    #[arg(long, value_name = "DIR")]
    rsp_out: Option<PathBuf>,
    #[command(flatten)]
    output: Output,
}

#[derive(Args, Debug)]
struct ProfileArgs {
    #[command(flatten)]
    sel: Selection,
    /// Iterations per operation.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iterations: u32,
    #[command(flatten)]
    output: Output,
}

#[derive(Args, Debug)]
struct PinArgs {
    /// Folder with the official KAT files (default: $HQC_KAT_DIR).
    #[arg(long, value_name = "DIR")]
    kat_dir: Option<PathBuf>,
    /// Folder the pin files are written to (default: this crate's kat/entries).
    #[arg(long, value_name = "DIR")]
    pins_dir: Option<PathBuf>,
    #[command(flatten)]
    output: Output,
}

#[derive(Args, Debug)]
struct BoardCmd {
    #[command(flatten)]
    args: BoardArgs,
    #[command(flatten)]
    output: Output,
}

#[derive(Args, Debug)]
struct PackageCmd {
    #[command(flatten)]
    args: package::PackageArgs,
    #[command(flatten)]
    output: Output,
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

fn parse_decoder(s: &str) -> Result<Decoder, String> {
    Decoder::from_name(s).ok_or_else(|| format!("unknown decoder {s:?}: expected bm or eea"))
}

fn parse_flavours(s: &str) -> Result<Flavours, String> {
    if s == "all" {
        return Ok(Flavours(Flavour::ALL.to_vec()));
    }
    Flavour::parse(s)
        .map(|f| Flavours(vec![f]))
        .ok_or_else(|| format!("unknown flavour {s:?}: expected v5.0.0, 2026-02 or all"))
}

impl Output {
    /// Refuses an `--out` that cannot be written, before any work.
    fn check(&self, inputs: &[Option<&Path>]) -> Result<()> {
        if let Some(out) = &self.out {
            if let Some(i) = inputs
                .iter()
                .flatten()
                .find(|i| fafft_config::output::same_file(out, i))
            {
                bail!(
                    "--out {} names the input {}: the report would replace its own input; give another file",
                    out.display(),
                    i.display()
                );
            }
            fafft_config::output::check_writable(out)
                .with_context(|| format!("cannot write --out {}", out.display()))?;
        }
        Ok(())
    }

    /// Prints `text` (or the JSON of `value` with `--json`) and writes the JSON to `--out`.
    fn emit<T: Serialize>(&self, value: &T, text: &str) -> Result<()> {
        let json = serde_json::to_string_pretty(value)? + "\n";
        if let Some(out) = &self.out {
            fafft_config::output::write_atomic(out, json.as_bytes())
                .with_context(|| format!("cannot write --out {}", out.display()))?;
        }
        fafft_config::output::print(if self.json { &json } else { text })?;
        Ok(())
    }
}

/// `--params FILE` is a regular file within the params.json limit (docs/cli.md §1), checked
/// before it is opened (a FIFO would block, a device never end); a missing file is left to the
/// configuration reader, which says so.
fn params_file_check(p: &Path) -> Result<()> {
    match fafft_config::input::check(p, fafft_config::input::PARAMS_JSON) {
        Err(e) if !e.is_not_found() => Err(e.into()),
        _ => Ok(()),
    }
}

fn multiplier(sel: &Selection) -> Result<MultiplierKind> {
    if let Some(p) = &sel.params {
        params_file_check(p)?;
        if sel.multiplier != "reference" && sel.multiplier != "fafft-crt" {
            bail!("--params selects the fafft-crt multiplier; it cannot be combined with --multiplier {}", sel.multiplier);
        }
        // The path lives for the whole run; leaking it gives the Copy kind a 'static borrow.
        let leaked: &'static Path = Box::leak(p.clone().into_boxed_path());
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

/// The levels to run: `--level`, else the level of the `--params` file's n, else all.
fn levels(sel: &Selection) -> Result<Vec<Level>> {
    if let Some(l) = &sel.level {
        return Ok(l.0.clone());
    }
    let Some(p) = &sel.params else {
        return Ok(Level::ALL.to_vec());
    };
    let n = fafft_config::spec::load(p)?.params.n;
    let lv = fafft_config::rules::level_of_n(n).with_context(|| {
        format!(
            "{}: n = {n} is not an HQC ring size (HQC-1 17669, HQC-3 35851, HQC-5 57637)",
            p.display()
        )
    })?;
    Level::parse(&lv.digit().to_string())
        .with_context(|| format!("{}: no HQC level {lv}", p.display()))
        .map(|l| vec![l])
}

fn kat_text(o: &kat::KatOutcome) -> String {
    let src = match o.expected_source {
        ExpectedSource::Pinned => "pinned",
        ExpectedSource::OfficialFile => "official file",
        ExpectedSource::EntryPins => "per-entry pins",
    };
    let mut s = format!(
        "{:<6} {:<8} {:<10} {:>3} entries  sha256 {}  expected {} ({})  {}  [{:.2} s]\n",
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
        s += &format!(
            "       first difference: count = {}, field {}: {}\n",
            m.count, m.field, m.detail
        );
    }
    if let Some(w) = &o.written {
        s += &format!("       written to {}\n", w.display());
    }
    s
}

fn cmd_kat(a: &KatArgs) -> Result<bool> {
    a.output.check(&[a.sel.params.as_deref()])?;
    let kind = multiplier(&a.sel)?;
    let levels = levels(&a.sel)?;
    let kat_dir = locate::locate_kat_dir(a.kat_dir.as_deref())?;
    match &kat_dir {
        Some(d) => fafft_config::output::note(format_args!("official KAT folder: {}", d.display())),
        None => fafft_config::output::note(format_args!("{}", locate::PINS_ONLY_NOTE)),
    }
    fafft_config::output::note(format_args!("Reed-Solomon decoder: {}", a.sel.decoder));
    let mut outcomes = Vec::new();
    let mut text = String::new();
    for &flavour in &a.sel.flavour.0 {
        for &level in &levels {
            let req = KatRequest {
                level,
                flavour,
                multiplier: kind,
                count: a.count as usize,
                kat_dir: kat_dir.clone(),
                out_dir: a.rsp_out.clone(),
            };
            let o = kat::run_decoded(&req, a.sel.decoder)
                .with_context(|| format!("{level} {flavour} ({} decoder)", a.sel.decoder))?;
            text += &kat_text(&o);
            outcomes.push(o);
        }
    }
    let ok = outcomes.iter().all(|o| o.matches);
    let n = outcomes.iter().filter(|o| o.matches).count();
    text += &format!(
        "{n}/{} level/flavour combinations match ({} entries each)\n",
        outcomes.len(),
        a.count
    );
    a.output.emit(&outcomes, &text)?;
    Ok(ok)
}

fn cmd_profile(a: &ProfileArgs) -> Result<bool> {
    a.output.check(&[a.sel.params.as_deref()])?;
    fafft_config::output::note(format_args!("Reed-Solomon decoder: {}", a.sel.decoder));
    let kind = multiplier(&a.sel)?;
    let levels = levels(&a.sel)?;
    let mut all = Vec::new();
    let mut text = String::new();
    for &flavour in &a.sel.flavour.0 {
        for &level in &levels {
            let p = profile::profile_decoded(
                level,
                flavour,
                kind,
                a.iterations as usize,
                a.sel.decoder,
            )?;
            text += &profile::render_table(&p);
            text.push('\n');
            all.push(p);
        }
    }
    a.output.emit(&all, &text)?;
    Ok(true)
}

/// What `pin` wrote.
#[derive(Serialize)]
struct PinReport {
    /// The official KAT folder read.
    kat_dir: PathBuf,
    /// The files written.
    written: Vec<PathBuf>,
}

fn cmd_pin(a: &PinArgs) -> Result<bool> {
    a.output.check(&[])?;
    let dir = locate::locate_kat_dir(a.kat_dir.as_deref())?.with_context(|| {
        format!(
            "pin needs the official KAT files: pass --kat-dir DIR (or set {})",
            locate::ENV_VAR
        )
    })?;
    let out = a
        .pins_dir
        .clone()
        .unwrap_or_else(hqc_verify::kat::pins::entries_dir);
    let mut written = Vec::new();
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
            written.push(target);
        }
    }
    if let Some(target) = kat::write_intermediate_pins(&dir, &out)? {
        written.push(target);
    }
    let text: String = written
        .iter()
        .map(|t| format!("wrote {}\n", t.display()))
        .collect();
    a.output.emit(
        &PinReport {
            kat_dir: dir,
            written,
        },
        &text,
    )?;
    Ok(true)
}

fn cmd_board(b: &BoardCmd) -> Result<bool> {
    b.output.check(&[Some(b.args.params.as_path())])?;
    params_file_check(&b.args.params)?;
    if b.args.ct_check {
        let report = ct::execute(&b.args)?;
        b.output.emit(&report, &ct::render_text(&report))?;
        return Ok(report.passed);
    }
    if b.args.profile {
        let report = hqc_board::profile::execute(&b.args)?;
        if let Some(svg) = &b.args.svg {
            hqc_board::profile::write_svg(&report, svg)?;
        }
        b.output
            .emit(&report, &hqc_board::profile::render_text(&report))?;
        return Ok(report.passed);
    }
    let report = pipeline::execute(&b.args)?;
    b.output.emit(&report, &render::render_text(&report))?;
    Ok(report.passed)
}

fn cmd_package(p: &PackageCmd) -> Result<bool> {
    p.output.check(&[Some(p.args.params.as_path())])?;
    let report = package::execute(&p.args)?;
    p.output.emit(&report, &package::render_text(&report))?;
    Ok(report.passed())
}

/// The error and its causes as one sentence, each cause named once (a cause whose text the
/// message already contains is not repeated).
fn sentence(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if c.is_empty() || msg.contains(&c) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&c);
    }
    msg
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match &cli.cmd {
        Cmd::Kat(a) => cmd_kat(a),
        Cmd::Profile(a) => cmd_profile(a),
        Cmd::Pin(a) => cmd_pin(a),
        Cmd::Board(b) => cmd_board(b),
        Cmd::Package(p) => cmd_package(p),
    };
    match res {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) if fafft_config::output::is_broken_pipe(e.as_ref()) => {
            // the reader of stdout went away (`| head`): end quietly
            ExitCode::from(fafft_config::output::BROKEN_PIPE_STATUS)
        }
        Err(e) => {
            fafft_config::output::note(format_args!("error: {}", sentence(&e)));
            ExitCode::from(2)
        }
    }
}
