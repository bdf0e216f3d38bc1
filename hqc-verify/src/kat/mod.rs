//! Regeneration of the official KATs and their comparison with committed pins
//! (docs/kat.md).
//!
//! For each entry i < K: seed_i = bytes [48i, 48i + 48) of the outer PRNG
//! (entropy 0x00 … 0x2F); a PRNG seeded with seed_i supplies seed_kem, then m, then salt;
//! KeyGen, Encaps, and a Decaps that must return the same ss (the official generator aborts
//! otherwise). No `.rsp` file is needed: the `.rsp` text is hashed with SHA-256 and
//! compared with:
//!
//! 1. the pinned digest of the first K entries ([`pins::pinned_digest`], K ∈ {1, 10, 100});
//! 2. always, the per-entry pins ([`pins::entry_pins`]: seed, pk, sk, ct, ss and the board
//!    digest of every entry);
//! 3. when a KAT folder is passed explicitly (`--kat-dir`), also the first 2 + 7·K lines of
//!    the official file (which is first checked against its pinned whole-file digest).
//!
//! On a mismatch the first differing entry and field are named, by diffing against the
//! official file when one was passed, else against the per-entry pins.

pub mod locate;
pub mod pins;
pub mod rsp;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::core::code::Decoder;
use crate::core::kem::Hqc;
use crate::core::mul::Multiplier;
use crate::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};
use crate::core::prng::{kat_seeds, RandomSource, ShakePrng};
use crate::multiplier::{AnyMultiplier, MultiplierKind};
use pins::{EntryPin, PinError};
use rsp::{Entry, RspError};

/// Number of entries in an official KAT file.
pub const OFFICIAL_ENTRIES: usize = 100;

