//! Firmware export: `search export --m 32 --l L --beta B --c C --n N --out DIR [--chain ...]`
//! (docs/params-json.md).
//!
//! This module only parses the flags and writes the directory: the configuration, its
//! derivation, params.json (schema v3) and the headers are defined once in the `fafft-config`
//! crate ([`fafft_config::derive`], [`fafft_config::spec`], [`fafft_config::headers`]), where
//! `hqc-verify` reads them back with `load(..)?.verify()?`.
//!
//! ## Atomicity and early failure
//!
//! The output location is checked and a fresh temporary directory next to DIR is created
//! **before** any table is computed, so an unwritable `--out` fails at once. All files are
//! written into it, then it is renamed onto DIR. An existing DIR is refused unless `--force`,
//! which renames the old DIR aside, renames the new one in, and deletes the old one. Without
//! `--force` a new DIR is reserved up front by creating it empty (an export that finds it
//! created by another one meanwhile is refused), and the finished folder replaces that empty
//! folder in one rename; a failed export removes it again. A DIR that
//! is a symbolic link or not a directory is refused. A rejected configuration writes nothing.

use fafft_config::beta::parse_u32;
use fafft_config::output::{replace_dir, ReplaceStep};
use fafft_config::ConfigError;
use std::path::{Path, PathBuf};
use thiserror::Error;

pub use fafft_config::derive::{Config as ExportConfig, Derived};
pub use fafft_config::emit::effort::Effort;
pub use fafft_config::export::{
    command_of, command_of_effort, command_of_layout, render, render_layout, Layout, Rendered,
};
pub use fafft_config::layout::{
    delta_swap, inv_swap32, poly_words32, s0_gft, sha256_words, swap32,
};
pub use fafft_config::spec::{canonical_json, SCHEMA_VERSION};

/// `checksum` of a params.json value (lower-case hex), as [`fafft_config::spec::checksum_of`].
pub fn checksum_of(v: &serde_json::Value) -> String {
    fafft_config::spec::checksum_of(v).to_string()
}

/// Errors of the exporter.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The configuration is refused (rules, β, chain, derivation).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// `--l`, `--beta` or `--n` missing without `--plan`.
    #[error("give the configuration (--l, --beta and --n) or a plan (--plan FILE)")]
    MissingFlags,
    /// DIR exists.
    #[error("output directory {path} already exists (use --force to replace it)")]
    Exists {
        /// DIR.
        path: String,
    },
    /// DIR cannot be written.
    #[error("cannot write output directory {path}: {reason}")]
    OutDir {
        /// DIR.
        path: String,
        /// Why.
        reason: String,
    },
}

/// The result of an export.
#[derive(Clone, Debug)]
pub struct Export {
    /// The derivation.
    pub derived: Derived,
    /// The files written.
    pub rendered: Rendered,
}

/// A temporary directory next to DIR, removed on drop unless renamed in.
struct Staging {
    out: PathBuf,
    parent: PathBuf,
    name: String,
    tmp: PathBuf,
    /// DIR was created empty by this export (no `--force`): it is only ever replaced by the new
    /// folder, and removed again if the export fails.
    reserved: bool,
    done: bool,
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.tmp);
            if self.reserved {
                // only if still empty: never a folder someone else filled
                let _ = std::fs::remove_dir(&self.out);
            }
        }
    }
}

fn dir_err(out: &Path, reason: String) -> ExportError {
    ExportError::OutDir {
        path: out.display().to_string(),
        reason,
    }
}

