//! One export bundle: params.json plus the files of a derivation (docs/params-json.md,
//! "Checksum"; docs/firmware-layout.md). Writing the bundle into a directory is the caller's
//! job (`search export`).
//!
//! Two layouts ([`Layout`]):
//! * `project` (default): params.json, the seven headers of [`crate::emit::headers::HEADER_FILES`]
//!   and one Thumb-2 routine `NAME.S` per β-dependent matrix ([`crate::model::routines`]).
//! * `artifact`: a drop-in set for the published Cortex-M4 firmware tree: `gen/` with the four
//!   β-dependent tables (IL_defs.h self-contained), `m4f/` with the 13 routines
//!   `gft_mul_s_inv_<j>_beta.S` (j = 1 … 11), `encode_to_gft_full_length.S`,
//!   `decode_from_gft_full_length.S` (a γ_j that does not exist for β gets the placeholder of
//!   [`placeholder_asm`]), and README.md.
//!
//! The layout is not a params.json field: it is read back from the `files` map
//! ([`Layout::of_files`]), which the checksum covers.

use crate::emit::headers;
use crate::model::derive::{Config, Derived};
use crate::model::error::ConfigError;
use crate::model::routines::{self, Matrix, ARTIFACT_GAMMAS};
use crate::model::transform::ChainError;
use crate::schema::hex::Digest;
use crate::schema::spec::{Params, Provenance, PARAMS_FILE};
use std::collections::BTreeMap;
use std::path::Path;

/// Which set of files an export holds (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// The project's own layout (flat folder).
    #[default]
    Project,
    /// The drop-in set for the published firmware tree.
    Artifact,
}

/// Folder of the artifact layout's headers.
pub const ARTIFACT_GEN_DIR: &str = "gen";
/// Folder of the artifact layout's routines.
pub const ARTIFACT_ASM_DIR: &str = "m4f";
/// The artifact layout's README.
pub const ARTIFACT_README: &str = "README.md";

impl Layout {
    /// `project` or `artifact`.
    pub fn name(&self) -> &'static str {
        match self {
            Layout::Project => "project",
            Layout::Artifact => "artifact",
        }
    }
    /// Parses [`Layout::name`].
    pub fn parse(s: &str) -> Option<Layout> {
        match s.trim() {
            "project" => Some(Layout::Project),
            "artifact" => Some(Layout::Artifact),
            _ => None,
        }
    }
    /// The layout whose files a params.json `files` map lists.
    pub fn of_files<V>(files: &BTreeMap<String, V>) -> Layout {
        if files.contains_key(&format!("{ARTIFACT_GEN_DIR}/IL_defs.h")) {
            Layout::Artifact
        } else {
            Layout::Project
        }
    }
}

/// params.json and the files of one configuration.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The typed params.json.
    pub params: Params,
    /// All files, (relative path, text): params.json first, then the others.
    pub files: Vec<(String, String)>,
}

/// [`render_layout`] of the project layout (never fails: every derivation has its routines).
pub fn render(d: &Derived, prov: &Provenance) -> Rendered {
    let id = Params::new(d, prov, BTreeMap::new()).config_id;
    let mut other = headers::files(d, prov, id.as_str());
    other.extend(
        d.routines
            .iter()
            .map(|r| (r.file_name(), r.routine.asm.clone())),
    );
    if let Some(s2) = &d.second {
        let dir = crate::schema::spec::SECOND_DIR;
        other.extend(
            headers::files(&s2.block, prov, id.as_str())
                .into_iter()
                .map(|(n, t)| (format!("{dir}/{n}"), t)),
        );
        other.extend(
            s2.block
                .routines
                .iter()
                .map(|r| (format!("{dir}/{}", r.file_name()), r.routine.asm.clone())),
        );
        other.push((
            crate::schema::spec::TWOMOD_FILE.into(),
            headers::twomod_h(d, s2, prov, id.as_str()),
        ));
    }
    finish(d, prov, other)
}

