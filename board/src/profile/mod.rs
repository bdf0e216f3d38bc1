//! `hqc-verify board --profile`: KeyGen, Encaps and Decaps on the emulated Cortex-M4, component
//! by component (docs/board.md §14).
//!
//! `m4kem` is built with cargo feature `profile`: every region of
//! [`hqc_verify::core::probe::Component`] (the one definition of the components, shared with the
//! host's `hqc-verify profile`) is bracketed by calls to its own marker pair
//! `m4kem_probe_enter_<key>` / `m4kem_probe_leave_<key>`. The counting plugin gets the
//! harness's `bench_start`/`bench_stop` (one region per operation) and one `pair=<key>:..:..`
//! per component. The plugin prints a region when it stops, so every component region printed
//! before an operation's region belongs to it. Component regions never nest (the probe counts
//! violations, the harness prints them), so the components of an operation are disjoint
//! parts of it and `other` = the operation minus the components is exact, class by class;
//! the estimated cycles are linear in the classes, so they add up exactly too.
//!
//! Beside the board, the host profile of the same level, flavour, decoder and configuration
//! ([`hqc_verify::profile`], wall-clock time with the fafft-crt multiplier of the same params.json)
//! gives each component's share of host time. Host times vary from run to run; the board's
//! figures are exact and repeatable.

mod attribute;
mod render;
mod run;
#[cfg(test)]
mod tests;

use std::path::Path;

use serde::Serialize;

use crate::args::BoardArgs;
use crate::error::BoardError;
use crate::export_input::{self, Config};
use crate::kem::{self, Expected};
use crate::paths::Paths;
use crate::progress::progress;
use crate::report::{Checks, Timing};
use crate::toolchain;
use hqc_verify::core::code::Decoder;
use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::core::probe::Component;
use hqc_verify::multiplier::MultiplierKind;

mod svg;
pub use render::render_text;
use run::{add_host, build_plugin, profile_on_board};
pub use svg::{render_svg, write_svg};

/// Version of the profile JSON (docs/board.md §14).
pub const PROFILE_SCHEMA_VERSION: u32 = 3;

/// The three KEM operations, as the harness labels their regions.
pub const OPERATIONS: [(&str, &str); 3] = [
    ("keygen", "KeyGen"),
    ("encaps", "Encaps"),
    ("decaps", "Decaps"),
];

/// The components an operation must contain (non-zero), by the algorithm: KeyGen samples and
/// computes s = h·y; Encaps hashes, samples, multiplies twice and encodes; Decaps decodes,
/// re-encrypts and compares.
pub fn expected_components(operation: &str) -> Vec<Component> {
    use Component::*;
    match operation {
        "keygen" => vec![Hash, Sampling, SupportExpand, RingHY],
        "encaps" => vec![
            Hash,
            Sampling,
            SupportExpand,
            RingHR2,
            RingSR2,
            RsEncode,
            RmEncode,
        ],
        "decaps" => Component::ALL
            .into_iter()
            .filter(|c| *c != RingHY)
            .collect(),
        _ => Vec::new(),
    }
}

/// One component (or `other`, or `total`) of one operation.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ComponentFigures {
    /// `Component::key` (`other` = the remainder, `total` = the operation).
    pub key: String,
    /// `Component::label`.
    pub label: String,
    /// Regions of this component in the operation (0 for `other`, 1 for `total`).
    pub regions: u64,
    /// Executed instructions.
    pub instructions: u64,
    /// Estimated cycles (docs/m4-timing.md).
    pub cycles: u64,
    /// Estimated cycles per instruction (0 when no instruction ran).
    pub cpi: f64,
    /// Share of the operation's instructions.
    pub share_instructions: f64,
    /// Share of the operation's estimated cycles.
    pub share_cycles: f64,
    /// Mean host time per operation, µs (with the probe).
    pub host_us: Option<f64>,
    /// Share of the operation's host time (with the probe).
    pub host_share: Option<f64>,
}

