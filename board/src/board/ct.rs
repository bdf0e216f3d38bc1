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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::Serialize;

use super::args::BoardArgs;
use super::firmware::errors_only;
use super::params::{self, Config};
use super::report::ParamsInfo;
use super::runs::{exit_meaning, qemu_cmd, run_logged, tail};
use super::toolchain::{self, Paths};
use super::{progress, BoardError};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::mul::PortableMul;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};
use hqc_verify::core::prng::{RandomSource, ShakePrng};
use hqc_verify::core::sampling::barrett_reduce;
use hqc_verify::core::xof::Xof;

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

// ----- hashing (the plugin's definition, docs/board.md §13) ----------------------------------

/// FNV-1a offset basis (64 bit).
pub const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a prime (64 bit).
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a over bytes, streaming.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a64(pub u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64(FNV_BASIS)
    }
}

impl Fnv1a64 {
    /// Absorbs `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    }
}

/// One data-memory access of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// Address of the accessing instruction.
    pub pc: u32,
    /// Data address.
    pub addr: u32,
    /// Bit 7: store; bits 0..1: log2 of the access size in bytes.
    pub info: u8,
}

impl MemAccess {
    /// The 9-byte record the plugin hashes and dumps.
    pub fn record(&self) -> [u8; 9] {
        let mut r = [0u8; 9];
        r[..4].copy_from_slice(&self.pc.to_le_bytes());
        r[4..8].copy_from_slice(&self.addr.to_le_bytes());
        r[8] = self.info;
        r
    }
    /// "load" or "store".
    pub fn kind(&self) -> &'static str {
        if self.info & 0x80 != 0 {
            "store"
        } else {
            "load"
        }
    }
}

/// The plugin's `ihash` of an instruction stream.
pub fn hash_insns(pcs: &[u32]) -> u64 {
    let mut h = Fnv1a64::default();
    for pc in pcs {
        h.update(&pc.to_le_bytes());
    }
    h.0
}

/// The plugin's `mhash` of a memory stream.
pub fn hash_mems(m: &[MemAccess]) -> u64 {
    let mut h = Fnv1a64::default();
    for a in m {
        h.update(&a.record());
    }
    h.0
}

/// The first index at which `a` and `b` differ (the shorter length if one is a proper prefix
/// of the other), or `None` when they are equal.
pub fn first_divergence<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(i),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}

/// One `trace` line of the plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// Region instance (completion order).
    pub k: u64,
    /// Instructions.
    pub insns: u64,
    /// Their hash.
    pub ihash: u64,
    /// Memory accesses.
    pub mems: u64,
    /// Their hash.
    pub mhash: u64,
}

impl TraceLine {
    fn same_insns(&self, o: &TraceLine) -> bool {
        self.insns == o.insns && self.ihash == o.ihash
    }
    fn same_mems(&self, o: &TraceLine) -> bool {
        self.mems == o.mems && self.mhash == o.mhash
    }
}

/// The `trace <pair> #k insns=.. ihash=.. mems=.. mhash=..` lines of pair `pair` in a plugin
/// log, in order.
pub fn parse_traces(log: &str, pair: &str) -> Result<Vec<TraceLine>, String> {
    let mut out = Vec::new();
    for line in log.lines() {
        let mut it = line.split_whitespace();
        if it.next() != Some("trace") || it.next() != Some(pair) {
            continue;
        }
        let bad = || format!("malformed trace line {line:?}");
        let k = it
            .next()
            .and_then(|s| s.strip_prefix('#'))
            .and_then(|s| s.parse().ok())
            .ok_or_else(bad)?;
        let mut f = BTreeMap::new();
        for kv in it {
            let (key, v) = kv.split_once('=').ok_or_else(bad)?;
            f.insert(key, v);
        }
        let dec = |key: &str| {
            f.get(key)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(bad)
        };
        let hex = |key: &str| {
            f.get(key)
                .and_then(|v| u64::from_str_radix(v, 16).ok())
                .ok_or_else(bad)
        };
        out.push(TraceLine {
            k,
            insns: dec("insns")?,
            ihash: hex("ihash")?,
            mems: dec("mems")?,
            mhash: hex("mhash")?,
        });
    }
    Ok(out)
}