/// Errors of the KAT harness.
#[derive(Debug, Error)]
pub enum KatError {
    /// A KAT folder named explicitly does not exist.
    #[error("KAT folder {path} (from {source_of_path}) does not exist")]
    KatDirMissing {
        /// The folder.
        path: PathBuf,
        /// Where the path came from.
        source_of_path: &'static str,
    },
    /// A KAT folder named explicitly is not a folder.
    #[error("KAT folder {path} (from {source_of_path}) is not a folder but {kind}; name the folder that holds the official files")]
    KatDirNotFolder {
        /// The path.
        path: PathBuf,
        /// Where the path came from.
        source_of_path: &'static str,
        /// What it is ("a regular file", ...).
        kind: &'static str,
    },
    /// The whole-file comparison a KAT folder asks for cannot run.
    #[error("the KAT folder {dir} asks for a whole-file comparison, but {reason}")]
    OfficialUnusable {
        /// The KAT folder.
        dir: PathBuf,
        /// Why the official file cannot be compared.
        reason: String,
    },
    /// A malformed `.rsp` file.
    #[error("{path}: {source}")]
    Rsp {
        /// The file.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: RspError,
    },
    /// An I/O error.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// Pinned data in the repository do not parse.
    #[error(transparent)]
    Pin(#[from] PinError),
    /// An error of the core.
    #[error(transparent)]
    Core(#[from] crate::core::error::Error),
    /// Decaps did not return the encapsulated key for a regenerated entry.
    #[error("{level} {flavour} count = {count}: Decaps did not reproduce ss")]
    DecapsMismatch {
        /// Level.
        level: Level,
        /// Flavour.
        flavour: Flavour,
        /// Entry.
        count: usize,
    },
    /// The official file is not the pinned one.
    #[error("{path}: SHA-256 is {got}, but the pinned digest of the official file is {expected}; the file is not the official one")]
    OfficialCorrupt {
        /// The file.
        path: PathBuf,
        /// Pinned digest.
        expected: String,
        /// Actual digest.
        got: String,
    },
    /// K outside 1 ..= 100.
    #[error("--count must be between 1 and {OFFICIAL_ENTRIES}, got {count}")]
    CountOutOfRange {
        /// The requested count.
        count: usize,
    },
    /// The fafft-crt multiplier is not implemented yet.
    #[error("fafft-crt multiplier not yet available")]
    FafftCrtUnavailable,
    /// The fafft-crt parameter file was refused.
    #[error(transparent)]
    Params(#[from] crate::fafft_mul::ParamsError),
}

/// Regenerates entries 0 … count − 1 with a given KEM instance.
pub fn generate_entries_with<P: ParamSet, M: Multiplier>(
    hqc: &Hqc<P, M>,
    count: usize,
) -> Result<Vec<Entry>, KatError> {
    let mut seeds = vec![[0u8; 48]; count];
    kat_seeds(&mut seeds);
    let mut out = Vec::with_capacity(count);
    for (i, seed) in seeds.iter().enumerate() {
        let mut prng = ShakePrng::new(seed, &[]);
        let (ek, dk) = hqc.keygen_from_rng(&mut prng);
        let mut m = vec![0u8; P::K];
        let mut salt = [0u8; 16];
        prng.fill(&mut m);
        prng.fill(&mut salt);
        let (ct, ss) = hqc.encaps(&ek, &m, &salt)?;
        if hqc.decaps(&dk, &ct) != ss {
            return Err(KatError::DecapsMismatch {
                level: P::LEVEL,
                flavour: hqc.flavour(),
                count: i,
            });
        }
        out.push(Entry {
            count: i,
            seed: seed.to_vec(),
            pk: ek.as_bytes().to_vec(),
            sk: dk.as_bytes().to_vec(),
            ct: ct.as_bytes().to_vec(),
            ss: ss.0.to_vec(),
        });
    }
    Ok(out)
}

fn generate_level<P: ParamSet>(
    flavour: Flavour,
    kind: MultiplierKind,
    count: usize,
    decoder: Decoder,
) -> Result<Vec<Entry>, KatError> {
    let hqc = Hqc::<P, _>::new(AnyMultiplier::new(kind, P::N)?, flavour)?.with_decoder(decoder);
    generate_entries_with(&hqc, count)
}

/// Regenerates entries 0 … count − 1 of one level and flavour with multiplier `kind`.
pub fn generate_entries(
    level: Level,
    flavour: Flavour,
    kind: MultiplierKind,
    count: usize,
) -> Result<Vec<Entry>, KatError> {
    generate_entries_decoded(level, flavour, kind, count, Decoder::Bm)
}

/// [`generate_entries`] with Reed–Solomon decoder `decoder` in Decaps.
pub fn generate_entries_decoded(
    level: Level,
    flavour: Flavour,
    kind: MultiplierKind,
    count: usize,
    decoder: Decoder,
) -> Result<Vec<Entry>, KatError> {
    match level {
        Level::Hqc1 => generate_level::<Hqc1>(flavour, kind, count, decoder),
        Level::Hqc3 => generate_level::<Hqc3>(flavour, kind, count, decoder),
        Level::Hqc5 => generate_level::<Hqc5>(flavour, kind, count, decoder),
    }
}

/// SHA-256 as lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

/// The first difference between regenerated and expected entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The entry (`count`).
    pub count: usize,
    /// The field (count, seed, pk, sk, ct, ss).
    pub field: String,
    /// A human-readable description.
    pub detail: String,
}

/// Diffs regenerated entries against official ones: the first differing entry and field.
pub fn first_difference(got: &[Entry], expected: &[Entry]) -> Option<Mismatch> {
    for (i, g) in got.iter().enumerate() {
        let Some(e) = expected.get(i) else {
            return Some(Mismatch {
                count: g.count,
                field: "count".into(),
                detail: format!("the official file has only {} entries", expected.len()),
            });
        };
        for field in rsp::FIELDS {
            let (Some(a), Some(b)) = (g.field(field), e.field(field)) else {
                continue;
            };
            if a == b {
                continue;
            }
            let detail = if a.len() != b.len() {
                format!("length {} bytes, official {} bytes", a.len(), b.len())
            } else {
                let off = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(0);
                format!(
                    "first differing byte at offset {off} of {} (got {:02X}, official {:02X})",
                    a.len(),
                    a[off],
                    b[off]
                )
            };
            return Some(Mismatch {
                count: g.count,
                field: field.into(),
                detail,
            });
        }
    }
    None
}

/// Compares regenerated entries with the per-entry pins.
pub fn first_pin_difference(got: &[Entry], pins: &[EntryPin]) -> Option<Mismatch> {
    for g in got {
        let Some(p) = pins.iter().find(|p| p.count == g.count) else {
            continue;
        };
        let mine = EntryPin::of(g);
        for field in EntryPin::FIELDS {
            let (a, b) = (mine.field(field), p.field(field));
            if a != b {
                return Some(Mismatch {
                    count: g.count,
                    field: field.into(),
                    detail: format!(
                        "pinned value differs (got {}, pinned {}; seed is a prefix, pk/sk/ct are SHA-256 prefixes, ss is the value, board is SHA3-256(pk || sk || ct || ss))",
                        a.unwrap_or("-"),
                        b.unwrap_or("-")
                    ),
                });
            }
        }
    }
    None
}

/// One KAT run request.
#[derive(Clone, Debug)]
pub struct KatRequest {
    /// Level.
    pub level: Level,
    /// Flavour.
    pub flavour: Flavour,
    /// Multiplier.
    pub multiplier: MultiplierKind,
    /// Number of entries (1 ..= 100).
    pub count: usize,
    /// The KAT folder, if available.
    pub kat_dir: Option<PathBuf>,
    /// Where to write the regenerated `.rsp` (as `<out>/<flavour folder>/hqc-L.rsp`).
    pub out_dir: Option<PathBuf>,
}

/// Where the expected digest came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExpectedSource {
    /// `kat/digests.txt`.
    Pinned,
    /// The first 2 + 7·K lines of the official file.
    OfficialFile,
    /// No digest; judged by the per-entry pins.
    EntryPins,
}

/// The verdict of one KAT run.
#[derive(Clone, Debug, Serialize)]
pub struct KatOutcome {
    /// "HQC-1" …
    pub level: String,
    /// "v5.0.0" / "2026-02".
    pub flavour: String,
    /// Multiplier name.
    pub multiplier: String,
    /// Entries regenerated.
    pub count: usize,
    /// SHA-256 of the regenerated text.
    pub digest: String,
    /// The expected digest, if one is known.
    pub expected: Option<String>,
    /// Where the expectation came from.
    pub expected_source: ExpectedSource,
    /// True iff everything matches.
    pub matches: bool,
    /// The first differing entry and field, on a mismatch.
    pub first_mismatch: Option<Mismatch>,
    /// Every regenerated entry decapsulated to its ss.
    pub decaps_ok: bool,
    /// The official file compared as well (only with an explicit KAT folder).
    pub official_file: Option<PathBuf>,
    /// Whether the official file's first 2 + 7·K lines match (only with a KAT folder).
    pub official_matches: Option<bool>,
    /// Wall-clock seconds for regeneration.
    pub seconds: f64,
    /// The file written, if any.
    pub written: Option<PathBuf>,
}

fn read_text(path: &Path) -> Result<String, KatError> {
    use fafft_config::input::{read_text, InputError, RSP};
    read_text(path, RSP).map_err(|e| match e {
        InputError::Io { source, .. } => KatError::Io {
            path: path.to_path_buf(),
            source,
        },
        other => KatError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, other.to_string()),
        },
    })
}

