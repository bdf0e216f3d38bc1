//! The arguments of `hqc-verify board` (docs/board.md, docs/cli.md); `--json` and `--out` are
//! the binary's, the same for every command.

use std::path::PathBuf;

use hqc_verify::core::code::Decoder;
use hqc_verify::core::params::{Flavour, Level};

/// Arguments of `hqc-verify board`.
#[derive(clap::Args, Debug, Clone)]
pub struct BoardArgs {
    /// params.json written by `search export` (its folder holds the C headers).
    #[arg(long, value_name = "FILE")]
    pub params: PathBuf,
    /// Level the configuration must be for (1, 3 or 5); default: the level of its n.
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// KAT flavour(s) run on the board: v5.0.0, 2026-02 or all.
    #[arg(long, default_value = "all", value_parser = parse_flavours)]
    pub flavour: FlavourSel,
    /// KAT entries per flavour (the first K, 1..=100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub count: u16,
    /// Folder with the official KAT files (optional): the board's entries are then also
    /// compared with the official `.rsp` files. Without it, the committed per-entry pins judge.
    #[arg(long, value_name = "DIR")]
    pub kat_dir: Option<PathBuf>,
    /// β-dependent XOR routines, always from the export: `asm` (the exported Thumb-2 routines
    /// `NAME.S`) or `export` (the exporter's portable C programs, gen_xor_programs.h).
    #[arg(long, default_value = "asm", value_parser = ["asm", "export"])]
    pub xor: String,
    /// Firmware build folder (default: <repo>/build/board-run).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Time limit of each QEMU run, in seconds.
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// Run only the exact constant-time check (board/m4kem/ct_driver.c traced by the plugin):
    /// per region identical or differs, the first differing instruction named (docs/board.md
    /// section 13).
    #[arg(long, conflicts_with = "profile")]
    pub ct_check: bool,
    /// Reed-Solomon decoder of the board's Decaps: bm or eea (default: the faster on the
    /// board at this level, `crate::profile::default_decoder`).
    #[arg(long, value_parser = parse_decoder)]
    pub decoder: Option<Decoder>,
    /// Profile KeyGen, Encaps and Decaps component by component on the board, with the host
    /// profile beside it (docs/board.md section 14), instead of the board check.
    #[arg(long)]
    pub profile: bool,
    /// With --profile: iterations of the host profile.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u16).range(1..=10_000), requires = "profile")]
    pub host_iterations: u16,
    /// With --profile: also write the stacked-bar plot (SVG) to FILE.
    #[arg(long, value_name = "FILE", requires = "profile")]
    pub svg: Option<PathBuf>,
}

impl BoardArgs {
    /// Arguments with the defaults of the command line for `params`.
    pub fn new(params: impl Into<PathBuf>) -> Self {
        BoardArgs {
            params: params.into(),
            level: None,
            flavour: FlavourSel(Flavour::ALL.to_vec()),
            count: 10,
            kat_dir: None,
            xor: "asm".into(),
            build_dir: None,
            timeout: 900,
            ct_check: false,
            decoder: None,
            profile: false,
            host_iterations: 50,
            svg: None,
        }
    }
}

/// Selected flavours (`all` = both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlavourSel(pub Vec<Flavour>);

/// Parses `1`, `3`, `5` (or `hqc-1` …).
pub fn parse_level(s: &str) -> Result<Level, String> {
    Level::parse(s).ok_or_else(|| format!("unknown level {s:?}: expected 1, 3 or 5"))
}

/// Parses `bm` or `eea`.
pub fn parse_decoder(s: &str) -> Result<Decoder, String> {
    Decoder::from_name(s).ok_or_else(|| format!("unknown decoder {s:?}: expected bm or eea"))
}

/// Parses `v5.0.0`, `2026-02` or `all`.
pub fn parse_flavours(s: &str) -> Result<FlavourSel, String> {
    if s == "all" {
        return Ok(FlavourSel(Flavour::ALL.to_vec()));
    }
    Flavour::parse(s)
        .map(|f| FlavourSel(vec![f]))
        .ok_or_else(|| format!("unknown flavour {s:?}: expected v5.0.0, 2026-02 or all"))
}

/// The command in canonical form (recorded in the report).
pub fn command_of(args: &BoardArgs, file: &str, level: Level) -> String {
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
    let dec = args
        .decoder
        .map(|d| format!(" --decoder {d}"))
        .unwrap_or_default();
    format!(
        "hqc-verify board --params {file} --level {} --flavour {fl} --count {} --xor {}{dec}",
        level.digit(),
        args.count,
        args.xor
    )
}
