//! `hqc-verify board --params P --ct-check`: an exact constant-time check of the HQC KEM on the
//! emulated Cortex-M4 (docs/board.md §13).
//!
//! The m4kem firmware is built as `hqc-verify board` builds it (the C FAFFT+CRT multiplier of
//! the export folder), but with the driver `board/m4kem/ct_driver.c` instead of the KAT
//! harness. The driver runs, for every case (a KAT entry's seed_kem, m and salt), KeyGen,
//! Encaps, Decaps of the valid ciphertext and Decaps of a tampered one (implicit rejection),
//! each between `bench_start` and `bench_stop`. The instruction-counting plugin in trace mode
//! (`trace=1`, `board/plugin/insncount.c`) prints per region instance the FNV-1a hash and the
//! length of two streams: the executed instruction addresses, and the data-memory accesses
//! (accessing instruction, data address, load/store, size). A region is **identical** when
//! both streams agree for every instance; otherwise it **differs**, and the two first
//! disagreeing instances are re-run alone with the full streams dumped (`dump=`), the first
//! differing record is found ([`first_divergence`]) and its instruction is named from the ELF
//! (`arm-none-eabi-nm`, `arm-none-eabi-addr2line`). When the instruction streams agree, the
//! memory streams are aligned and every differing access site is listed by function.
//!
//! What is compared, and what is excluded ([`EXCLUSIONS`]): KeyGen's fixed-weight sampler
//! draws a data-dependent number of candidates (rejection sampling, docs/hqc.md §6.3), so
//! KeyGen is compared over seeds whose sampler draws exactly w candidates for y and for x
//! ([`keygen_draws`]: none rejected at the threshold and none a repeated position, since both
//! add a draw), and one seed with more draws is compared separately and reported as such;
//! nothing else is excluded. The JSON form holds no times and is byte-identical between runs.

mod cases;
mod compare;
mod driver;
mod render;
mod symbols;
#[cfg(test)]
mod tests;
mod trace;

use serde::Serialize;

use crate::args::BoardArgs;
use crate::error::BoardError;
use crate::export_input;
use crate::paths::Paths;
use crate::progress::progress;
use crate::report::ParamsInfo;
use crate::runs::exit_meaning;
use crate::toolchain;
use hqc_verify::core::params::Flavour;

use compare::check_flavour;
use driver::{build_ct_elf, build_plugin, marker};

pub use cases::{choose_cases, entry_randomness, keygen_draws, sampler_draws, CaseChoice};
pub use render::render_text;
pub use symbols::Symbols;
pub use trace::{
    first_divergence, hash_insns, hash_mems, parse_traces, read_dump, Fnv1a64, MemAccess,
    TraceLine, FNV_BASIS, FNV_PRIME,
};

/// JSON schema of [`CtReport`].
pub const CT_SCHEMA_VERSION: u32 = 2;
/// Cases per flavour whose KeyGen is compared (seeds with no rejected or repeated candidate).
pub const CASES: usize = 8;
/// KAT entries the driver accepts (`ct_driver.c` MAX_ENTRY).
pub const MAX_ENTRY: usize = 1000;
/// The driver's tamper kinds, in order (`ct_driver.c` kind_names; case j uses kind j mod 8).
pub const TAMPER_KINDS: [&str; 8] = [
    "u-bit0",
    "v-bit",
    "salt-bit",
    "v-burst",
    "u-zero",
    "u-and-v-bit",
    "v-ones",
    "all-xor",
];

/// What the check leaves out, by name, with the reason (also printed in every report).
pub const EXCLUSIONS: &[(&str, &str)] = &[(
    "keygen: seeds whose fixed-weight sampler rejects or repeats candidates",
    "the keygen sampler (sampling.rs, docs/hqc.md section 6.3) draws 24-bit candidates until w \
     distinct positions below the rejection threshold are accepted; a candidate at or above \
     the threshold and one repeating an accepted position both cost a further draw, so the \
     number drawn depends on the seed and is inherent to the specified rejection sampling \
     (changing it changes the KAT outputs). The keygen region is compared over seeds whose y \
     and x draws are exactly w each (nothing rejected or repeated); one seed with more draws \
     is compared against them separately (region keygen-rejecting), whose difference is \
     expected and reported, not counted.",
), (
    "decaps: seeds whose y sampler rejects or repeats candidates",
    "Decaps re-derives y from seed_dk with the same keygen sampler (the first of KeyGen's two \
     draws), so a case whose y draw rejected or repeated candidates runs it longer for the \
     same reason; the decaps region is compared over the cases whose y draw took exactly w \
     candidates.",
)];

