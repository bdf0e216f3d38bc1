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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::Serialize;

use super::args::BoardArgs;
use super::kem::{self, Expected};
use super::params::{self, Config};
use super::report::{Checks, Timing};
use super::runs::{exit_meaning, qemu_cmd, run_logged, tail};
use super::toolchain::{self, Paths};
use super::{progress, BoardError};
use crate::m4cycles::{self, ClassCounts};
use hqc_verify::core::code::Decoder;
use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::core::probe::Component;
use hqc_verify::multiplier::MultiplierKind;

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
    pub checks: Vec<super::Check>,
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

/// One region's figures: instructions and classes.
#[derive(Clone, Debug, Default)]
struct Acc {
    regions: u64,
    instructions: u64,
    classes: ClassCounts,
}

impl Acc {
    fn add(&mut self, instructions: u64, c: &ClassCounts) {
        self.regions += 1;
        self.instructions += instructions;
        self.classes = self.classes.add(c);
    }
}

/// The regions of a plugin log attributed to operations: for each `main` region (index k),
/// the component regions that stopped before it and after the previous `main` region.
/// Errors name the problem (a region without classes, an unknown pair name).
fn attribute(log: &m4cycles::PluginLog) -> Result<BTreeMap<u64, (Acc, Vec<Acc>)>, String> {
    let mut out = BTreeMap::new();
    let mut pending = vec![Acc::default(); Component::COUNT];
    for r in &log.regions {
        let classes = r
            .classes
            .as_ref()
            .ok_or_else(|| format!("region {} #{} has no classes line", r.name, r.index))?;
        if r.name == "main" {
            let mut op = Acc::default();
            op.add(r.instructions, classes);
            let comps = std::mem::replace(&mut pending, vec![Acc::default(); Component::COUNT]);
            out.insert(r.index, (op, comps));
        } else {
            let c = Component::from_key(&r.name)
                .ok_or_else(|| format!("region {} is not a component", r.name))?;
            pending[c.index()].add(r.instructions, classes);
        }
    }
    Ok(out)
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Estimated cycles per instruction, to 3 decimals (0 without instructions).
fn cpi(cycles: u64, instructions: u64) -> f64 {
    if instructions == 0 {
        return 0.0;
    }
    (cycles as f64 / instructions as f64 * 1e3).round() / 1e3
}

/// Builds an operation's rows from its region and its components' regions; checks that
/// the components fit in the operation class by class (pushes the result).
fn operation_profile(
    name: &str,
    op: &Acc,
    comps: &[Acc],
    check_prefix: &str,
    ck: &mut Checks,
) -> OperationProfile {
    let total_cycles = m4cycles::estimate_cycles(&op.classes);
    let mut sum = ClassCounts::default();
    let mut rows = Vec::new();
    for c in Component::ALL {
        let a = &comps[c.index()];
        sum = sum.add(&a.classes);
        let cycles = m4cycles::estimate_cycles(&a.classes);
        rows.push(ComponentFigures {
            key: c.key().into(),
            label: c.label().into(),
            regions: a.regions,
            instructions: a.instructions,
            cycles,
            cpi: cpi(cycles, a.instructions),
            share_instructions: share(a.instructions, op.instructions),
            share_cycles: share(cycles, total_cycles),
            host_us: None,
            host_share: None,
        });
    }
    // The remainder, class by class; a component outside its operation would make a class
    // of `sum` exceed the operation's.
    let over: Vec<String> = op
        .classes
        .entries()
        .iter()
        .zip(sum.entries())
        .filter(|((_, t), (_, s))| s > t)
        .map(|((k, t), (_, s))| format!("{k}: components {s} > operation {t}"))
        .collect();
    let other = op.classes.sub(&sum);
    let other_cycles = m4cycles::estimate_cycles(&other);
    let comp_instr: u64 = rows.iter().map(|r| r.instructions).sum();
    let comp_cycles: u64 = rows.iter().map(|r| r.cycles).sum();
    let exact = over.is_empty()
        && comp_instr + other.instructions() == op.instructions
        && comp_cycles + other_cycles == total_cycles
        && sum.instructions() == comp_instr;
    ck.push(
        format!("{check_prefix} {name}: components + other = total"),
        exact,
        if exact {
            format!(
                "{comp_instr} + {} = {} instructions, {comp_cycles} + {other_cycles} = {total_cycles} estimated cycles",
                other.instructions(),
                op.instructions
            )
        } else {
            format!(
                "components {comp_instr} instructions / {comp_cycles} cycles, operation {} / {total_cycles}; {}",
                op.instructions,
                over.join(", ")
            )
        },
    );
    let missing: Vec<&str> = expected_components(name)
        .into_iter()
        .filter(|c| comps[c.index()].instructions == 0)
        .map(|c| c.key())
        .collect();
    ck.push(
        format!("{check_prefix} {name}: every expected component counted"),
        missing.is_empty(),
        if missing.is_empty() {
            "all non-zero".into()
        } else {
            format!("zero: {}", missing.join(", "))
        },
    );
    rows.push(ComponentFigures {
        key: "other".into(),
        label: "other".into(),
        regions: 0,
        instructions: other.instructions(),
        cycles: other_cycles,
        cpi: cpi(other_cycles, other.instructions()),
        share_instructions: share(other.instructions(), op.instructions),
        share_cycles: share(other_cycles, total_cycles),
        host_us: None,
        host_share: None,
    });
    OperationProfile {
        operation: name.into(),
        instructions: op.instructions,
        cycles: total_cycles,
        cpi: cpi(total_cycles, op.instructions),
        host_median_us: None,
        host_dropped: None,
        components: rows,
    }
}

/// The profile of one plugin log and board output (the parsing half of a profiled run).
pub(crate) fn profile_from_logs(
    plugin_log: &str,
    board_out: &str,
    check_prefix: &str,
    ck: &mut Checks,
) -> Result<Vec<OperationProfile>, String> {
    let log = m4cycles::parse(plugin_log).map_err(|e| e.to_string())?;
    let by_index = attribute(&log)?;
    let mut labels = BTreeMap::new();
    for l in board_out.lines() {
        if let Some((k, label)) = l.strip_prefix("bench ").and_then(|r| r.split_once(' ')) {
            if let Ok(k) = k.parse::<u64>() {
                labels.insert(label.trim().to_string(), k);
            }
        }
    }
    let mut ops = Vec::new();
    for (name, _) in OPERATIONS {
        let (op, comps) = labels
            .get(name)
            .and_then(|k| by_index.get(k))
            .ok_or_else(|| format!("no counted {name} region"))?;
        ops.push(operation_profile(name, op, comps, check_prefix, ck));
    }
    Ok(ops)
}

/// `nm` symbol values (Thumb bit cleared) of `elf`.
fn symbols(elf: &Path) -> Result<BTreeMap<String, u64>, BoardError> {
    let out = Command::new("arm-none-eabi-nm")
        .arg(elf)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| BoardError::Spawn {
            program: format!("arm-none-eabi-nm {}", elf.display()),
            source,
        })?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3)
                .then(|| {
                    u64::from_str_radix(f[0], 16)
                        .ok()
                        .map(|v| (f[2].to_string(), v & !1))
                })
                .flatten()
        })
        .collect())
}