/// `base` with `.ext` appended (not `with_extension`: a base such as `1-v5.0.0-0` has dots).
fn dump_file(base: &Path, ext: &str) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Reads the dump files `base.insn` and `base.mem` of the plugin's `dump=` mode.
pub fn read_dump(base: &Path) -> Result<(Vec<u32>, Vec<MemAccess>), BoardError> {
    let ip = dump_file(base, "insn");
    let mp = dump_file(base, "mem");
    let ib = std::fs::read(&ip).map_err(|e| BoardError::io("read", &ip, e))?;
    let mb = std::fs::read(&mp).map_err(|e| BoardError::io("read", &mp, e))?;
    if ib.len() % 4 != 0 || mb.len() % 9 != 0 {
        return Err(BoardError::PluginLog {
            path: ip,
            why: "a dump file is not a whole number of records".into(),
        });
    }
    let le = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let insns = ib.chunks_exact(4).map(le).collect();
    let mems = mb
        .chunks_exact(9)
        .map(|r| MemAccess {
            pc: le(&r[..4]),
            addr: le(&r[4..8]),
            info: r[8],
        })
        .collect();
    Ok((insns, mems))
}

// ----- case selection: KAT entries and the keygen sampler's draws -----------------------------

/// seed_kem, m (k bytes), salt of KAT entry `entry` (the outer KAT PRNG, then the entry's
/// PRNG, as the KAT generator and `m4kem_kat_randomness` draw them).
pub fn entry_randomness(entry: usize, k: usize) -> ([u8; 32], Vec<u8>, [u8; 16]) {
    let mut outer = ShakePrng::kat_outer();
    let mut seed = [0u8; 48];
    for _ in 0..=entry {
        outer.fill(&mut seed);
    }
    let mut prng = ShakePrng::new(&seed, &[]);
    let mut seed_kem = [0u8; 32];
    let mut m = vec![0u8; k];
    let mut salt = [0u8; 16];
    prng.fill(&mut seed_kem);
    prng.fill(&mut m);
    prng.fill(&mut salt);
    (seed_kem, m, salt)
}

/// The accepted positions and the number of candidates drawn by one run of the keygen
/// sampler (weight `w`) on `xof`. A test oracle of `core::sampling::sample_keygen` (checked
/// against it position for position): that function is constant time apart from this count,
/// which it does not expose.
pub fn sampler_draws<P: ParamSet>(xof: &mut Xof, flavour: Flavour, w: usize) -> (Vec<u32>, usize) {
    let (n, t) = (P::N as u32, P::REJECTION_THRESHOLD);
    let mut acc: Vec<u32> = Vec::with_capacity(w);
    let mut drawn = 0;
    let mut chunk = vec![0u8; 3 * w];
    let mut pos = chunk.len();
    while acc.len() < w {
        let c = match flavour {
            Flavour::V5_0_0 => {
                if pos >= chunk.len() {
                    xof.read(&mut chunk);
                    pos = 0;
                }
                let b = &chunk[pos..pos + 3];
                pos += 3;
                u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2])
            }
            Flavour::V2026_02 => {
                let mut b = [0u8; 3];
                xof.read(&mut b);
                u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16
            }
        };
        drawn += 1;
        let p = barrett_reduce(c, n, P::BARRETT_MU);
        if c < t && !acc.contains(&p) {
            acc.push(p);
        }
    }
    (acc, drawn)
}

/// Candidates drawn by KeyGen's sampler for y and x (each at least w) from `seed_kem`: the
/// host KeyGen gives seed_dk (bytes EK..EK+32 of the decapsulation key).
pub fn keygen_draws<P: ParamSet>(flavour: Flavour, seed_kem: &[u8; 32]) -> (usize, usize) {
    let hqc = Hqc::<P, PortableMul<P>>::new(PortableMul::new(), flavour);
    let Ok(hqc) = hqc else {
        // PortableMul is made for P::N: cannot fail
        return (0, 0);
    };
    let (_, dk) = hqc.keygen(seed_kem);
    let mut seed_dk = [0u8; 32];
    seed_dk.copy_from_slice(&dk.as_bytes()[P::EK_BYTES..P::EK_BYTES + 32]);
    let mut xof = Xof::new(&seed_dk, flavour);
    let (_, y) = sampler_draws::<P>(&mut xof, flavour, P::W);
    let (_, x) = sampler_draws::<P>(&mut xof, flavour, P::W);
    (y, x)
}

/// One case of the driver, chosen on the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseChoice {
    /// KAT entry.
    pub entry: usize,
    /// Candidates drawn by the keygen sampler for y and for x.
    pub keygen_draws: [usize; 2],
    /// True when no candidate was rejected or repeated a position (draws = w for both).
    pub no_rejection: bool,
}

