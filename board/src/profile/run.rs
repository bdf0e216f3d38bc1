//! One profiled run on the board: the plugin, the marker symbols, QEMU, and the host figures
//! set beside the board's.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::attribute::profile_from_logs;
use super::{FlavourProfile, OPERATIONS};
use crate::error::BoardError;
use crate::paths::Paths;
use crate::report::Checks;
use crate::runs::{exit_meaning, make_cmd, nm, qemu_cmd, run_logged, tail};
use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::core::probe::Component;

/// `nm` symbol values (Thumb bit cleared) of `elf`.
pub(super) fn symbols(elf: &Path) -> Result<BTreeMap<String, u64>, BoardError> {
    let text = nm(elf, &[]).map_err(|source| BoardError::Spawn {
        program: format!("arm-none-eabi-nm {}", elf.display()),
        source,
    })?;
    Ok(text
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
pub(super) fn plugin_args(elf: &Path) -> Result<String, BoardError> {
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
pub(super) fn profile_on_board(
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
pub(super) fn add_host(fp: &mut FlavourProfile, host: &hqc_verify::profile::LevelProfile) {
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

/// Builds the counting plugin of this build folder (the firmware Makefile's `plugin` target).
pub(super) fn build_plugin(p: &Paths, ck: &mut Checks) {
    let log = p.logs.join("plugin-build.log");
    let mut cmd = make_cmd(p);
    cmd.arg("plugin");
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