/// Check DIR and create the staging directory (before any work).
fn stage(out: &Path, force: bool) -> Result<Staging, ExportError> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| dir_err(out, "the path has no final component".into()))?;
    match std::fs::symlink_metadata(out) {
        Ok(md) if md.file_type().is_symlink() => {
            return Err(dir_err(
                out,
                "it is a symbolic link; pass the directory it points to".into(),
            ))
        }
        Ok(md) if !md.is_dir() => {
            return Err(dir_err(out, "it exists and is not a directory".into()))
        }
        Ok(_) if !force => {
            return Err(ExportError::Exists {
                path: out.display().to_string(),
            })
        }
        _ => {}
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| {
        dir_err(
            out,
            format!("cannot create parent {}: {e}", parent.display()),
        )
    })?;
    // Staging folders that killed exports left behind (their process is gone) are removed.
    fafft_config::output::remove_stale_temps(out);
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    // Without --force, DIR is reserved now by creating it (which fails if it exists, also when
    // another export created it since the check above), so two exports into one new DIR
    // cannot both succeed.
    let reserved = if force && out.exists() {
        false
    } else {
        match std::fs::create_dir(out) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && force => false,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(ExportError::Exists {
                    path: out.display().to_string(),
                })
            }
            Err(e) => return Err(dir_err(out, format!("cannot create it: {e}"))),
        }
    };
    let staging = Staging {
        out: out.to_path_buf(),
        parent,
        name,
        tmp,
        reserved,
        done: false,
    };
    if let Err(e) = std::fs::create_dir(&staging.tmp) {
        return Err(dir_err(
            out,
            format!("cannot create {}: {e}", staging.tmp.display()),
        ));
    }
    Ok(staging)
}

impl Staging {
    fn commit(mut self, files: &[(String, String)]) -> Result<(), ExportError> {
        let out = self.out.clone();
        for (f, text) in files {
            let path = self.tmp.join(f);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| dir_err(&out, format!("cannot create the folder of {f}: {e}")))?;
            }
            std::fs::write(&path, text.as_bytes())
                .map_err(|e| dir_err(&out, format!("cannot write {f}: {e}")))?;
        }
        if self.reserved {
            // DIR is the empty folder this export created: renaming onto an empty folder
            // replaces it atomically, onto a folder someone filled meanwhile fails
            std::fs::rename(&self.tmp, &out).map_err(|e| {
                dir_err(
                    &out,
                    format!(
                        "cannot rename the new directory in (did another export write it?): {e}"
                    ),
                )
            })?;
        } else {
            let old = self
                .parent
                .join(format!(".{}.old-{}", self.name, std::process::id()));
            if let Err(e) = replace_dir(&self.tmp, &out, &old) {
                let what = match e.step {
                    ReplaceStep::MoveAside => Some("cannot move the old directory aside"),
                    ReplaceStep::RenameIn => Some("cannot rename the new directory in"),
                    // the new directory is in place; a leftover old one is only untidy
                    ReplaceStep::RemoveOld => None,
                };
                if let Some(what) = what {
                    return Err(dir_err(&out, format!("{what}: {}", e.source)));
                }
            }
        }
        self.done = true;
        Ok(())
    }
}

/// Build and write an export in the project layout (library entry point used by the tests):
/// validate, check DIR, derive, render, write.
pub fn export(cfg: &ExportConfig, out: &Path, force: bool) -> Result<Export, ExportError> {
    export_layout(cfg, out, force, Layout::Project, false)
}

/// [`export`] in a layout; `progress` prints the stages with their times on stderr.
pub fn export_layout(
    cfg: &ExportConfig,
    out: &Path,
    force: bool,
    layout: Layout,
    progress: bool,
) -> Result<Export, ExportError> {
    export_effort(cfg, out, force, layout, progress, &Effort::default())
}