fn choose<P: ParamSet>(flavour: Flavour, cases: usize) -> Result<Vec<CaseChoice>, BoardError> {
    let mut clean = Vec::new();
    let mut rejecting = None;
    for entry in 0..MAX_ENTRY {
        if clean.len() >= cases && rejecting.is_some() {
            break;
        }
        let (seed_kem, _, _) = entry_randomness(entry, P::K);
        let (y, x) = keygen_draws::<P>(flavour, &seed_kem);
        let c = CaseChoice {
            entry,
            keygen_draws: [y, x],
            no_rejection: y == P::W && x == P::W,
        };
        if c.no_rejection && clean.len() < cases {
            clean.push(c);
        } else if !c.no_rejection && rejecting.is_none() {
            rejecting = Some(c);
        }
    }
    if clean.len() < cases {
        return Err(BoardError::Params(format!(
            "fewer than {cases} of KAT entries 0..{MAX_ENTRY} have a keygen without rejected or repeated candidates"
        )));
    }
    clean.extend(rejecting);
    Ok(clean)
}

/// The cases of one level and flavour: the first `cases` KAT entries whose keygen sampler
/// rejects or repeats no candidate (w draws for y and for x), then the first entry whose
/// sampler does (if any below [`MAX_ENTRY`]).
pub fn choose_cases(
    level: Level,
    flavour: Flavour,
    cases: usize,
) -> Result<Vec<CaseChoice>, BoardError> {
    match level {
        Level::Hqc1 => choose::<Hqc1>(flavour, cases),
        Level::Hqc3 => choose::<Hqc3>(flavour, cases),
        Level::Hqc5 => choose::<Hqc5>(flavour, cases),
    }
}

// ----- symbols ------------------------------------------------------------------------------

/// Function symbols of an ELF (`arm-none-eabi-nm -n -C`), for naming instructions.
pub struct Symbols {
    elf: PathBuf,
    funcs: Vec<(u32, String)>,
}

impl Symbols {
    /// Reads the text symbols of `elf`.
    pub fn read(elf: &Path) -> Result<Self, BoardError> {
        let out = Command::new("arm-none-eabi-nm")
            .args(["-n", "-C"])
            .arg(elf)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| BoardError::Spawn {
                program: "arm-none-eabi-nm".into(),
                source,
            })?;
        let mut funcs = Vec::new();
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            let mut it = l.splitn(3, ' ');
            let (Some(a), Some(t), Some(name)) = (it.next(), it.next(), it.next()) else {
                continue;
            };
            if !matches!(t, "t" | "T" | "W" | "w") || name.starts_with('$') {
                continue;
            }
            if let Ok(a) = u32::from_str_radix(a, 16) {
                funcs.push((a & !1, name.to_string()));
            }
        }
        funcs.sort();
        Ok(Symbols {
            elf: elf.to_path_buf(),
            funcs,
        })
    }

    /// The function containing `pc` (the last symbol at or below it).
    pub fn function(&self, pc: u32) -> Option<&str> {
        let i = self.funcs.partition_point(|(a, _)| *a <= pc);
        i.checked_sub(1).map(|i| self.funcs[i].1.as_str())
    }

    /// `function+0xoff`.
    pub fn name(&self, pc: u32) -> String {
        let i = self.funcs.partition_point(|(a, _)| *a <= pc);
        match i.checked_sub(1) {
            Some(i) => format!("{}+{:#x}", self.funcs[i].1, pc - self.funcs[i].0),
            None => format!("{pc:#x}"),
        }
    }

    /// Source locations of `pcs` (`arm-none-eabi-addr2line -a -f -i -C`): per address the
    /// inlining chain, innermost first, as "function at file:line".
    pub fn locations(&self, pcs: &[u32]) -> BTreeMap<u32, String> {
        let mut out = BTreeMap::new();
        if pcs.is_empty() {
            return out;
        }
        let Ok(o) = Command::new("arm-none-eabi-addr2line")
            .args(["-a", "-f", "-i", "-C", "-e"])
            .arg(&self.elf)
            .args(pcs.iter().map(|p| format!("{p:#x}")))
            .stdin(Stdio::null())
            .output()
        else {
            return out;
        };
        let text = String::from_utf8_lossy(&o.stdout);
        let mut cur: Option<u32> = None;
        let mut parts: Vec<String> = Vec::new();
        let mut lines = text.lines().peekable();
        let mut flush = |cur: Option<u32>, parts: &mut Vec<String>| {
            if let Some(a) = cur {
                out.insert(a, parts.join(" inlined into "));
            }
            parts.clear();
        };
        while let Some(l) = lines.next() {
            if let Some(h) = l.strip_prefix("0x") {
                flush(cur, &mut parts);
                cur = u32::from_str_radix(h, 16).ok();
                continue;
            }
            let file = lines.next().unwrap_or("??:0");
            let file = file.rsplit('/').next().unwrap_or(file);
            parts.push(format!("{l} at {file}"));
        }
        flush(cur, &mut parts);
        out
    }
}

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
    let cfg = params::load(&args.params, args.level)?;
    let paths = Paths::new(args, &cfg.dir)?;
    progress("checking the toolchain");
    toolchain::ensure_tools(&paths)?;
    build_plugin(&paths)?;
    // The decoder of the board check (`--decoder`, else the board default).
    let features =
        super::profile::m4kem_features(super::profile::decoder_of(args, cfg.level), false);
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