/// The plugin arguments: `start`/`stop` on the harness's markers and one pair per component.
fn plugin_args(elf: &Path) -> Result<String, BoardError> {
    let sym = symbols(elf)?;
    let get = |name: &'static str| {
        sym.get(name).copied().ok_or(BoardError::Symbol {
            elf: elf.to_path_buf(),
            symbol: name,
        })
    };
    let mut s = format!(
        "start=0x{:x},stop=0x{:x}",
        get("bench_start")?,
        get("bench_stop")?
    );
    for c in Component::ALL {
        let (e, l) = (
            format!("m4kem_probe_enter_{}", c.key()),
            format!("m4kem_probe_leave_{}", c.key()),
        );
        let (Some(a), Some(b)) = (sym.get(&e), sym.get(&l)) else {
            return Err(BoardError::Params(format!(
                "{}: no marker symbols {e} / {l} (not built with feature profile?)",
                elf.display()
            )));
        };
        let _ = write!(s, ",pair={}:0x{a:x}:0x{b:x}", c.key());
    }
    Ok(s)
}

/// Runs KAT entry 0 of `f` on the profiled ELF; the operations' profiles.
#[allow(clippy::too_many_arguments)]
fn profile_on_board(
    p: &Paths,
    elf: &Path,
    level: Level,
    f: Flavour,
    pinned: &str,
    timeout: u64,
    ck: &mut Checks,
) -> FlavourProfile {
    let mut fp = FlavourProfile {
        flavour: f.name().into(),
        kat_entry_ok: false,
        probe_violations: None,
        operations: Vec::new(),
    };
    let name = format!("profile-{}-{}", level.digit(), f.name());
    let check = format!("profile: {level} {f}");
    let pargs = match plugin_args(elf) {
        Ok(a) => a,
        Err(e) => {
            ck.push(format!("{check} run"), false, e.to_string());
            return fp;
        }
    };
    let plog = p.logs.join(format!("{name}.plugin"));
    let _ = std::fs::remove_file(&plog);
    let mut cmd = qemu_cmd(elf);
    cmd.arg("-plugin")
        .arg(format!("{},{pargs}", p.plugin.display()))
        .arg("-d")
        .arg("plugin")
        .arg("-D")
        .arg(&plog)
        .arg("-append")
        .arg(format!(
            "level={} flavour={} count=1 bench=1",
            level.digit(),
            f.name()
        ));
    let (code, text) = match run_logged(
        &mut cmd,
        &p.logs.join(format!("{name}.out")),
        Some(Duration::from_secs(timeout)),
    ) {
        Ok(x) => x,
        Err(e) => {
            ck.push(format!("{check} run"), false, e.to_string());
            return fp;
        }
    };
    let digest = text
        .lines()
        .filter_map(super::kem::EntryLine::parse)
        .find(|e| e.count == 0)
        .map(|e| e.digest);
    fp.kat_entry_ok = code == Some(0) && digest.is_some_and(|d| d.eq_ignore_ascii_case(pinned));
    ck.push(
        format!("{check} KAT entry 0 on the profiled build"),
        fp.kat_entry_ok,
        format!(
            "digest {} (pin {pinned}); QEMU exit {code:?}: {}",
            digest.unwrap_or("missing"),
            exit_meaning(code)
        ),
    );
    fp.probe_violations = text
        .lines()
        .find_map(|l| l.strip_prefix("probe violations="))
        .and_then(|v| v.trim().parse().ok());
    ck.push(
        format!("{check} component regions never nest"),
        fp.probe_violations == Some(0),
        format!(
            "violations reported by the board: {:?}",
            fp.probe_violations
        ),
    );
    let ptext = std::fs::read_to_string(&plog).unwrap_or_default();
    match profile_from_logs(&ptext, &text, &check, ck) {
        Ok(ops) => fp.operations = ops,
        Err(why) => ck.push(
            format!("{check} regions counted"),
            false,
            format!("{why} (plugin log {}; {})", plog.display(), tail(&text, 3)),
        ),
    }
    fp
}