/// Render a derivation in a layout: `config_id` first (params without `files`), then the files
/// naming it, then `files` and `checksum`. The artifact layout needs l ≤ 11.
pub fn render_layout(
    d: &Derived,
    prov: &Provenance,
    layout: Layout,
) -> Result<Rendered, ConfigError> {
    match layout {
        Layout::Project => Ok(render(d, prov)),
        Layout::Artifact => {
            if d.cfg.l > ARTIFACT_GAMMAS || d.cfg.m != 32 {
                return Err(ChainError::ArtifactLayout {
                    m: d.cfg.m,
                    l: d.cfg.l,
                }
                .into());
            }
            let id = Params::new(d, prov, BTreeMap::new()).config_id;
            let mut other = headers::artifact_files(d, prov, id.as_str());
            other.extend(artifact_routines(d));
            other.push((
                ARTIFACT_README.into(),
                artifact_readme(d, prov, id.as_str()),
            ));
            Ok(finish(d, prov, other))
        }
    }
}

fn finish(d: &Derived, prov: &Provenance, other: Vec<(String, String)>) -> Rendered {
    let map: BTreeMap<String, Digest> = other
        .iter()
        .map(|(n, t)| (n.clone(), Digest::of(t.as_bytes())))
        .collect();
    let params = Params::new(d, prov, map);
    let mut files = vec![(PARAMS_FILE.to_string(), params.to_text())];
    files.extend(other);
    Rendered { params, files }
}

/// The 13 routine names of the published firmware, in order: γ_1 … γ_11, Encode, Decode.
pub fn artifact_routine_names() -> Vec<String> {
    let mut v: Vec<String> = (1..=ARTIFACT_GAMMAS).map(routines::gamma_name).collect();
    v.push(routines::ENCODE_NAME.into());
    v.push(routines::DECODE_NAME.into());
    v
}

fn artifact_routines(d: &Derived) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let find = |m: Matrix| d.routines.iter().find(|r| r.matrix == m);
    for j in 1..=ARTIFACT_GAMMAS {
        let path = format!("{ARTIFACT_ASM_DIR}/{}.S", routines::gamma_name(j));
        match find(Matrix::Gamma(j)) {
            Some(r) => out.push((path, r.routine.asm.clone())),
            None => out.push((path, placeholder_asm(j, &d.gamma_extra_note))),
        }
    }
    for m in [Matrix::Encode, Matrix::Decode] {
        if let Some(r) = find(m) {
            out.push((
                format!("{ARTIFACT_ASM_DIR}/{}", r.file_name()),
                r.routine.asm.clone(),
            ));
        }
    }
    out
}

fn artifact_readme(d: &Derived, prov: &Provenance, id: &str) -> String {
    let c = &d.cfg;
    let mut s = String::new();
    s += "# Drop-in set for the published Cortex-M4 FAFFT firmware\n\n";
    s += &format!(
        "Generated by: `{}`\n\nParameters: m = {}, l = {}, N = {}, c = {}, n = {}, beta = {:#010x} (tower hex), chain = {}. params.json config_id (SHA-256) = {}.\n\n",
        headers::comment_safe(&prov.command),
        c.m,
        c.l,
        d.big_n,
        c.c,
        c.n,
        c.beta,
        headers::comment_safe(&c.chain.name()),
        id
    );
    s += "## Files and where they go\n\n";
    s += "| exported | copy into | replaces |\n|---|---|---|\n";
    s += &format!("| `{ARTIFACT_GEN_DIR}/*.h` (4 headers) | the build's `src/common/gen/` folder | the headers of the same names |\n");
    s += &format!("| `{ARTIFACT_ASM_DIR}/*.S` (13 routines) | the folder of the M4 assembly routines | the routines of the same names |\n");
    s += "| `params.json`, `README.md` | nowhere (provenance) | - |\n\n";
    s += "## Manual steps\n\nNone. Copy the two folders over the firmware's own and build as usual:\n\n";
    s += "- `gen/IL_defs.h` is self-contained (it includes only `<stdint.h>`), so no extra header is needed.\n";
    s += "- No exported file has the name of one of the firmware's own sources: the beta-independent\n  `btfy_consts_gft` table is not exported (the firmware's own is the same for every beta).\n";
    s += "- Every routine is `void NAME(uint32_t *out, const uint32_t *in)` on 32-word bitsliced arrays\n  (word q = bit q of 32 field elements; `in` and `out` never alias), AAPCS, saving r4-r11 and d8-d15.\n";
    let missing: Vec<u32> = (1..=ARTIFACT_GAMMAS)
        .filter(|&j| !d.routines.iter().any(|r| r.matrix == Matrix::Gamma(j)))
        .collect();
    if missing.is_empty() {
        s +=
            "- All 13 routines compute their matrices (gamma_1 .. gamma_11 exist for this beta).\n";
    } else {
        let list: Vec<String> = missing.iter().map(|j| routines::gamma_name(*j)).collect();
        s += &format!(
            "- {} is a placeholder: {} It has the routine's name and signature, so the build needs no source edit; it executes `udf` (HardFault) if called, which this configuration's transform never does.\n",
            list.join(", "),
            headers::comment_safe(&d.gamma_extra_note)
        );
    }
    s += "\n## Routines (static instruction counts)\n\n| routine | XORs | EOR | VMOV | loads | stores | total |\n|---|---|---|---|---|---|---|\n";
    let mut tot = fwgen::thumb2::Stats::default();
    for r in &d.routines {
        let st = r.stats();
        tot = tot.add(&st);
        s += &format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            r.routine.name,
            r.slp.xor_count(),
            st.eor,
            st.vmov,
            st.load,
            st.store,
            st.total
        );
    }
    s += &format!(
        "| all | {} | {} | {} | {} | {} | {} |\n",
        d.routines.iter().map(|r| r.slp.xor_count()).sum::<usize>(),
        tot.eor,
        tot.vmov,
        tot.load,
        tot.store,
        tot.total
    );
    s += &format!(
        "\nXOR programs: {}. Routines: fwgen::thumb2 (seed {}, {} restarts, {} moves). Check: `search` verifies this folder with `hqc-verify board --params params.json` or `fafft_config::spec::load(..).verify()`.\n",
        d.programs_method,
        d.routine_budget.seed,
        d.routine_budget.restarts,
        d.routine_budget.polish
    );
    s
}

