//! Building and running the constant-time driver (`ct_driver.c`) with the plugin in trace mode.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::symbols::Symbols;
use super::trace::{parse_traces, TraceLine};
use super::BoardError;
use crate::firmware::errors_only;
use crate::paths::Paths;
use crate::runs::{make_cmd, qemu_cmd, run_logged, tail};
use hqc_verify::core::params::{Flavour, Level};

pub(super) fn marker(syms: &Symbols, elf: &Path, name: &'static str) -> Result<u32, BoardError> {
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
pub(super) fn build_plugin(p: &Paths) -> Result<(), BoardError> {
    let log = p.logs.join("ct-plugin-build.log");
    let mut cmd = make_cmd(p);
    cmd.arg(&p.plugin);
    match run_logged(&mut cmd, &log, None)? {
        (Some(0), _) => Ok(()),
        (code, text) => Err(BoardError::Toolchain(format!(
            "the instruction-counting plugin could not be built (make exited {code:?}):\n{}",
            tail(&text, 15)
        ))),
    }
}

/// `build.sh c-fafft` with `HARNESS=ct` for the export folder; the ELF.
pub(super) fn build_ct_elf(p: &Paths, xor: &str, features: &str) -> Result<PathBuf, BoardError> {
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
pub(super) fn run_driver(
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
pub(super) fn parse_cases(text: &str) -> BTreeMap<usize, (String, bool, bool)> {
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