fn marker(syms: &Symbols, elf: &Path, name: &'static str) -> Result<u32, BoardError> {
    syms.funcs
        .iter()
        .find(|(_, n)| n == name)
        .map(|(a, _)| *a)
        .ok_or_else(|| BoardError::Symbol {
            elf: elf.to_path_buf(),
            symbol: name,
        })
}

/// The plugin of this build folder (`make plugin`, rebuilt when insncount.c changed).
fn build_plugin(p: &Paths) -> Result<(), BoardError> {
    let log = p.logs.join("ct-plugin-build.log");
    let mut cmd = Command::new("make");
    cmd.arg("-s")
        .arg("-C")
        .arg(p.board.join("firmware"))
        .arg(format!("PARAMS_DIR={}", p.params_dir.display()))
        .arg(format!("BUILD={}", p.fw_build.display()))
        .arg(format!("PLUGIN={}", p.plugin.display()))
        .arg(&p.plugin);
    match run_logged(&mut cmd, &log, None)? {
        (Some(0), _) => Ok(()),
        (code, text) => Err(BoardError::Toolchain(format!(
            "the instruction-counting plugin could not be built (make exited {code:?}):\n{}",
            tail(&text, 15)
        ))),
    }
}

/// `build.sh c-fafft` with `HARNESS=ct` for the export folder; the ELF.
fn build_ct_elf(p: &Paths, xor: &str, features: &str) -> Result<PathBuf, BoardError> {
    let log = p.logs.join("m4kem-ct-build.log");
    let mut cmd = Command::new(p.board.join("m4kem").join("build.sh"));
    cmd.arg("c-fafft")
        .env("PARAMS_DIR", &p.params_dir)
        .env("BUILD_TAG", &p.tag)
        .env("XOR", xor)
        .env("HARNESS", "ct");
    if features.is_empty() {
        cmd.env_remove("FEATURES");
    } else {
        cmd.env("FEATURES", features);
    }
    let (code, text) = run_logged(&mut cmd, &log, None)?;
    let elf = text
        .lines()
        .rev()
        .find(|l| l.trim_end().ends_with(".elf"))
        .map(|l| PathBuf::from(l.trim()));
    match (code, elf) {
        (Some(0), Some(e)) if e.is_file() => Ok(e),
        (code, _) => Err(BoardError::Sources(format!(
            "m4kem with the constant-time driver could not be built (build.sh exited {code:?}, log {}):\n{}",
            log.display(),
            tail(&errors_only(&text), 20)
        ))),
    }
}

/// One QEMU run of the driver with the plugin in trace mode; (exit, board output, traces).
#[allow(clippy::too_many_arguments)]
fn run_driver(
    p: &Paths,
    elf: &Path,
    markers: (u32, u32),
    level: Level,
    f: Flavour,
    entries: &[usize],
    dump: Option<(usize, &Path)>,
    name: &str,
    timeout: u64,
) -> Result<(Option<i32>, String, Vec<TraceLine>), BoardError> {
    let plog = p.logs.join(format!("{name}.plugin"));
    let _ = std::fs::remove_file(&plog);
    let mut plugin = format!(
        "{},start={:#x},stop={:#x},trace=1",
        p.plugin.display(),
        markers.0,
        markers.1
    );
    if let Some((k, base)) = dump {
        let b = base.display().to_string();
        if b.contains(',') {
            return Err(BoardError::Params(format!(
                "the dump path {b} contains a comma, which the plugin's arguments cannot carry"
            )));
        }
        let _ = write!(plugin, ",dump=main:{k}:{b}");
    }
    let list: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
    let mut cmd = qemu_cmd(elf);
    cmd.arg("-plugin")
        .arg(plugin)
        .arg("-d")
        .arg("plugin")
        .arg("-D")
        .arg(&plog)
        .arg("-append")
        .arg(format!(
            "level={} flavour={} cases={}",
            level.digit(),
            f.name(),
            list.join(",")
        ));
    let (code, text) = run_logged(
        &mut cmd,
        &p.logs.join(format!("{name}.out")),
        Some(Duration::from_secs(timeout)),
    )?;
    let ptext = std::fs::read_to_string(&plog).unwrap_or_default();
    let traces = parse_traces(&ptext, "main").map_err(|why| BoardError::PluginLog {
        path: plog.clone(),
        why,
    })?;
    Ok((code, text, traces))
}