/// Reads an official file (a regular file of at most the `.rsp` size limit, docs/cli.md) and
/// checks it against its pinned whole-file digest. `Ok(None)` when there is no file at its
/// path; anything else there that cannot be read whole (a folder, FIFO, device, an oversized
/// file) is an error.
pub fn read_official(
    dir: &Path,
    flavour: Flavour,
    level: Level,
) -> Result<Option<(PathBuf, String)>, KatError> {
    let path = locate::official_file(dir, flavour, level);
    let text = match fafft_config::input::read_text(&path, fafft_config::input::RSP) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => {
            return Err(KatError::OfficialUnusable {
                dir: dir.to_path_buf(),
                reason: e.to_string(),
            })
        }
    };
    if let Some(pinned) = pins::pinned_digest(flavour, level, OFFICIAL_ENTRIES)? {
        let got = sha256_hex(text.as_bytes());
        if got != pinned {
            return Err(KatError::OfficialCorrupt {
                path,
                expected: pinned,
                got,
            });
        }
    }
    Ok(Some((path, text)))
}

/// Writes `text` to `path` with the tools' one output writer ([`fafft_config::output`]),
/// creating the folder first.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), KatError> {
    let io = |source| KatError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    fafft_config::output::write_atomic(path, text.as_bytes()).map_err(io)
}

/// The official file of `req` when a KAT folder was given (`None` without one); a folder
/// whose file is missing or unreadable is an error, since it asks for the comparison.
fn requested_official(req: &KatRequest) -> Result<Option<(PathBuf, String)>, KatError> {
    let Some(d) = &req.kat_dir else {
        return Ok(None);
    };
    read_official(d, req.flavour, req.level)?
        .ok_or_else(|| KatError::OfficialUnusable {
            dir: d.clone(),
            reason: format!(
                "{} does not exist",
                locate::official_file(d, req.flavour, req.level).display()
            ),
        })
        .map(Some)
}

/// Runs one KAT regeneration and comparison.
pub fn run(req: &KatRequest) -> Result<KatOutcome, KatError> {
    run_decoded(req, Decoder::Bm)
}

