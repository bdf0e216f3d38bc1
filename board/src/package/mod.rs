//! `hqc-verify package`: a pqm4 implementation folder `OUT/crypto_kem/hqc-<L>/m4f/` for the
//! level of an exported configuration (docs/pqm4.md).
//!
//! The folder holds only what pqm4's build compiles (`.c`, `.S`) and includes (`.h`): the
//! KEM in C (the templates of `hqc-verify/pqm4/src/`, translated from `src/core/`), the
//! FAFFT + CRT multiplier of `board/firmware/fafft/` with the export's headers and Thumb-2
//! routines, the Thumb-2 Keccak and support expansion of `board/m4kem/`, the generated
//! tower header (`fwgen::bs_tower`), and three generated files: `api.h`, `hqc_config.h`
//! (level and flavour) and `README.md`. The export is loaded and verified first
//! ([`crate::export_input::load`]); the folder is written atomically (a temporary folder
//! beside it, then one rename) and an existing one is replaced only with `force`.

pub mod board;
mod readout;
#[cfg(test)]
mod tests;

use std::fs;
use std::path::{Path, PathBuf};

use fafft_config::output::{replace_dir, ReplaceStep};
use thiserror::Error;

use crate::error::BoardError;
use crate::export_input::{load, Config};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};

/// The KEM sources, copied unchanged (file name, text).
pub const TEMPLATES: [(&str, &str); 14] = [
    ("kem.c", include_pqm4!("src/kem.c")),
    ("hqc_params.h", include_pqm4!("src/hqc_params.h")),
    ("hqc_ct.h", include_pqm4!("src/hqc_ct.h")),
    ("hqc_keccak.h", include_pqm4!("src/hqc_keccak.h")),
    ("hqc_keccak.c", include_pqm4!("src/hqc_keccak.c")),
    ("hqc_ring.h", include_pqm4!("src/hqc_ring.h")),
    ("hqc_ring.c", include_pqm4!("src/hqc_ring.c")),
    ("hqc_sampling.h", include_pqm4!("src/hqc_sampling.h")),
    ("hqc_sampling.c", include_pqm4!("src/hqc_sampling.c")),
    ("hqc_code.h", include_pqm4!("src/hqc_code.h")),
    ("hqc_rs.c", include_pqm4!("src/hqc_rs.c")),
    ("hqc_rm.c", include_pqm4!("src/hqc_rm.c")),
    ("hqc_pke.h", include_pqm4!("src/hqc_pke.h")),
    ("hqc_pke.c", include_pqm4!("src/hqc_pke.c")),
];

/// The Thumb-2 routines of the board KEM, copied unchanged.
pub const BOARD_ASM: [(&str, &str); 2] = [
    ("keccak_f1600.S", include_source!("m4kem/keccak_f1600.S")),
    (
        "support_expand.S",
        include_source!("m4kem/support_expand.S"),
    ),
];

/// The multiplier's Thumb-2 kernels (the firmware Makefile's `KERNEL_OBJ`; a test checks that
/// both lists agree), copied unchanged: pqm4 assembles them for its Arm platforms, and
/// `fafft.c` uses them only there (`__arm__`).
pub const FIRMWARE_KERNELS: [(&str, &str); 3] = [
    ("clmul_m4.S", include_source!("firmware/fafft/clmul_m4.S")),
    (
        "wordxor_m4.S",
        include_source!("firmware/fafft/wordxor_m4.S"),
    ),
    (
        "transpose_m4.S",
        include_source!("firmware/fafft/transpose_m4.S"),
    ),
];