/// The canonical command line of a configuration written to `out`.
pub fn command_of(cfg: &Config, out: &Path) -> String {
    command_of_layout(cfg, out, Layout::Project)
}

/// [`command_of`] with the layout (`--layout artifact` only when not the default).
pub fn command_of_layout(cfg: &Config, out: &Path, layout: Layout) -> String {
    command_of_effort(cfg, out, layout, &crate::emit::effort::Effort::default())
}

/// [`command_of_layout`] with the export's effort (`--seeds`, `--moves` only when not the
/// default).
pub fn command_of_effort(
    cfg: &Config,
    out: &Path,
    layout: Layout,
    effort: &crate::emit::effort::Effort,
) -> String {
    let d = crate::emit::effort::Effort::default();
    let mut extra = String::new();
    if effort.quick {
        extra += " --quick";
    }
    if effort.seeds != d.seeds {
        extra += &format!(" --seeds {}", effort.seeds);
    }
    if effort.moves != d.moves {
        extra += &format!(" --moves {}", effort.moves);
    }
    format!(
        "search export --m {} --l {} --beta {:#010x} --c {} --n {}{} --chain {}{}{extra} --out {}",
        cfg.m,
        cfg.l,
        cfg.beta,
        cfg.c,
        cfg.n,
        match (&cfg.split, &cfg.second) {
            (Some(s), _) => format!(" --split-k {} --split-words {}", s.k, s.residual_words),
            (None, Some(s)) => format!(" --second-l {} --second-beta {:#010x}", s.l, s.beta),
            (None, None) => String::new(),
        },
        cfg.chain.name(),
        if layout == Layout::Project {
            String::new()
        } else {
            format!(" --layout {}", layout.name())
        },
        crate::emit::shell::word(&out.display().to_string())
    )
}

/// The placeholder of a γ_j that does not exist for this β (j > l and β ∉ V_(32−j)): a routine
/// of the same name and signature that stops the processor with `udf #j` (HardFault), so a
/// firmware that links it builds unchanged and can never compute a wrong product silently.
pub fn placeholder_asm(j: u32, note: &str) -> String {
    let name = routines::gamma_name(j);
    format!(
        "@ {name}: PLACEHOLDER. gamma_{j} does not exist for this configuration:\n\
         @ {note}\n\
         @ Linking this file keeps a build that names {name} unchanged; the transform of this\n\
         @ configuration never multiplies by gamma_{j}. If it is called, udf #{j} raises a\n\
         @ HardFault instead of returning a wrong product.\n\
         @ static counts: eor 0 vmov 0 load 0 store 0 push/pop 0 other 1 total 1\n\
         \x20   .syntax unified\n    .thumb\n    .cpu cortex-m4\n    .text\n    .align 2\n\
         \x20   .global {name}\n    .type {name}, %function\n    .thumb_func\n{name}:\n\
         \x20   udf #{j}\n    .size {name}, .-{name}\n",
        note = headers::comment_safe(note)
    )
}