/// The `ct case=..` lines of the driver: case -> (tamper kind, valid, rejected).
fn parse_cases(text: &str) -> BTreeMap<usize, (String, bool, bool)> {
    let mut out = BTreeMap::new();
    for l in text.lines() {
        let Some(rest) = l.strip_prefix("ct case=") else {
            continue;
        };
        let kv: BTreeMap<&str, &str> =
            std::iter::once(("case", rest.split(' ').next().unwrap_or("")))
                .chain(
                    rest.split_whitespace()
                        .skip(1)
                        .filter_map(|t| t.split_once('=')),
                )
                .collect();
        let (Some(c), Some(kind), Some(v), Some(r)) = (
            kv.get("case").and_then(|c| c.parse().ok()),
            kv.get("kind"),
            kv.get("valid"),
            kv.get("rejected"),
        ) else {
            continue;
        };
        out.insert(c, ((*kind).to_string(), *v == "1", *r == "1"));
    }
    out
}

/// Region r of case j is instance 4j + r.
const OPS: [&str; 4] = [
    "keygen",
    "encaps",
    "decaps (valid ct)",
    "decaps (tampered ct)",
];

#[allow(clippy::too_many_arguments)]
fn check_flavour(
    p: &Paths,
    cfg: &Config,
    elf: &Path,
    syms: &Symbols,
    markers: (u32, u32),
    f: Flavour,
    timeout: u64,
    opt: CtOptions,
) -> Result<CtFlavour, BoardError> {
    progress(&format!(
        "{} {}: choosing {} KAT entries whose keygen sampler rejects no candidate",
        cfg.level,
        f.name(),
        opt.cases
    ));
    let choices = choose_cases(cfg.level, f, opt.cases)?;
    let entries: Vec<usize> = choices.iter().map(|c| c.entry).collect();
    progress(&format!(
        "{} {}: tracing entries {entries:?} on the board",
        cfg.level,
        f.name()
    ));
    let name = format!("ct-{}-{}", cfg.level.digit(), f.name());
    let (code, text, traces) = run_driver(
        p, elf, markers, cfg.level, f, &entries, None, &name, timeout,
    )?;
    let lines = parse_cases(&text);
    let cases: Vec<CtCase> = choices
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let (kind, valid, rejected) = lines.get(&j).cloned().unwrap_or_default();
            CtCase {
                case: j,
                choice: c.clone(),
                tamper: kind,
                valid,
                rejected,
            }
        })
        .collect();
    let by_k: BTreeMap<u64, TraceLine> = traces.iter().map(|t| (t.k, *t)).collect();
    let inst = |j: usize, r: usize| by_k.get(&((4 * j + r) as u64)).copied();
    let clean: Vec<usize> = (0..choices.len())
        .filter(|&j| choices[j].no_rejection)
        .collect();
    let all: Vec<usize> = (0..choices.len()).collect();
    // Decaps samples y again (the first keygen draw): comparable when y's sampler rejected none.
    let y_clean: Vec<usize> = (0..choices.len())
        .filter(|&j| choices[j].keygen_draws[0] == w_of(cfg.level))
        .collect();
    // (region name, instances as (case, op), counted, note)
    let mut groups: Vec<(String, Vec<(usize, usize)>, bool, Option<String>)> = vec![
        (
            "keygen".into(),
            clean.iter().map(|&j| (j, 0)).collect(),
            true,
            Some("seeds without rejected sampler candidates (see excluded)".into()),
        ),
        (
            "encaps".into(),
            all.iter().map(|&j| (j, 1)).collect(),
            true,
            None,
        ),
        (
            "decaps".into(),
            y_clean.iter().flat_map(|&j| [(j, 2), (j, 3)]).collect(),
            true,
            Some(
                "valid and tampered ciphertexts (implicit rejection) together; seeds whose y \
                 sampler rejects no candidate (Decaps re-derives y from seed_dk with the keygen \
                 sampler, see excluded)"
                    .into(),
            ),
        ),
    ];
    if let (Some(&c0), Some(rj)) = (
        clean.first(),
        all.iter().find(|&&j| !choices[j].no_rejection),
    ) {
        groups.push((
            "keygen-rejecting".into(),
            vec![(c0, 0), (*rj, 0)],
            false,
            Some(format!(
                "a seed whose sampler rejects candidates (entry {}, {:?} draws for w = {}) \
                 against one that rejects none: expected to differ (excluded, see excluded)",
                choices[*rj].entry,
                choices[*rj].keygen_draws,
                w_of(cfg.level)
            )),
        ));
    }
    let mut regions = Vec::new();
    for (rname, members, counted, note) in groups {
        let mut tl = Vec::new();
        for &(j, r) in &members {
            match inst(j, r) {
                Some(t) => tl.push(((j, r), t)),
                None => {
                    return Err(BoardError::PluginLog {
                        path: p.logs.join(format!("{name}.plugin")),
                        why: format!(
                            "no trace line for case {j} {} (instance {}); QEMU exit {code:?} ({}); last output: {}",
                            OPS[r],
                            4 * j + r,
                            exit_meaning(code),
                            tail(&text, 3).replace('\n', " | ")
                        ),
                    })
                }
            }
        }
        let Some(&(_, t0)) = tl.first() else {
            continue;
        };
        let ins_same = tl.iter().all(|(_, t)| t.same_insns(&t0));
        let mem_same = tl.iter().all(|(_, t)| t.same_mems(&t0));
        let distinct = [
            tl.iter()
                .map(|(_, t)| (t.insns, t.ihash))
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            tl.iter()
                .map(|(_, t)| (t.mems, t.mhash))
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
        ];
        let mut region = CtRegion {
            name: rname.clone(),
            instances: tl.len(),
            verdict: if ins_same && mem_same {
                "identical"
            } else {
                "differs"
            }
            .into(),
            instructions_identical: ins_same,
            memory_identical: mem_same,
            instructions: t0.insns,
            memory_accesses: t0.mems,
            distinct,
            counted,
            first_difference: None,
            differing_sites: Vec::new(),
            note,
        };
        if opt.diagnose && !(ins_same && mem_same) {
            let other = tl
                .iter()
                .find(|(_, t)| !t.same_insns(&t0))
                .or_else(|| tl.iter().find(|(_, t)| !t.same_mems(&t0)));
            if let Some(&(b, tb)) = other {
                progress(&format!(
                    "{} {}: region {rname} differs; dumping the full traces of two instances",
                    cfg.level,
                    f.name()
                ));
                diagnose(
                    p,
                    elf,
                    syms,
                    markers,
                    cfg.level,
                    f,
                    &choices,
                    [(tl[0].0, t0), (b, tb)],
                    timeout,
                    &mut region,
                )?;
            }
        }
        regions.push(region);
    }
    Ok(CtFlavour {
        flavour: f.name().into(),
        qemu_exit: code,
        cases,
        regions,
    })
}