/// [`export_layout`] at an effort (`--seeds`, `--moves`; docs/thumb2.md "Export effort").
pub fn export_effort(
    cfg: &ExportConfig,
    out: &Path,
    force: bool,
    layout: Layout,
    progress: bool,
    effort: &Effort,
) -> Result<Export, ExportError> {
    cfg.validate()?;
    if layout == Layout::Artifact && cfg.second.is_some() {
        return Err(dir_err(
            out,
            "the artifact layout is for the published firmware, which has one modulus; export two moduli in the project layout".into(),
        ));
    }
    if layout == Layout::Artifact && cfg.split.is_some() {
        return Err(dir_err(
            out,
            "the artifact layout is for the published firmware, which has no split-operand driver; export a split in the project layout".into(),
        ));
    }
    if layout == Layout::Artifact
        && (cfg.l > fafft_config::routines::ARTIFACT_GAMMAS || cfg.m != 32)
    {
        return Err(
            ConfigError::from(fafft_config::transform::ChainError::ArtifactLayout {
                m: cfg.m,
                l: cfg.l,
            })
            .into(),
        );
    }
    let staging = stage(out, force)?;
    let t0 = std::time::Instant::now();
    if progress {
        fafft_config::output::note(format_args!(
            "export: deriving tables, optimising the XOR programs and emitting the Thumb-2 routines ..."
        ));
    }
    let derived = if effort.is_default() {
        cfg.derive()?
    } else {
        if progress && effort.quick {
            fafft_config::output::note(format_args!(
                "export: quick: Paar's programs, routines without the scheduling search ..."
            ));
        } else if progress {
            fafft_config::output::note(format_args!(
                "export: effort {} optimiser seeds per matrix, {} moves per routine (each matrix's programs are emitted and the shortest routine is kept) ...",
                effort.seeds, effort.moves
            ));
        }
        cfg.derive_with(&Effort {
            progress,
            ..*effort
        })?
    };
    if progress {
        fafft_config::output::note(format_args!(
            "export: {} routines ready ({:.1} s)",
            derived.routines.len(),
            t0.elapsed().as_secs_f64()
        ));
    }
    let prov = fafft_config::spec::Provenance {
        command: command_of_effort(cfg, out, layout, effort),
        tool_version: fafft_config::spec::TOOL_VERSION.into(),
    };
    let rendered = render_layout(&derived, &prov, layout)?;
    staging.commit(&rendered.files)?;
    Ok(Export { derived, rendered })
}

/// Arguments of `search export`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExportArgs {
    /// Field degree (only 32, the Cortex-M4 tower field).
    #[arg(long, default_value_t = 32)]
    pub m: u32,
    /// Transform parameter l (N = 32·2^l).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..16), required_unless_present = "plan")]
    pub l: Option<u32>,
    /// β in tower hex, e.g. 0x00103674 (`0x` optional, at most 8 hex digits).
    #[arg(long, required_unless_present = "plan")]
    pub beta: Option<String>,
    /// Residue size c in bits (multiple of 32, N + c ≥ 2n − 1, c ≤ N; 0 = no residue ring).
    #[arg(long, default_value_t = 0)]
    pub c: u64,
    /// HQC n (operand length in bits).
    #[arg(long, required_unless_present = "plan")]
    pub n: Option<u64>,
    /// 2-Karatsuba split point k in bits (docs/fafft.md §9.11; with --split-words and --c 0):
    /// a multiple of 32 with n − k ≤ k and 2k ≤ N.
    #[arg(long, requires = "split_words")]
    pub split_k: Option<u64>,
    /// Words of the split's residual product f1·g1 (32·W ≥ n − k; f1, g1 zero-padded).
    #[arg(long, requires = "split_k")]
    pub split_words: Option<u64>,
    /// l of a second FAFFT modulus (two coprime moduli, docs/fafft.md §9.8; with --second-beta
    /// and --c 0): N1 + N2 ≥ 2n − 1, 5 ≤ l2 ≤ l.
    #[arg(long, requires = "second_beta", conflicts_with = "split_k")]
    pub second_l: Option<u32>,
    /// β of the second modulus (tower hex); M1, M2 must be coprime.
    #[arg(long, requires = "second_l")]
    pub second_beta: Option<String>,
    /// Export the plan of this `search crt --json` or joint-search report instead of the
    /// configuration flags (docs/cli.md §2.6).
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "m", "l", "beta", "c", "n", "chain", "split_k", "split_words", "second_l", "second_beta",
    ])]
    pub plan: Option<PathBuf>,
    /// With --plan: the plan's rank (default 1), or `first-residue-or-single`.
    // (clap lets a requirement yield to a conflict, so --rank conflicts with the
    // configuration flags as --plan does: `--rank` with them is a usage error too.)
    #[arg(long, value_name = "K", requires = "plan", value_parser = crate::plan_export::parse_rank,
          conflicts_with_all = [
        "m", "l", "beta", "c", "n", "chain", "split_k", "split_words", "second_l", "second_beta",
    ])]
    pub rank: Option<crate::plan_export::Rank>,
    /// Output directory (written atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Shift chain: default | artifact | gamma:0xHEX (γ_l).
    #[arg(long, default_value = "default")]
    pub chain: String,
    /// Replace an existing output directory.
    #[arg(long)]
    pub force: bool,
    /// File set: project (flat folder for this project's firmware) | artifact (drop-in `gen/`
    /// and `m4f/` folders for the published Cortex-M4 firmware; docs/firmware-layout.md).
    #[arg(long, default_value = "project")]
    pub layout: String,
    /// Effort: optimiser seeds per matrix (0..K-1); with K > 1 every matrix's K programs are
    /// emitted and the one whose Thumb-2 routine is shortest is exported (about K times the
    /// export time; docs/thumb2.md "Export effort"). 1 = the default export.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub seeds: u32,
    /// Effort: local-search moves of the Thumb-2 backend per routine (the default is the
    /// export's budget, `fafft_config::routines::emit_options`; the time grows linearly).
    #[arg(long, default_value_t = fafft_config::routines::emit_options().budget.polish as u64,
          value_parser = clap::value_parser!(u64).range(0..=10_000_000))]
    pub moves: u64,
    /// The least effort: Paar's programs and the Thumb-2 backend without its scheduling search
    /// (seconds instead of a minute). The export is correct and verifies, but its routines are
    /// slower on the board: for trying a configuration, not for measuring it.
    #[arg(long, conflicts_with_all = ["seeds", "moves"])]
    pub quick: bool,
}