const FAFFT_C: &str = include_source!("firmware/fafft/fafft.c");
const FAFFT_H: &str = include_source!("firmware/fafft/fafft.h");
const BS_SUB10_H: &str = include_source!("firmware/fafft/bs_sub10.h");
/// The stage files `fafft.c` includes (`fafft_instance.h` and the stages it includes; `twomod.h`
/// only for two-moduli exports, which are not packaged), copied unchanged.
const FAFFT_STAGES: [(&str, &str); 13] = [
    (
        "fafft_instance.h",
        include_source!("firmware/fafft/fafft_instance.h"),
    ),
    (
        "fafft_words.h",
        include_source!("firmware/fafft/fafft_words.h"),
    ),
    (
        "fafft_field.h",
        include_source!("firmware/fafft/fafft_field.h"),
    ),
    (
        "fafft_basis.h",
        include_source!("firmware/fafft/fafft_basis.h"),
    ),
    (
        "fafft_encode.h",
        include_source!("firmware/fafft/fafft_encode.h"),
    ),
    (
        "fafft_butterfly.h",
        include_source!("firmware/fafft/fafft_butterfly.h"),
    ),
    (
        "fafft_pointwise.h",
        include_source!("firmware/fafft/fafft_pointwise.h"),
    ),
    (
        "fafft_transform.h",
        include_source!("firmware/fafft/fafft_transform.h"),
    ),
    (
        "fafft_residue.h",
        include_source!("firmware/fafft/fafft_residue.h"),
    ),
    ("fafft_crt.h", include_source!("firmware/fafft/fafft_crt.h")),
    (
        "fafft_split.h",
        include_source!("firmware/fafft/fafft_split.h"),
    ),
    (
        "fafft_ring.h",
        include_source!("firmware/fafft/fafft_ring.h"),
    ),
    ("twomod.h", include_source!("firmware/fafft/twomod.h")),
];

/// The export's headers the multiplier includes.
pub const EXPORT_HEADERS: [&str; 7] = [
    "fafft_params.h",
    "minpoly_mods_defs.h",
    "IL_defs.h",
    "encode_matrix_defs.h",
    "gft_mul_s_inv_i_beta_matrix_defs.h",
    "btfy_consts_gft.h",
    "gen_xor_programs.h",
];