fn w_of(level: Level) -> usize {
    match level {
        Level::Hqc1 => Hqc1::W,
        Level::Hqc3 => Hqc3::W,
        Level::Hqc5 => Hqc5::W,
    }
}

fn label(choices: &[CaseChoice], (j, r): (usize, usize)) -> String {
    format!("case {j} (entry {}) {}", choices[j].entry, OPS[r])
}

/// Re-runs the two instances alone with full dumps and fills `first_difference` and
/// `differing_sites` of `region`.
#[allow(clippy::too_many_arguments)]
fn diagnose(
    p: &Paths,
    elf: &Path,
    syms: &Symbols,
    markers: (u32, u32),
    level: Level,
    f: Flavour,
    choices: &[CaseChoice],
    pair: [((usize, usize), TraceLine); 2],
    timeout: u64,
    region: &mut CtRegion,
) -> Result<(), BoardError> {
    let dir = p.logs.join("ct-dumps");
    std::fs::create_dir_all(&dir).map_err(|e| BoardError::io("create", &dir, e))?;
    let mut dumps = Vec::new();
    for (i, &((j, r), want)) in pair.iter().enumerate() {
        let base = dir.join(format!("{}-{}-{i}", level.digit(), f.name()));
        let name = format!("ct-dump-{}-{}-{i}", level.digit(), f.name());
        let (_, _, tr) = run_driver(
            p,
            elf,
            markers,
            level,
            f,
            &[choices[j].entry],
            Some((r, &base)),
            &name,
            timeout,
        )?;
        let (insns, mems) = read_dump(&base)?;
        let _ = std::fs::remove_file(dump_file(&base, "insn"));
        let _ = std::fs::remove_file(dump_file(&base, "mem"));
        // the single-case rerun must reproduce the instance of the full run, and the dump its
        // own hashes
        let got = tr.iter().find(|t| t.k == r as u64);
        let dump_line = TraceLine {
            k: r as u64,
            insns: insns.len() as u64,
            ihash: hash_insns(&insns),
            mems: mems.len() as u64,
            mhash: hash_mems(&mems),
        };
        let same = |a: &TraceLine, b: &TraceLine| a.same_insns(b) && a.same_mems(b);
        if got.is_none_or(|g| !same(g, &want) || !same(g, &dump_line)) {
            region.note = Some(format!(
                "{}; the single-case rerun of {} did not reproduce its trace hashes",
                region.note.clone().unwrap_or_default(),
                label(choices, (j, r))
            ));
        }
        dumps.push((insns, mems));
    }
    let labels = [label(choices, pair[0].0), label(choices, pair[1].0)];
    let (a, b) = (&dumps[0], &dumps[1]);
    let hex = |v: Option<u32>| v.map_or("end".to_string(), |x| format!("{x:#010x}"));
    if let Some(i) = first_divergence(&a.0, &b.0) {
        let pcs = [a.0.get(i).copied(), b.0.get(i).copied()];
        let prev = i.checked_sub(1).and_then(|k| a.0.get(k).copied());
        let want: Vec<u32> = pcs.iter().flatten().copied().chain(prev).collect();
        let loc = syms.locations(&want);
        let name = |pc: Option<u32>| pc.map_or("end of trace".into(), |x| syms.name(x));
        let at = |pc: Option<u32>| pc.and_then(|x| loc.get(&x).cloned()).unwrap_or_default();
        region.first_difference = Some(Divergence {
            stream: "instructions".into(),
            instances: labels,
            index: i,
            pc: [hex(pcs[0]), hex(pcs[1])],
            symbol: [name(pcs[0]), name(pcs[1])],
            location: [at(pcs[0]), at(pcs[1])],
            access: None,
            previous: prev.map(|x| format!("{x:#010x} {} ({})", syms.name(x), at(Some(x)))),
        });
        return Ok(());
    }
    let Some(i) = first_divergence(&a.1, &b.1) else {
        return Ok(());
    };
    let ms = [a.1.get(i).copied(), b.1.get(i).copied()];
    let pcs = [ms[0].map(|m| m.pc), ms[1].map(|m| m.pc)];
    // aligned streams: every differing access, grouped by function
    let mut per_fn: BTreeMap<String, (usize, std::collections::BTreeSet<u32>)> = BTreeMap::new();
    if a.1.len() == b.1.len() {
        for (x, y) in a.1.iter().zip(&b.1) {
            if x != y {
                let f = syms.function(x.pc).unwrap_or("?").to_string();
                let e = per_fn.entry(f).or_default();
                e.0 += 1;
                e.1.insert(x.pc);
            }
        }
    }
    let firsts: Vec<u32> = per_fn
        .values()
        .filter_map(|(_, s)| s.first().copied())
        .chain(pcs.iter().flatten().copied())
        .collect();
    let loc = syms.locations(&firsts);
    let at = |pc: Option<u32>| pc.and_then(|x| loc.get(&x).cloned()).unwrap_or_default();
    let acc = |m: Option<MemAccess>| {
        m.map_or("end of trace".into(), |m| {
            format!(
                "{} {:#010x} ({} bytes)",
                m.kind(),
                m.addr,
                1u32 << (m.info & 3)
            )
        })
    };
    region.first_difference = Some(Divergence {
        stream: "memory".into(),
        instances: labels,
        index: i,
        pc: [hex(pcs[0]), hex(pcs[1])],
        symbol: [
            pcs[0].map_or("end of trace".into(), |x| syms.name(x)),
            pcs[1].map_or("end of trace".into(), |x| syms.name(x)),
        ],
        location: [at(pcs[0]), at(pcs[1])],
        access: Some([acc(ms[0]), acc(ms[1])]),
        previous: None,
    });
    region.differing_sites = per_fn
        .into_iter()
        .map(|(function, (accesses, set))| Site {
            location: at(set.first().copied()),
            instructions: set.len(),
            accesses,
            function,
        })
        .collect();
    Ok(())
}

