//! The firmware of one configuration (`board/firmware/Makefile`, `PARAMS_DIR` = the export
//! folder, docs/board.md): its build, and the on-board tests `test_field` and `test_mul`
//! (the black-box modulus extraction, random products against an on-board schoolbook
//! product, and the board/host result hashes).

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use crate::paths::Paths;
use crate::progress::progress;
use crate::report::Checks;
use crate::runs::{self, exit_meaning, qemu_cmd, run_logged, tail};

const FW_ELFS: [&str; 4] = ["test_field", "test_mul", "bench_mul", "bench_stages"];

/// The generated tower header (`fwgen::bs_tower`) the Makefile copies into its build, written
/// only when its content changed (so make rebuilds nothing needlessly).
fn bs_tower_header(p: &Paths) -> Result<std::path::PathBuf, String> {
    let path = p.fw_build.join("bs_tower_gen.src.h");
    let text = fwgen::bs_tower::bs_tower_header().map_err(|e| format!("bs_tower_gen.h: {e}"))?;
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::create_dir_all(&p.fw_build)
            .map_err(|e| format!("cannot create {}: {e}", p.fw_build.display()))?;
        fafft_config::output::write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(path)
}

fn make_cmd(p: &Paths, xor: &str) -> Command {
    let mut c = runs::make_cmd(p);
    c.arg(format!("XOR={xor}"));
    c
}

/// Builds the firmware ELFs, the host test and the plugin; true when the build succeeded.
pub(crate) fn build_firmware(p: &Paths, xor: &str, ck: &mut Checks) -> bool {
    let mut cmd = make_cmd(p, xor);
    match bs_tower_header(p) {
        Ok(h) => cmd.arg(format!("BS_TOWER_HDR={}", h.display())),
        Err(e) => {
            ck.push("firmware: build".into(), false, e);
            return false;
        }
    };
    for t in FW_ELFS {
        cmd.arg(p.fw_build.join(format!("{t}.elf")));
    }
    cmd.arg(p.fw_build.join("host_test_mul")).arg("plugin");
    let log = p.logs.join("firmware-build.log");
    match run_logged(&mut cmd, &log, None) {
        Ok((Some(0), _)) => {
            ck.push(
                "firmware: build".into(),
                true,
                format!(
                    "make PARAMS_DIR={} XOR={xor} (log {})",
                    p.params_dir.display(),
                    log.display()
                ),
            );
            true
        }
        Ok((code, text)) => {
            ck.push(
                "firmware: build".into(),
                false,
                format!("make exited {code:?}:\n{}", tail(&errors_only(&text), 20)),
            );
            false
        }
        Err(e) => {
            ck.push("firmware: build".into(), false, e.to_string());
            false
        }
    }
}

/// Compiler output without the `text data bss` size lines.
pub(crate) fn errors_only(s: &str) -> String {
    s.lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("text") || t.chars().next().is_some_and(|c| c.is_ascii_digit()))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// PASS:/FAIL: lines of a firmware test, grouped by label in first-seen order:
/// (label, passes, fails, detail lines printed before the first failure).
pub(crate) fn parse_test_output(text: &str) -> Vec<(String, usize, usize, Vec<String>)> {
    let mut out: Vec<(String, usize, usize, Vec<String>)> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for line in text.lines() {
        let (ok, label) = if let Some(l) = line.strip_prefix("PASS: ") {
            (true, l)
        } else if let Some(l) = line.strip_prefix("FAIL: ") {
            (false, l)
        } else {
            if line.starts_with("  ") || line.contains("mismatch") {
                pending.push(line.trim().to_string());
            }
            continue;
        };
        let idx = match out.iter().position(|e| e.0 == label) {
            Some(i) => i,
            None => {
                out.push((label.to_string(), 0, 0, Vec::new()));
                out.len() - 1
            }
        };
        if ok {
            out[idx].1 += 1;
        } else {
            out[idx].2 += 1;
            if out[idx].3.is_empty() {
                out[idx].3 = std::mem::take(&mut pending);
            }
        }
        pending.clear();
    }
    out
}

/// Runs `test_field` and `test_mul` on the board, and `test_mul` on the host.
pub(crate) fn firmware_tests(p: &Paths, timeout: u64, ck: &mut Checks) {
    let to = Some(Duration::from_secs(timeout));
    let mut board_hashes = None;
    for t in ["test_field", "test_mul"] {
        let elf = p.fw_build.join(format!("{t}.elf"));
        let log = p.logs.join(format!("{t}.out"));
        progress(&format!("running {t} on QEMU"));
        let (code, text) = match run_logged(&mut qemu_cmd(&elf), &log, to) {
            Ok(x) => x,
            Err(e) => {
                ck.push(format!("firmware: {t} ran"), false, e.to_string());
                continue;
            }
        };
        let checks = parse_test_output(&text);
        for (label, pass, fail, detail) in &checks {
            let mut d = format!("{pass} passed, {fail} failed on the board");
            if !detail.is_empty() {
                let _ = write!(d, ": {}", detail.join(" | "));
            }
            ck.push(
                format!("firmware: {t}: {label}"),
                *fail == 0 && *pass > 0,
                d,
            );
        }
        let summary = text
            .lines()
            .rev()
            .find(|l| l.contains(" passed, "))
            .unwrap_or("");
        ck.push(
            format!("firmware: {t} exit status"),
            code == Some(0) && !checks.is_empty(),
            format!(
                "QEMU exit {code:?} ({}); {summary}; output {}",
                exit_meaning(code),
                log.display()
            ),
        );
        if t == "test_mul" {
            board_hashes = Some(hash_lines(&text));
        }
    }
    // the same test compiled for the host must print the same result hashes
    let host = p.fw_build.join("host_test_mul");
    let log = p.logs.join("host_test_mul.out");
    match (board_hashes, run_logged(&mut Command::new(&host), &log, to)) {
        (Some(b), Ok((_, text))) => {
            let h = hash_lines(&text);
            ck.push(
                "firmware: board and host print the same product hashes".into(),
                !b.is_empty() && b == h,
                format!("{} hashes on the board, {} on the host", b.len(), h.len()),
            );
        }
        (_, Err(e)) => ck.push(
            "firmware: board and host print the same product hashes".into(),
            false,
            e.to_string(),
        ),
        (None, _) => {}
    }
}

fn hash_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("hash"))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_output_groups_labels() {
        let t = "PASS: a\n  modulus mismatch (u=1): first differing exponent 7\nFAIL: b\nPASS: a\nFAIL: b\n3 passed, 2 failed\n";
        let g = parse_test_output(t);
        assert_eq!(g[0], ("a".into(), 2, 0, vec![]));
        assert_eq!(g[1].2, 2);
        assert_eq!(
            g[1].3,
            vec!["modulus mismatch (u=1): first differing exponent 7".to_string()]
        );
    }
}