// ----- the report ---------------------------------------------------------------------------

/// A named exclusion.
#[derive(Clone, Debug, Serialize)]
pub struct Exclusion {
    /// What is excluded.
    pub name: String,
    /// Why.
    pub reason: String,
}

/// One case as the board ran it.
#[derive(Clone, Debug, Serialize)]
pub struct CtCase {
    /// Case index j (region instances 4j .. 4j+3).
    pub case: usize,
    /// KAT entry and the host's sampler count.
    #[serde(flatten)]
    pub choice: CaseChoice,
    /// Tamper kind of the invalid ciphertext.
    pub tamper: String,
    /// Decaps of the valid ciphertext returned Encaps' key.
    pub valid: bool,
    /// Decaps of the tampered ciphertext did not (implicit rejection).
    pub rejected: bool,
}

/// Where two traces first disagree.
#[derive(Clone, Debug, Serialize)]
pub struct Divergence {
    /// "instructions" or "memory".
    pub stream: String,
    /// The two instances compared (labels).
    pub instances: [String; 2],
    /// Index of the first differing record.
    pub index: usize,
    /// Instruction at that index in each trace (hex), `end` when a trace ended.
    pub pc: [String; 2],
    /// Its function+offset in each trace.
    pub symbol: [String; 2],
    /// Its source location in each trace (addr2line, inlining chain).
    pub location: [String; 2],
    /// Memory stream: the access of each trace ("load 0x... (4 bytes)").
    pub access: Option<[String; 2]>,
    /// Instruction stream: the last common instruction (the one whose successor differs).
    pub previous: Option<String>,
}

/// One function with differing memory accesses (aligned memory streams).
#[derive(Clone, Debug, Serialize)]
pub struct Site {
    /// The function.
    pub function: String,
    /// Accesses whose address differs.
    pub accesses: usize,
    /// Distinct instructions making them.
    pub instructions: usize,
    /// Source location of the first of them.
    pub location: String,
}

/// The verdict on one region.
#[derive(Clone, Debug, Serialize)]
pub struct CtRegion {
    /// Region name.
    pub name: String,
    /// Instances compared.
    pub instances: usize,
    /// "identical" or "differs".
    pub verdict: String,
    /// The instruction streams agree for every instance.
    pub instructions_identical: bool,
    /// The memory streams agree for every instance.
    pub memory_identical: bool,
    /// Instructions of the first instance.
    pub instructions: u64,
    /// Memory accesses of the first instance.
    pub memory_accesses: u64,
    /// Distinct (insns, ihash) and (mems, mhash) values over the instances.
    pub distinct: [usize; 2],
    /// Counted towards `passed` (false for the keygen-rejecting comparison).
    pub counted: bool,
    /// The first difference, when the region differs.
    pub first_difference: Option<Divergence>,
    /// Functions with differing accesses, when the instruction streams agree.
    pub differing_sites: Vec<Site>,
    /// A note (e.g. why the region is not counted).
    pub note: Option<String>,
}

/// The check of one flavour.
#[derive(Clone, Debug, Serialize)]
pub struct CtFlavour {
    /// The flavour.
    pub flavour: String,
    /// QEMU exit status of the hash run.
    pub qemu_exit: Option<i32>,
    /// The cases.
    pub cases: Vec<CtCase>,
    /// The regions.
    pub regions: Vec<CtRegion>,
}

/// The report of `hqc-verify board --ct-check`.
#[derive(Clone, Debug, Serialize)]
pub struct CtReport {
    /// [`CT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The command.
    pub command: String,
    /// True when every counted region is identical and every case decapsulated and
    /// rejected as it should.
    pub passed: bool,
    /// What failed.
    pub failed: Vec<String>,
    /// The export.
    pub params: ParamsInfo,
    /// params.json as given on the command line (the text report prints this, not the
    /// resolved absolute path of `params.file`).
    pub params_given: String,
    /// What is traced.
    pub traced: String,
    /// Exclusions.
    pub excluded: Vec<Exclusion>,
    /// Per flavour.
    pub flavours: Vec<CtFlavour>,
}

