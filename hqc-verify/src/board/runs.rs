//! Running a host tool or the emulated board (QEMU `mps2-an386`) with a log and a time limit,
//! and counting guest instructions between `bench_start` and `bench_stop` with the TCG plugin
//! (`board/plugin/insncount.c`, docs/board.md).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::toolchain::Paths;
use super::BoardError;

/// The last `n` lines of `s`.
pub(crate) fn tail(s: &str, n: usize) -> String {
    let v: Vec<&str> = s.lines().collect();
    v[v.len().saturating_sub(n)..].join("\n")
}

/// Runs `cmd` with stdout and stderr into `log`; returns (exit code, combined text).
pub(crate) fn run_logged(
    cmd: &mut Command,
    log: &Path,
    timeout: Option<Duration>,
) -> Result<(Option<i32>, String), BoardError> {
    let out = std::fs::File::create(log).map_err(|e| BoardError::io("create", log, e))?;
    let err = out
        .try_clone()
        .map_err(|e| BoardError::io("reopen", log, e))?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .map_err(|source| BoardError::Spawn {
            program: cmd.get_program().to_string_lossy().into_owned(),
            source,
        })?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child
            .try_wait()
            .map_err(|e| BoardError::io("wait for", log, e))?
        {
            break Some(s);
        }
        if timeout.is_some_and(|t| start.elapsed() > t) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(log).unwrap_or_default();
    match status {
        Some(s) => Ok((s.code(), text)),
        None => Ok((None, text + "\n(killed: time limit reached)")),
    }
}

// ---------------------------------------------------------------------------------------------

/// QEMU `mps2-an386` running `elf`, semihosting on stdio.
pub(crate) fn qemu_cmd(elf: &Path) -> Command {
    let mut c = Command::new("qemu-system-arm");
    c.args([
        "-M",
        "mps2-an386",
        "-display",
        "none",
        "-monitor",
        "none",
        "-serial",
        "none",
        "-chardev",
        "stdio,id=sh0",
        "-semihosting-config",
        "enable=on,target=native,chardev=sh0",
        "-kernel",
    ])
    .arg(elf);
    c
}

/// What a QEMU exit status of the firmware means.
pub(crate) fn exit_meaning(code: Option<i32>) -> &'static str {
    match code {
        Some(0) => "ok",
        Some(1) => "a check failed",
        Some(2) => "bad configuration",
        Some(90) => "Rust panic",
        Some(95..=99) => "fault handler",
        None => "killed (time limit) or signal",
        _ => "unexpected status",
    }
}

/// `bench_start`/`bench_stop` addresses (even, as the plugin sees them).
fn markers(elf: &Path) -> Result<(String, String), BoardError> {
    let out = Command::new("arm-none-eabi-nm")
        .arg(elf)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| BoardError::Spawn {
            program: format!("arm-none-eabi-nm {}", elf.display()),
            source,
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let find = |name: &str| {
        text.lines().find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[2] == name).then(|| format!("0x{}", f[0]))
        })
    };
    Ok((
        find("bench_start").ok_or_else(|| BoardError::Symbol {
            elf: elf.to_path_buf(),
            symbol: "bench_start",
        })?,
        find("bench_stop").ok_or_else(|| BoardError::Symbol {
            elf: elf.to_path_buf(),
            symbol: "bench_stop",
        })?,
    ))
}

/// (QEMU exit status, board output, [(region label, instructions)] in completion order).
pub(crate) type CountedRun = (Option<i32>, String, Vec<(String, u64)>);

/// Runs `elf` with the counting plugin on `bench_start`/`bench_stop`.
pub(crate) fn run_counted(
    p: &Paths,
    elf: &Path,
    append: Option<&str>,
    name: &str,
    timeout: u64,
) -> Result<CountedRun, BoardError> {
    let (s, e) = markers(elf)?;
    let plog = p.logs.join(format!("{name}.plugin"));
    let _ = std::fs::remove_file(&plog);
    let mut cmd = qemu_cmd(elf);
    cmd.arg("-plugin")
        .arg(format!("{},start={s},stop={e}", p.plugin.display()))
        .arg("-d")
        .arg("plugin")
        .arg("-D")
        .arg(&plog);
    if let Some(a) = append {
        cmd.arg("-append").arg(a);
    }
    let (code, text) = run_logged(
        &mut cmd,
        &p.logs.join(format!("{name}.out")),
        Some(Duration::from_secs(timeout)),
    )?;
    let ptext = std::fs::read_to_string(&plog).unwrap_or_default();
    let mut cnt: BTreeMap<u64, u64> = BTreeMap::new();
    for l in ptext.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() == 4 && f[0] == "region" {
            if let (Some(k), Ok(v)) = (
                f[2].strip_prefix('#').and_then(|k| k.parse().ok()),
                f[3].parse(),
            ) {
                cnt.insert(k, v);
            }
        }
    }
    let mut regions = Vec::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("bench ") {
            if let Some((k, label)) = rest.split_once(' ') {
                if let (Ok(k), true) = (k.parse::<u64>(), !label.is_empty()) {
                    if let Some(&v) = cnt.get(&k) {
                        regions.push((label.trim().to_string(), v));
                    }
                }
            }
        }
    }
    Ok((code, text, regions))
}