impl ExportArgs {
    /// The configuration these arguments describe.
    pub fn config(&self) -> Result<ExportConfig, ExportError> {
        // clap requires --l, --beta and --n unless --plan is given (then `run` does not call this)
        let (Some(l), Some(beta), Some(n)) = (self.l, &self.beta, self.n) else {
            return Err(ExportError::MissingFlags);
        };
        let beta = parse_u32(beta).map_err(ConfigError::from)?;
        let chain =
            fafft_config::transform::Chain::parse(&self.chain).map_err(ConfigError::from)?;
        let split = match (self.split_k, self.split_words) {
            (Some(k), Some(residual_words)) => {
                Some(fafft_config::rules::Split { k, residual_words })
            }
            _ => None,
        };
        let second = match (self.second_l, &self.second_beta) {
            (Some(l), Some(b)) => Some(fafft_config::rules::Second {
                l,
                beta: parse_u32(b).map_err(ConfigError::from)?,
            }),
            _ => None,
        };
        Ok(ExportConfig::new(self.m, l, beta, chain, self.c, n)
            .with_split(split)
            .with_second(second))
    }
}

/// Run `search export`.
pub fn run(args: &ExportArgs) -> anyhow::Result<()> {
    use std::io::IsTerminal as _;
    // with --plan the summary line names the plan first
    let (cfg, from) = match &args.plan {
        Some(file) => {
            let rank = args.rank.unwrap_or(crate::plan_export::Rank::Number(1));
            let chosen = crate::plan_export::choose(file, rank)?;
            let from = format!(
                "plan rank {} of {} ({}): ",
                chosen.rank,
                file.display(),
                chosen.label
            );
            (chosen.config, from)
        }
        None => (args.config()?, String::new()),
    };
    let layout = Layout::parse(&args.layout).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown layout `{}`: expected `project` or `artifact`",
            args.layout
        )
    })?;
    let effort = Effort {
        seeds: args.seeds,
        moves: usize::try_from(args.moves)?,
        progress: false,
        quick: args.quick,
    };
    let e = export_effort(
        &cfg,
        &args.out,
        args.force,
        layout,
        std::io::stderr().is_terminal(),
        &effort,
    )?;
    crate::outln!(
        "{from}exported m = {}, l = {}, N = {}, c = {}, n = {}{}, β = {:#010x} (wt(M) = {}, chain {}, layout {}) to {}",
        cfg.m,
        cfg.l,
        e.derived.big_n,
        cfg.c,
        cfg.n,
        match (&cfg.split, &e.derived.second) {
            (Some(s), _) => format!(", split k = {} (residual {} words)", s.k, s.residual_words),
            (None, Some(s2)) => format!(
                ", second modulus l = {}, β = {:#010x} (N2 = {}, wt(M2) = {}, wt(W) = {})",
                s2.block.cfg.l,
                s2.block.cfg.beta,
                s2.block.big_n,
                s2.block.modulus.weight(),
                s2.w.weight()
            ),
            (None, None) => String::new(),
        },
        cfg.beta,
        e.derived.modulus.weight(),
        cfg.chain.name(),
        layout.name(),
        args.out.display()
    )?;
    Ok(())
}