// ----- running ------------------------------------------------------------------------------

/// Options of [`check`] beyond the board arguments.
#[derive(Clone, Copy, Debug)]
pub struct CtOptions {
    /// Cases per flavour (KeyGen-comparable ones; one rejecting case is added).
    pub cases: usize,
    /// Re-run differing instances with full dumps and name the first difference.
    pub diagnose: bool,
}

impl Default for CtOptions {
    fn default() -> Self {
        CtOptions {
            cases: CASES,
            diagnose: true,
        }
    }
}

/// `hqc-verify board --ct-check`: [`check`] with the defaults.
pub fn execute(args: &BoardArgs) -> Result<CtReport, BoardError> {
    check(args, CtOptions::default())
}

const TRACED: &str = "per region instance (bench_start .. bench_stop around one KEM call of \
    ct_driver.c): the executed instruction addresses, and the data-memory accesses (accessing \
    instruction, data address, load/store, size); 64-bit FNV-1a and length of each stream \
    (insncount.c trace mode). KeyGen(seed_kem), Encaps(pk; m, salt), Decaps of the valid and of \
    a tampered ciphertext, per case a different KAT entry; the same static buffers and stack \
    depth for every call.";

/// Runs the check for the export of `args.params` and the flavours of `args.flavour`.
pub fn check(args: &BoardArgs, opt: CtOptions) -> Result<CtReport, BoardError> {
    let cfg = export_input::load(&args.params, args.level)?;
    let paths = Paths::new(args, &cfg.dir)?;
    progress("checking the toolchain");
    toolchain::ensure_tools(&paths)?;
    build_plugin(&paths)?;
    // The decoder of the board check (`--decoder`, else the board default).
    let features =
        crate::profile::m4kem_features(crate::profile::decoder_of(args, cfg.level), false);
    progress(&format!(
        "building m4kem (MUL=c-fafft, features [{features}]) with the constant-time driver ct_driver.c"
    ));
    let elf = build_ct_elf(&paths, &args.xor, &features)?;
    let syms = Symbols::read(&elf)?;
    let markers = (
        marker(&syms, &elf, "bench_start")?,
        marker(&syms, &elf, "bench_stop")?,
    );
    let mut failed = Vec::new();
    let mut flavours = Vec::new();
    for &f in &args.flavour.0 {
        let t0 = std::time::Instant::now();
        let fl = check_flavour(&paths, &cfg, &elf, &syms, markers, f, args.timeout, opt)?;
        progress(&format!(
            "{} {}: constant-time check took {:.1} s",
            cfg.level,
            f.name(),
            t0.elapsed().as_secs_f64()
        ));
        if fl.qemu_exit != Some(0) {
            failed.push(format!(
                "{}: the driver exited {:?} ({})",
                f.name(),
                fl.qemu_exit,
                exit_meaning(fl.qemu_exit)
            ));
        }
        for c in &fl.cases {
            if !c.valid || !c.rejected {
                failed.push(format!(
                    "{}: case {} (entry {}): valid={} rejected={}",
                    f.name(),
                    c.case,
                    c.choice.entry,
                    c.valid,
                    c.rejected
                ));
            }
        }
        for r in fl
            .regions
            .iter()
            .filter(|r| r.counted && r.verdict != "identical")
        {
            failed.push(format!("{}: region {} differs", f.name(), r.name));
        }
        flavours.push(fl);
    }
    Ok(CtReport {
        schema_version: CT_SCHEMA_VERSION,
        command: format!(
            "hqc-verify board --params {} --level {} --flavour {} --xor {} --ct-check",
            args.params.display(),
            cfg.level.digit(),
            if args.flavour.0.len() == Flavour::ALL.len() {
                "all".to_string()
            } else {
                args.flavour
                    .0
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(",")
            },
            args.xor
        ),
        passed: failed.is_empty(),
        failed,
        params: cfg.info.clone(),
        params_given: args.params.display().to_string(),
        traced: TRACED.into(),
        excluded: EXCLUSIONS
            .iter()
            .map(|(n, r)| Exclusion {
                name: (*n).into(),
                reason: (*r).into(),
            })
            .collect(),
        flavours,
    })
}