/// The profile of one operation.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OperationProfile {
    /// `keygen`, `encaps`, `decaps`.
    pub operation: String,
    /// Executed instructions of the operation (the harness's region).
    pub instructions: u64,
    /// Estimated cycles of the operation.
    pub cycles: u64,
    /// Estimated cycles per instruction of the operation.
    pub cpi: f64,
    /// Host: median time without the probe, µs.
    pub host_median_us: Option<f64>,
    /// Host: probed iterations left out of the component means (preempted,
    /// [`hqc_verify::profile::OUTLIER_FACTOR`]).
    pub host_dropped: Option<usize>,
    /// One row per component in `Component::ALL` order, then `other`.
    pub components: Vec<ComponentFigures>,
}

/// The profile of one flavour.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlavourProfile {
    /// Flavour name.
    pub flavour: String,
    /// The board's KAT entry 0 (the profiled run) reproduced its committed pin.
    pub kat_entry_ok: bool,
    /// Region-discipline violations reported by the board (must be 0).
    pub probe_violations: Option<u64>,
    /// KeyGen, Encaps, Decaps.
    pub operations: Vec<OperationProfile>,
}

/// A component's definition (from `Component`).
#[derive(Clone, Debug, Serialize)]
pub struct ComponentDef {
    /// Machine name.
    pub key: String,
    /// Label.
    pub label: String,
}

/// The whole profile (`--profile --json`).
#[derive(Clone, Debug, Serialize)]
pub struct ProfileReport {
    /// `hqc-verify-board-profile`.
    pub schema: String,
    /// [`PROFILE_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The command (canonical form).
    pub command: String,
    /// Every check passed.
    pub passed: bool,
    /// Failed checks.
    pub failed: Vec<String>,
    /// Every check.
    pub checks: Vec<crate::report::Check>,
    /// "HQC-1" ...
    pub level: String,
    /// The configuration (`config_id` of params.json).
    pub config_id: String,
    /// The Reed-Solomon decoder.
    pub decoder: String,
    /// The board's multiplier (`c-fafft`, the C FAFFT+CRT of the export).
    pub multiplier: String,
    /// The host profile's multiplier and iterations.
    pub host: String,
    /// The components, in row order (`other` follows them).
    pub components: Vec<ComponentDef>,
    /// Per flavour.
    pub flavours: Vec<FlavourProfile>,
    /// How the cycles are estimated.
    pub timing: Timing,
    /// What the figures are.
    pub note: String,
}

/// What the profile's figures are (printed in every profile).
pub const PROFILE_NOTE: &str = "board: executed instructions (exact) and estimated cycles of each component region of \
KeyGen, Encaps and Decaps of KAT entry 0 (m4kem built with feature profile: one marker pair per component, regions \
never nest), other = the operation minus the components; host: mean wall-clock time per component with the same \
probe (hqc-verify profile), which varies from run to run";

/// The default Reed-Solomon decoder of the board at `level`: the one with fewer Decaps
/// instructions on the board (docs/board.md §14; `bench.sh` on the plain and `FEATURES=eea`
/// builds of the committed exports, flavour 2026-02, KAT entry 0). EEA was the faster at every
/// level when measured (docs/board.md §14 gives the figures with their date and command).
pub fn default_decoder(level: Level) -> Decoder {
    match level {
        Level::Hqc1 | Level::Hqc3 | Level::Hqc5 => Decoder::Eea,
    }
}

/// `args.decoder`, else [`default_decoder`].
pub fn decoder_of(args: &BoardArgs, level: Level) -> Decoder {
    args.decoder.unwrap_or_else(|| default_decoder(level))
}

/// The cargo features of m4kem for `decoder` (and the profile markers).
pub(crate) fn m4kem_features(decoder: Decoder, profile: bool) -> String {
    let mut f = Vec::new();
    if decoder == Decoder::Eea {
        f.push("eea");
    }
    if profile {
        f.push("profile");
    }
    f.join(",")
}