/// Sets the host profile's figures beside the board's (same component keys).
fn add_host(fp: &mut FlavourProfile, host: &hqc_verify::profile::LevelProfile) {
    for op in &mut fp.operations {
        let Some(h) = OPERATIONS
            .iter()
            .find(|(k, _)| *k == op.operation)
            .and_then(|(_, title)| host.operations.iter().find(|o| o.operation == *title))
        else {
            continue;
        };
        op.host_median_us = Some(h.median_us);
        op.host_dropped = Some(h.dropped);
        for row in &mut op.components {
            let us = if row.key == "other" {
                Some(h.other_us)
            } else {
                h.components_us
                    .iter()
                    .find(|(k, _)| Component::from_key(&row.key).map(|c| c.label()) == Some(k))
                    .map(|(_, v)| *v)
            };
            row.host_us = us;
            row.host_share = us.map(|u| {
                if h.probed_mean_us > 0.0 {
                    u / h.probed_mean_us
                } else {
                    0.0
                }
            });
        }
    }
}

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

/// Builds the counting plugin of this build folder (the firmware Makefile's `plugin` target).
fn build_plugin(p: &Paths, ck: &mut Checks) {
    let log = p.logs.join("plugin-build.log");
    let mut cmd = Command::new("make");
    cmd.arg("-C")
        .arg(p.board.join("firmware"))
        .arg("-s")
        .arg(format!("PARAMS_DIR={}", p.params_dir.display()))
        .arg(format!("BUILD={}", p.fw_build.display()))
        .arg(format!("PLUGIN={}", p.plugin.display()))
        .arg("plugin");
    let r = run_logged(&mut cmd, &log, None);
    let ok = matches!(&r, Ok((Some(0), _))) && p.plugin.is_file();
    ck.push(
        "profile: counting plugin built".into(),
        ok,
        match r {
            Ok((code, text)) => format!(
                "make plugin exited {code:?} ({}): {}",
                log.display(),
                tail(&text, 5)
            ),
            Err(e) => e.to_string(),
        },
    );
}