// ----- text ---------------------------------------------------------------------------------

/// The text form of the report.
pub fn render_text(r: &CtReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", r.command);
    let _ = writeln!(
        s,
        "constant-time check on the emulated Cortex-M4 (QEMU mps2-an386), {} with the C FAFFT+CRT \
         multiplier of {} (l = {}, c = {}, beta = {})",
        r.params.level, r.params_given, r.params.l, r.params.c, r.params.beta
    );
    let _ = writeln!(s, "traced: {}", r.traced);
    for e in &r.excluded {
        let _ = writeln!(s, "excluded: {}: {}", e.name, e.reason);
    }
    for f in &r.flavours {
        let _ = writeln!(s, "\nflavour {} (QEMU exit {:?})", f.flavour, f.qemu_exit);
        let _ = writeln!(
            s,
            "  case  entry  keygen draws (y, x)  tamper        valid  rejected"
        );
        for c in &f.cases {
            let _ = writeln!(
                s,
                "  {:>4}  {:>5}  {:>8}, {:<10}  {:<12}  {:>5}  {:>8}",
                c.case,
                c.choice.entry,
                c.choice.keygen_draws[0],
                c.choice.keygen_draws[1],
                c.tamper,
                u8::from(c.valid),
                u8::from(c.rejected)
            );
        }
        let _ = writeln!(
            s,
            "  {:<18} {:>9} {:>13} {:>15}  {:<12} {:<12} verdict",
            "region", "instances", "instructions", "memory accesses", "instr.", "memory"
        );
        let word = |b: bool| if b { "identical" } else { "differs" };
        for g in &f.regions {
            let _ = writeln!(
                s,
                "  {:<18} {:>9} {:>13} {:>15}  {:<12} {:<12} {}{}",
                g.name,
                g.instances,
                g.instructions,
                g.memory_accesses,
                word(g.instructions_identical),
                word(g.memory_identical),
                g.verdict,
                if g.counted { "" } else { " (not counted)" }
            );
        }
        for g in &f.regions {
            if let Some(n) = &g.note {
                let _ = writeln!(s, "  note {}: {n}", g.name);
            }
            if let Some(d) = &g.first_difference {
                let _ = writeln!(
                    s,
                    "  first difference in {} ({} stream, record {}): {} vs {}",
                    g.name, d.stream, d.index, d.instances[0], d.instances[1]
                );
                for i in 0..2 {
                    let _ = writeln!(
                        s,
                        "    {}: {} {}{} [{}]",
                        ["a", "b"][i],
                        d.pc[i],
                        d.symbol[i],
                        d.access
                            .as_ref()
                            .map(|a| format!(" {}", a[i]))
                            .unwrap_or_default(),
                        d.location[i]
                    );
                }
                if let Some(pv) = &d.previous {
                    let _ = writeln!(s, "    last common instruction: {pv}");
                }
            }
            for site in &g.differing_sites {
                let _ = writeln!(
                    s,
                    "    differing accesses in {}: {} accesses by {} instructions [{}]",
                    site.function, site.accesses, site.instructions, site.location
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\n{}",
        if r.passed {
            "PASS: every counted region is identical".to_string()
        } else {
            format!("FAIL: {}", r.failed.join("; "))
        }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_published_vectors() {
        let mut h = Fnv1a64::default();
        h.update(b"");
        assert_eq!(h.0, 0xcbf2_9ce4_8422_2325);
        let mut h = Fnv1a64::default();
        h.update(b"a");
        assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
        let mut h = Fnv1a64::default();
        h.update(b"foobar");
        assert_eq!(h.0, 0x8594_4171_f739_67e8);
    }

    #[test]
    fn trace_lines_parse_and_bad_ones_are_errors() {
        let log = "region main #0 5\ntrace main #0 insns=5 ihash=00000000000000ff mems=2 mhash=0123456789abcdef\n\
                   trace other #0 insns=1 ihash=1 mems=1 mhash=1\n";
        let t = parse_traces(log, "main").expect("parses");
        assert_eq!(
            t,
            vec![TraceLine {
                k: 0,
                insns: 5,
                ihash: 0xff,
                mems: 2,
                mhash: 0x0123_4567_89ab_cdef
            }]
        );
        assert!(parse_traces("trace main #0 insns=x ihash=1 mems=1 mhash=1\n", "main").is_err());
        assert!(parse_traces("trace main 0 insns=1 ihash=1 mems=1 mhash=1\n", "main").is_err());
    }

    #[test]
    fn cases_parse() {
        let c = parse_cases("ct: x\nct case=3 entry=7 kind=v-bit valid=1 rejected=0\n");
        assert_eq!(c.get(&3), Some(&("v-bit".to_string(), true, false)));
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn sampler_oracle_equals_the_core_sampler() {
        use hqc_verify::core::sampling::keygen_supports;
        for f in Flavour::ALL {
            for entry in 0..6 {
                let (seed_kem, _, _) = entry_randomness(entry, Hqc1::K);
                let mut seed = [0u8; 32];
                seed.copy_from_slice(&seed_kem);
                let mut y = vec![0u32; Hqc1::W];
                let mut x = vec![0u32; Hqc1::W];
                keygen_supports::<Hqc1>(&seed, f, &mut y, &mut x);
                let mut xof = Xof::new(&seed, f);
                let (ya, yd) = sampler_draws::<Hqc1>(&mut xof, f, Hqc1::W);
                let (xa, xd) = sampler_draws::<Hqc1>(&mut xof, f, Hqc1::W);
                assert_eq!((ya, xa), (y, x), "{f:?} entry {entry}");
                assert!(yd >= Hqc1::W && xd >= Hqc1::W);
            }
        }
    }

    #[test]
    fn some_seeds_reject_and_most_do_not() {
        let c = choose_cases(Level::Hqc1, Flavour::V2026_02, 8).expect("enough entries");
        assert_eq!(c.iter().filter(|c| c.no_rejection).count(), 8);
        assert!(c.iter().any(|c| !c.no_rejection));
        assert!(c
            .iter()
            .all(|c| c.no_rejection == (c.keygen_draws == [Hqc1::W, Hqc1::W])));
    }
}