/// Runs the profile (progress on stderr). `Ok` with a failed check has `passed = false`.
pub fn execute(args: &BoardArgs) -> Result<ProfileReport, BoardError> {
    let cfg: Config = export_input::load(&args.params, args.level)?;
    let level = cfg.level;
    let decoder = decoder_of(args, level);
    let one = BoardArgs {
        count: 1,
        ..args.clone()
    };
    let expected = Expected::read(&one, level)?;
    let paths = Paths::new(args, &cfg.dir)?;
    progress("checking the toolchain");
    toolchain::ensure_tools(&paths)?;
    let mut ck = Checks::default();
    build_plugin(&paths, &mut ck);
    progress(&format!(
        "building m4kem with MUL=c-fafft, features {}",
        m4kem_features(decoder, true)
    ));
    let elf = kem::build_m4kem(
        &paths,
        &cfg,
        &args.xor,
        &m4kem_features(decoder, true),
        &mut ck,
    );
    // The host multiplier: the fafft-crt multiplier of the same params.json. The path lives
    // for the run; MultiplierKind borrows it for 'static.
    let leaked: &'static Path = Box::leak(args.params.clone().into_boxed_path());
    let host_kind = MultiplierKind::FafftCrt(leaked);
    let iters = usize::from(args.host_iterations);
    let mut flavours = Vec::new();
    for e in &expected.flavours {
        let f = e.flavour;
        let pinned = e
            .entries
            .first()
            .map(|x| x.pinned.clone())
            .unwrap_or_default();
        let mut fp = match &elf {
            Some(elf) => {
                progress(&format!("profiling {level} {f} on the board"));
                profile_on_board(&paths, elf, level, f, &pinned, args.timeout, &mut ck)
            }
            None => {
                ck.push(
                    format!("profile: {level} {f} run"),
                    false,
                    "not run: the m4kem build failed".into(),
                );
                FlavourProfile {
                    flavour: f.name().into(),
                    kat_entry_ok: false,
                    probe_violations: None,
                    operations: Vec::new(),
                }
            }
        };
        progress(&format!(
            "host profile of {level} {f} ({iters} iterations, fafft-crt)"
        ));
        match hqc_verify::profile::profile_decoded(level, f, host_kind, iters, decoder) {
            Ok(h) => add_host(&mut fp, &h),
            Err(e) => ck.push(
                format!("profile: {level} {f} host profile"),
                false,
                e.to_string(),
            ),
        }
        flavours.push(fp);
    }
    relativise(&mut ck, &paths.repo);
    let failed = ck.failed();
    Ok(ProfileReport {
        schema: "hqc-verify-board-profile".into(),
        schema_version: PROFILE_SCHEMA_VERSION,
        command: command_of(args, level, decoder),
        passed: failed.is_empty(),
        failed,
        checks: ck.0,
        level: level.name().into(),
        config_id: cfg.info.config_id.clone(),
        decoder: decoder.name().into(),
        multiplier: "c-fafft".into(),
        host: format!(
            "hqc-verify profile, fafft-crt multiplier of the same params.json, {iters} iterations"
        ),
        components: Component::ALL
            .into_iter()
            .map(|c| ComponentDef {
                key: c.key().into(),
                label: c.label().into(),
            })
            .collect(),
        flavours,
        timing: crate::counts::timing(),
        note: PROFILE_NOTE.into(),
    })
}

/// Paths in the checks' details relative to the repository root (`<repo>/build/...` becomes
/// `build/...`), so that the report names no checkout-specific folder.
fn relativise(ck: &mut Checks, repo: &Path) {
    let mut root = repo.display().to_string();
    if !root.ends_with('/') {
        root.push('/');
    }
    for c in &mut ck.0 {
        c.detail = c.detail.replace(&root, "");
    }
}

fn command_of(args: &BoardArgs, level: Level, decoder: Decoder) -> String {
    let fl = if args.flavour.0.len() == Flavour::ALL.len() {
        "all".to_string()
    } else {
        args.flavour
            .0
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "hqc-verify board --params {} --level {} --flavour {fl} --xor {} --decoder {decoder} --profile --host-iterations {}",
        args.params.display(),
        level.digit(),
        args.xor,
        args.host_iterations
    )
}