/// [`run`] with Reed–Solomon decoder `decoder` in every Decaps.
pub fn run_decoded(req: &KatRequest, decoder: Decoder) -> Result<KatOutcome, KatError> {
    if req.count == 0 || req.count > OFFICIAL_ENTRIES {
        return Err(KatError::CountOutOfRange { count: req.count });
    }
    // a KAT folder asks for the whole-file comparison: refuse before the work if it cannot run
    let official = requested_official(req)?;
    let start = Instant::now();
    let (entries, decaps_ok, decaps_failure) = match generate_entries_decoded(
        req.level,
        req.flavour,
        req.multiplier,
        req.count,
        decoder,
    ) {
        Ok(e) => (e, true, None),
        Err(KatError::DecapsMismatch { count, .. }) => {
            // Regenerate up to the failing entry without the Decaps check failing the run.
            (Vec::new(), false, Some(count))
        }
        Err(e) => return Err(e),
    };
    let seconds = start.elapsed().as_secs_f64();
    let text = rsp::format(req.level.name(), &entries);
    let digest = sha256_hex(text.as_bytes());

    let pinned = pins::pinned_digest(req.flavour, req.level, req.count)?;
    let official_digest = official
        .as_ref()
        .and_then(|(_, t)| rsp::first_lines(t, 2 + 7 * req.count))
        .map(|s| sha256_hex(s.as_bytes()));
    let (expected, expected_source) = match (&pinned, &official_digest) {
        (Some(p), _) => (Some(p.clone()), ExpectedSource::Pinned),
        (None, Some(o)) => (Some(o.clone()), ExpectedSource::OfficialFile),
        (None, None) => (None, ExpectedSource::EntryPins),
    };
    // Every run is judged by the per-entry pins; a pinned first-K digest and, when a KAT
    // folder was passed, the official file's first 2 + 7·K lines must match as well.
    let entry_pins = pins::entry_pins(req.flavour, req.level)?;
    let mut first_mismatch = if decaps_ok {
        first_pin_difference(&entries, &entry_pins)
    } else {
        None
    };
    let pins_ok = first_mismatch.is_none() && entry_pins.len() >= req.count;
    let official_matches = official_digest.as_ref().map(|o| *o == digest);
    let digest_ok =
        pins_ok && pinned.as_ref().is_none_or(|p| *p == digest) && official_matches.unwrap_or(true);
    let matches = digest_ok && decaps_ok;
    if !matches && first_mismatch.is_none() {
        if let Some(c) = decaps_failure {
            first_mismatch = Some(Mismatch {
                count: c,
                field: "ss".into(),
                detail: "Decaps of the regenerated ciphertext did not return the encapsulated key"
                    .into(),
            });
        } else if let Some((path, t)) = &official {
            let parsed = rsp::parse(t).map_err(|source| KatError::Rsp {
                path: path.clone(),
                source,
            })?;
            first_mismatch = first_difference(&entries, &parsed.entries);
        }
        if first_mismatch.is_none() {
            first_mismatch = first_pin_difference(&entries, &entry_pins);
        }
    }
    let written = match &req.out_dir {
        Some(out) => {
            let path = out
                .join(req.flavour.kat_folder())
                .join(format!("hqc-{}.rsp", req.level.digit()));
            write_atomically(&path, &text)?;
            Some(path)
        }
        None => None,
    };
    Ok(KatOutcome {
        level: req.level.name().into(),
        flavour: req.flavour.name().into(),
        multiplier: req.multiplier.name().into(),
        count: req.count,
        digest,
        expected,
        expected_source,
        matches,
        first_mismatch,
        decaps_ok,
        official_file: official.as_ref().map(|(p, _)| p.clone()),
        official_matches,
        seconds,
        written,
    })
}

/// The per-entry pin file text for an official file (used by `hqc-verify pin`).
pub fn entry_pin_text(flavour: Flavour, level: Level, official: &rsp::RspFile) -> String {
    let mut s = format!(
        "# Per-entry pins of the official {} {} KAT file ({}/hqc-{}.rsp), generated by `hqc-verify pin`.\n\
         # count seed[0..8] sha256(pk)[0..8] sha256(sk)[0..8] sha256(ct)[0..8] ss sha3-256(pk||sk||ct||ss)\n",
        flavour.name(),
        level.name(),
        flavour.kat_folder(),
        level.digit()
    );
    for e in &official.entries {
        s.push_str(&EntryPin::of(e).line());
        s.push('\n');
    }
    s
}

/// Writes the pinned digest form of the official intermediate-values file of `dir` (if
/// present) to `out/count0-intermediates.txt` (used by `hqc-verify pin`).
pub fn write_intermediate_pins(dir: &Path, out: &Path) -> Result<Option<PathBuf>, KatError> {
    let src = dir.join(pins::INTERMEDIATES_FILE);
    if !src.exists() {
        return Ok(None);
    }
    let text = pins::intermediates_pin_text(&read_text(&src)?)?;
    let target = out.join(pins::INTERMEDIATES_FILE);
    write_atomically(&target, &text)?;
    Ok(Some(target))
}