/// Why no package was written.
#[derive(Debug, Error)]
pub enum PackageError {
    /// params.json is refused (the board's reader: schema, checksum, headers, rules).
    #[error(transparent)]
    Params(Box<BoardError>),
    /// The export cannot be packaged (a layout or kind pqm4's flat folder cannot hold).
    #[error("{file}: {reason}")]
    Unsupported {
        /// params.json.
        file: String,
        /// Why.
        reason: String,
    },
    /// The folder exists and `--force` was not given.
    #[error("{0} exists; pass --force to replace it")]
    Exists(PathBuf),
    /// A file or folder that cannot be read, created or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was attempted.
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The generated tower header could not be made.
    #[error("bs_tower_gen.h: {0}")]
    Generator(String),
    /// The board harness could not run.
    #[error(transparent)]
    Harness(#[from] board::HarnessError),
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> PackageError {
    let path = path.to_path_buf();
    move |source| PackageError::Io {
        action,
        path,
        source,
    }
}

/// Arguments of `hqc-verify package`.
#[derive(clap::Args, Debug, Clone)]
pub struct PackageArgs {
    /// params.json written by `search export` (its folder holds the headers and routines).
    #[arg(long, value_name = "FILE")]
    pub params: PathBuf,
    /// Folder that receives crypto_kem/hqc-<L>/m4f/ (the level of the file's n); `--out` is
    /// the report file, as for every command.
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
    /// KAT flavour of the KEM: 2026-02 (the current one) or v5.0.0.
    #[arg(long, default_value = "2026-02", value_parser = parse_flavour)]
    pub flavour: Flavour,
    /// Replace an existing crypto_kem/hqc-<L>/m4f/ folder.
    #[arg(long)]
    pub force: bool,
    /// Then run the board harness on the written folder (QEMU mps2-an386, pqm4 flags):
    /// KATs, pqm4's functional test, instructions, estimated cycles, peak stack, sizes, a
    /// constant-time trace comparison of enc and dec, and a build with the NUCLEO-L4R5ZI settings.
    #[arg(long)]
    pub board: bool,
    /// With --board: KAT entries checked on the board (the first K, 1..=100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=100), requires = "board")]
    pub kat_count: u16,
    /// With --board: build folder (default: <repo>/build/pqm4/hqc-<L>-<flavour>).
    #[arg(long, value_name = "DIR", requires = "board")]
    pub build_dir: Option<PathBuf>,
    /// With --board: time limit of the QEMU run, in seconds.
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
}

fn parse_flavour(s: &str) -> Result<Flavour, String> {
    Flavour::parse(s).ok_or_else(|| format!("unknown flavour '{s}' (v5.0.0 or 2026-02)"))
}

impl PackageArgs {
    /// The request these arguments make.
    pub fn request(&self) -> PackageRequest {
        PackageRequest {
            params: self.params.clone(),
            out: self.out_dir.clone(),
            flavour: self.flavour,
            force: self.force,
        }
    }
}

/// What to package.
#[derive(Clone, Debug)]
pub struct PackageRequest {
    /// params.json of the export.
    pub params: PathBuf,
    /// The folder that receives `crypto_kem/hqc-<L>/m4f/`.
    pub out: PathBuf,
    /// KAT flavour of the KEM.
    pub flavour: Flavour,
    /// Replace an existing package folder.
    pub force: bool,
}

/// A written package.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PackageReport {
    /// `OUT/crypto_kem/hqc-<L>/m4f`.
    pub dir: PathBuf,
    /// The level.
    pub level: String,
    /// The flavour.
    pub flavour: String,
    /// `config_id` of the export.
    pub config_id: String,
    /// params.json (absolute).
    pub params: String,
    /// The files written, sorted, with their sizes in bytes.
    pub files: Vec<(String, u64)>,
    /// The board harness's report (with `--board`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<board::HarnessReport>,
}

/// `hqc-verify package`: writes the folder, then with `--board` runs the harness on it.
pub fn execute(args: &PackageArgs) -> Result<PackageReport, PackageError> {
    let mut report = write_package(&args.request())?;
    if args.board {
        let level = Level::parse(&report.level).ok_or_else(|| PackageError::Unsupported {
            file: report.params.clone(),
            reason: format!("unknown level {}", report.level),
        })?;
        let build = args.build_dir.clone().unwrap_or_else(|| {
            crate::built_repo().join("build").join("pqm4").join(format!(
                "hqc-{}-{}",
                level.digit(),
                args.flavour.name()
            ))
        });
        report.board = Some(board::run(
            &report.dir,
            level,
            args.flavour,
            &build,
            usize::from(args.kat_count),
            args.timeout,
        )?);
    }
    Ok(report)
}

impl PackageReport {
    /// Every check passed (true without --board).
    pub fn passed(&self) -> bool {
        self.board.as_ref().is_none_or(|b| b.passed)
    }
}

/// The sizes of api.h for a level.
fn sizes(level: Level) -> [usize; 4] {
    fn of<P: ParamSet>() -> [usize; 4] {
        [
            P::DK_BYTES,
            P::EK_BYTES,
            P::CT_BYTES,
            hqc_verify::core::params::SS_BYTES,
        ]
    }
    match level {
        Level::Hqc1 => of::<Hqc1>(),
        Level::Hqc3 => of::<Hqc3>(),
        Level::Hqc5 => of::<Hqc5>(),
    }
}

/// The files of the package for a verified export (name, bytes), sorted by name.
pub fn package_files(
    cfg: &Config,
    flavour: Flavour,
) -> Result<Vec<(String, Vec<u8>)>, PackageError> {
    let file = cfg.info.file.clone();
    let refuse = |reason: String| PackageError::Unsupported {
        file: file.clone(),
        reason,
    };
    if cfg.info.second.is_some() {
        return Err(refuse(
            "a two-moduli export needs two renamed instances of the multiplier, which a pqm4 folder cannot build; package a one-modulus export".into(),
        ));
    }
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for name in EXPORT_HEADERS {
        if !cfg.info.verified_files.iter().any(|f| f == name) {
            return Err(refuse(format!(
                "the export has no {name} (an artifact-layout export?); package the default layout of `search export`"
            )));
        }
        let p = cfg.dir.join(name);
        out.push((name.into(), fs::read(&p).map_err(io("read", &p))?));
    }
    let asm: Vec<&String> = cfg
        .info
        .verified_files
        .iter()
        .filter(|f| f.ends_with(".S") && !f.contains('/'))
        .collect();
    for name in &asm {
        let p = cfg.dir.join(name);
        out.push(((*name).clone(), fs::read(&p).map_err(io("read", &p))?));
        if let Some(stem) = name.strip_suffix(".S") {
            out.push((
                format!("{stem}_nosave.S"),
                nosave_wrapper(stem).into_bytes(),
            ));
        }
    }
    let pj = cfg.dir.join("params.json");
    out.push((
        "params.json".into(),
        fs::read(&pj).map_err(io("read", &pj))?,
    ));
    let xor_inout = out
        .iter()
        .any(|(n, b)| n == "gen_xor_programs.h" && contains(b, b"encode_xor(const uint32_t *in32"));
    out.push((
        "fafft.c".into(),
        fafft_c(!asm.is_empty(), xor_inout).into_bytes(),
    ));
    out.push(("fafft.h".into(), FAFFT_H.as_bytes().to_vec()));
    out.push(("bs_sub10.h".into(), BS_SUB10_H.as_bytes().to_vec()));
    let tower =
        fwgen::bs_tower::bs_tower_header().map_err(|e| PackageError::Generator(e.to_string()))?;
    out.push(("bs_tower_gen.h".into(), tower.into_bytes()));
    for (n, t) in TEMPLATES
        .iter()
        .chain(BOARD_ASM.iter())
        .chain(FIRMWARE_KERNELS.iter())
        .chain(FAFFT_STAGES.iter())
    {
        out.push(((*n).into(), t.as_bytes().to_vec()));
    }
    out.push(("api.h".into(), api_h(cfg.level).into_bytes()));
    out.push(("hqc_config.h".into(), config_h(cfg, flavour).into_bytes()));
    let names: Vec<String> = out.iter().map(|(n, _)| n.clone()).collect();
    out.push((
        "README.md".into(),
        readme(cfg, flavour, &names).into_bytes(),
    ));
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// `NAME_nosave.S`: the exported routine `NAME.S` assembled again as `NAME_nosave`, with its
/// save of s16-s31 replaced by the same 64 bytes of stack. `fafft.c` calls only these forms
/// (docs/board.md section 17.3); the board's Makefile builds them with the same three
/// definitions on the command line (its `NOSAVE` variable).
pub fn nosave_wrapper(name: &str) -> String {
    format!(
        "/* hqc-verify package: {name}.S assembled as {name}_nosave, without the save of s16-s31 (the\n   caller in fafft.c saves them once per transform layer) */\n\
         #define {name} {name}_nosave\n\
         #define vpush sub sp, sp, #64 @\n\
         #define vpop add sp, sp, #64 @\n\
         #include \"{name}.S\"\n"
    )
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// fafft.c of the firmware behind the two settings its Makefile passes on the command line
/// (pqm4 passes no per-scheme flags).
fn fafft_c(asm: bool, xor_inout: bool) -> String {
    let mut s = String::from(
        "/* hqc-verify package: the firmware's fafft.c (hqc-verify/board/firmware/fafft/) unchanged\n   below these lines, which make the settings its Makefile passes on the command line. */\n",
    );
    if asm {
        s.push_str("#if defined(__ARM_ARCH_7EM__) && !defined(HQC_PORTABLE)\n#define FAFFT_ASM_ROUTINES 1   /* the exported Thumb-2 routines of this folder */\n#endif\n");
    }
    if xor_inout {
        s.push_str("#define GEN_XOR_INOUT 1   /* gen_xor_programs.h takes (in, out) */\n");
    }
    s.push_str(FAFFT_C);
    s
}

fn api_h(level: Level) -> String {
    let [sk, pk, ct, ss] = sizes(level);
    format!(
        "/* NIST KEM API of {name} (HQC 2025-08), written by `hqc-verify package`. */\n\
         #ifndef API_H\n#define API_H\n\n\
         #define CRYPTO_SECRETKEYBYTES {sk}\n\
         #define CRYPTO_PUBLICKEYBYTES {pk}\n\
         #define CRYPTO_CIPHERTEXTBYTES {ct}\n\
         #define CRYPTO_BYTES {ss}\n\
         #define CRYPTO_ALGNAME \"{name}\"\n\n\
         int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);\n\
         int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);\n\
         int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);\n\n\
         #endif\n",
        name = level.name()
    )
}

fn config_h(cfg: &Config, flavour: Flavour) -> String {
    format!(
        "/* Level and KAT flavour of this package, written by `hqc-verify package`\n   \
         (export config_id {id}). */\n\
         #ifndef HQC_CONFIG_H\n#define HQC_CONFIG_H\n\
         #define HQC_LEVEL {l}\n\
         #define HQC_FLAVOUR_V5 {v5}   /* 1: v5.0.0 XOF reads, 0: 2026-02 */\n\
         #define HQC_CONFIG_ID \"{id}\"\n\
         #endif\n",
        id = cfg.info.config_id,
        l = cfg.level.digit(),
        v5 = u8::from(flavour == Flavour::V5_0_0)
    )
}

fn readme(cfg: &Config, flavour: Flavour, names: &[String]) -> String {
    let i = &cfg.info;
    let mut list: Vec<&str> = names.iter().map(String::as_str).collect();
    list.sort_unstable();
    format!(
        include_pqm4!("README.template.md"),
        level = cfg.level.name(),
        digit = cfg.level.digit(),
        flavour = flavour.name(),
        config_id = i.config_id,
        checksum = i.checksum,
        l = i.l,
        c = i.c,
        beta = i.beta,
        export_command = i.export_command,
        files = list.join(", "),
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Loads and verifies the export, then writes `OUT/crypto_kem/hqc-<L>/m4f/` atomically.
pub fn write_package(req: &PackageRequest) -> Result<PackageReport, PackageError> {
    let cfg = load(&req.params, None).map_err(|e| PackageError::Params(Box::new(e)))?;
    let files = package_files(&cfg, req.flavour)?;
    let parent = req
        .out
        .join("crypto_kem")
        .join(format!("hqc-{}", cfg.level.digit()));
    let dir = parent.join("m4f");
    if dir.exists() && !req.force {
        return Err(PackageError::Exists(dir));
    }
    fs::create_dir_all(&parent).map_err(io("create", &parent))?;
    let tag = format!("{}-{}", std::process::id(), nanos());
    let tmp = parent.join(format!(".m4f.tmp-{tag}"));
    let written = write_all(&tmp, &files).and_then(|()| replace(&tmp, &dir, &parent, &tag));
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    Ok(PackageReport {
        dir,
        level: cfg.level.name().into(),
        flavour: req.flavour.name().into(),
        config_id: cfg.info.config_id.clone(),
        params: cfg.info.file.clone(),
        files: files
            .iter()
            .map(|(n, b)| (n.clone(), b.len() as u64))
            .collect(),
        board: None,
    })
}

fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

fn write_all(tmp: &Path, files: &[(String, Vec<u8>)]) -> Result<(), PackageError> {
    fs::create_dir(tmp).map_err(io("create", tmp))?;
    for (name, bytes) in files {
        let p = tmp.join(name);
        fs::write(&p, bytes).map_err(io("write", &p))?;
    }
    Ok(())
}

/// Moves `tmp` to `dir` ([`fafft_config::output::replace_dir`]); an existing `dir` is moved
/// aside first and removed after.
fn replace(tmp: &Path, dir: &Path, parent: &Path, tag: &str) -> Result<(), PackageError> {
    let old = parent.join(format!(".m4f.old-{tag}"));
    replace_dir(tmp, dir, &old).map_err(|e| {
        let action = match e.step {
            ReplaceStep::MoveAside => "move aside",
            ReplaceStep::RenameIn => "rename into place",
            ReplaceStep::RemoveOld => "remove",
        };
        io(action, &e.path)(e.source)
    })
}

/// The report as text.
pub fn render_text(r: &PackageReport) -> String {
    let bytes: u64 = r.files.iter().map(|(_, b)| b).sum();
    let board = r.board.as_ref().map(board::render_text).unwrap_or_default();
    format!(
        "wrote {}: pqm4 package of {}, flavour {}, config_id {}; {} files, {} bytes; from {}\n{board}",
        r.dir.display(),
        r.level,
        r.flavour,
        r.config_id,
        r.files.len(),
        bytes,
        r.params
    )
}