/// Runs the profile (progress on stderr). `Ok` with a failed check has `passed = false`.
pub fn execute(args: &BoardArgs) -> Result<ProfileReport, BoardError> {
    let cfg: Config = params::load(&args.params, args.level)?;
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
        timing: super::counts::timing(),
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

// ----- text ---------------------------------------------------------------------------------

fn thousands(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// The profile as text tables.
pub fn render_text(r: &ProfileReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "board profile: {}, decoder {}, multiplier {} (config {})",
        r.level, r.decoder, r.multiplier, r.config_id
    );
    let _ = writeln!(s, "host: {}", r.host);
    for fp in &r.flavours {
        for op in &fp.operations {
            let title = OPERATIONS
                .iter()
                .find(|(k, _)| *k == op.operation)
                .map(|(_, t)| *t)
                .unwrap_or("?");
            let _ = writeln!(
                s,
                "\n{} {} {title}: {} instructions, {} estimated cycles{}",
                r.level,
                fp.flavour,
                thousands(op.instructions),
                thousands(op.cycles),
                op.host_median_us
                    .map(|u| format!(
                        "; host median {u:.1} us ({} preempted probed iterations left out)",
                        op.host_dropped.unwrap_or(0)
                    ))
                    .unwrap_or_default()
            );
            let _ = writeln!(
                s,
                "{:<10} {:>7} {:>12} {:>7} {:>12} {:>7} {:>6} {:>10} {:>7}",
                "component",
                "regions",
                "instructions",
                "share",
                "est. cycles",
                "share",
                "CPI",
                "host us",
                "share"
            );
            for c in &op.components {
                let _ = writeln!(
                    s,
                    "{:<10} {:>7} {:>12} {:>7} {:>12} {:>7} {:>6.3} {:>10} {:>7}",
                    c.label,
                    if c.key == "other" {
                        String::new()
                    } else {
                        c.regions.to_string()
                    },
                    thousands(c.instructions),
                    pct(c.share_instructions),
                    thousands(c.cycles),
                    pct(c.share_cycles),
                    c.cpi,
                    c.host_us.map(|u| format!("{u:.1}")).unwrap_or_default(),
                    c.host_share.map(pct).unwrap_or_default()
                );
            }
        }
    }
    if !r.passed {
        let _ = writeln!(s, "\nFAILED: {}", r.failed.join("; "));
        for c in r.checks.iter().filter(|c| !c.passed) {
            let _ = writeln!(s, "  {}: {}", c.name, c.detail);
        }
    }
    let _ = writeln!(s, "\n{}", r.note);
    let _ = writeln!(
        s,
        "{} ({}): {}",
        r.timing.version, r.timing.rules, r.timing.note
    );
    s
}

pub use super::profile_svg::{render_svg, write_svg};

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(alu: u64, ldr: u64, br: u64, taken: u64) -> ClassCounts {
        ClassCounts {
            alu,
            ldr,
            br,
            br_taken: taken,
            br_untaken: br - taken,
            ..Default::default()
        }
    }

    fn lines(name: &str, k: u64, c: &ClassCounts) -> String {
        format!(
            "region {name} #{k} {}\nclasses {name} #{k} {}\n",
            c.instructions(),
            c.to_fields()
        )
    }

    #[test]
    fn components_and_other_add_up_and_are_attributed() {
        let h = classes(10, 2, 1, 1);
        let s = classes(5, 0, 0, 0);
        let op0 = classes(40, 5, 4, 2);
        let op1 = classes(9, 0, 0, 0);
        let log = format!(
            "{}{}{}{}{}total 1\n",
            lines("hash", 0, &h),
            lines("sampling", 0, &s),
            lines("hash", 1, &h),
            lines("main", 0, &op0),
            lines("main", 1, &op1)
        );
        let m = m4cycles::parse(&log).expect("log parses");
        let a = attribute(&m).expect("attributed");
        let (op, comps) = &a[&0];
        let mut ck = Checks::default();
        let p = operation_profile("keygen", op, comps, "t", &mut ck);
        assert_eq!(p.instructions, op0.instructions());
        let sum_i: u64 = p.components.iter().map(|c| c.instructions).sum();
        let sum_c: u64 = p.components.iter().map(|c| c.cycles).sum();
        assert_eq!(sum_i, p.instructions);
        assert_eq!(sum_c, p.cycles);
        assert_eq!(p.components[Component::Hash.index()].regions, 2);
        assert!(ck.0[0].passed, "{:?}", ck.0);
        // KeyGen also expects support and h*y: the second check fails.
        assert!(!ck.0[1].passed && ck.0[1].detail.contains("support"));
        // The second operation has no components: all of it is other.
        let (op, comps) = &a[&1];
        let p = operation_profile("encaps", op, comps, "t", &mut ck);
        assert_eq!(p.components.last().map(|c| c.instructions), Some(9));
    }

    #[test]
    fn a_component_larger_than_its_operation_fails() {
        let h = classes(10, 2, 1, 1);
        let op0 = classes(5, 0, 0, 0);
        let log = format!(
            "{}{}total 1\n",
            lines("hash", 0, &h),
            lines("main", 0, &op0)
        );
        let m = m4cycles::parse(&log).expect("log parses");
        let a = attribute(&m).expect("attributed");
        let (op, comps) = &a[&0];
        let mut ck = Checks::default();
        operation_profile("keygen", op, comps, "t", &mut ck);
        assert!(!ck.0[0].passed);
        let bad = format!("{}total 1\n", lines("nonsense", 0, &h));
        let m = m4cycles::parse(&bad).expect("log parses");
        assert!(attribute(&m).is_err());
    }
}
