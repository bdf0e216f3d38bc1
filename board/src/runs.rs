//! The one wrapper of the board's tools: the firmware Makefile (`make_cmd`), `nm` (`nm`),
//! running a host tool or the emulated board (QEMU `mps2-an386`, `qemu_cmd`) with a log and a
//! time limit, and counting guest instructions between `bench_start` and `bench_stop` with the
//! TCG plugin (`hqc-verify/board/plugin/insncount.c`, docs/board.md).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::BoardError;
use crate::m4cycles;
use crate::paths::Paths;

/// The firmware Makefile (`make -C <board sources>/firmware -s`) with the folders of one run
/// (`PARAMS_DIR`, `BUILD`, `PLUGIN`): every `make` of the board starts here; callers add
/// variables and targets.
pub(crate) fn make_cmd(p: &Paths) -> Command {
    let mut c = Command::new("make");
    c.arg("-C")
        .arg(p.board.join("firmware"))
        .arg("-s")
        .arg(format!("PARAMS_DIR={}", p.params_dir.display()))
        .arg(format!("BUILD={}", p.fw_build.display()))
        .arg(format!("PLUGIN={}", p.plugin.display()));
    c
}

/// The standard output of `arm-none-eabi-nm ARGS ELF` (stdin closed): every symbol lookup
/// of the board starts here.
pub(crate) fn nm(elf: &Path, args: &[&str]) -> std::io::Result<String> {
    let out = Command::new("arm-none-eabi-nm")
        .args(args)
        .arg(elf)
        .stdin(Stdio::null())
        .output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

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
    let text = nm(elf, &[]).map_err(|source| BoardError::Spawn {
        program: format!("arm-none-eabi-nm {}", elf.display()),
        source,
    })?;
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

/// The plugin's pair of `start=`/`stop=` (the only pair the board's runs use).
const MAIN_PAIR: &str = "main";

/// One labelled region of a counted run: executed instructions and their estimated
/// Cortex-M4 cycles (`m4cycles::estimate_cycles` of the region's instruction classes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CountedRegion {
    /// The label the board printed for the region (`bench <k> <label>`).
    pub(crate) label: String,
    /// Executed instructions.
    pub(crate) instructions: u64,
    /// Estimated cycles.
    pub(crate) cycles: u64,
}

/// A run with the counting plugin.
pub(crate) struct CountedRun {
    /// QEMU exit status.
    pub(crate) code: Option<i32>,
    /// The board's output.
    pub(crate) text: String,
    /// Labelled regions, in completion order.
    pub(crate) regions: Vec<CountedRegion>,
}

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
    let regions = labelled_regions(&ptext, &text).map_err(|why| BoardError::PluginLog {
        path: plog.clone(),
        why,
    })?;
    Ok(CountedRun {
        code,
        text,
        regions,
    })
}

/// The regions of a plugin log (`ptext`, read by `m4cycles::parse`) under the labels the board
/// printed (`bench <k> <label>` lines of `board_out`, `k` = the region's completion index).
/// Every labelled region must carry its instruction classes.
pub(crate) fn labelled_regions(ptext: &str, board_out: &str) -> Result<Vec<CountedRegion>, String> {
    let log = m4cycles::parse(ptext).map_err(|e| e.to_string())?;
    let mut regions = Vec::new();
    for l in board_out.lines() {
        let Some((k, label)) = l.strip_prefix("bench ").and_then(|r| r.split_once(' ')) else {
            continue;
        };
        let (Ok(k), label) = (k.parse::<u64>(), label.trim()) else {
            continue;
        };
        if label.is_empty() {
            continue;
        }
        let Some(r) = log.region(MAIN_PAIR, k) else {
            continue;
        };
        let cycles = r.cycles().ok_or_else(|| {
            format!(
                "region {} #{k} ({label}) has no classes line: the plugin predates the \
                 instruction classes (rebuild libinsncount.so)",
                r.name
            )
        })?;
        regions.push(CountedRegion {
            label: label.to_string(),
            instructions: r.instructions,
            cycles,
        });
    }
    Ok(regions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::m4cycles::{estimate_cycles, ClassCounts};

    fn region_lines(k: u64, c: &ClassCounts) -> String {
        format!(
            "region main #{k} {}\nclasses main #{k} {}\n",
            c.instructions(),
            c.to_fields()
        )
    }

    #[test]
    fn regions_are_labelled_with_cycles() {
        let a = ClassCounts {
            alu: 5,
            ldr: 3,
            ldr_pipe: 1,
            br: 2,
            br_taken: 1,
            br_untaken: 1,
            ..Default::default()
        };
        let b = ClassCounts {
            alu: 7,
            ..Default::default()
        };
        let plog = format!("{}{}total 99\n", region_lines(0, &a), region_lines(1, &b));
        let out = "hello\nbench 0 keygen\nbench 1 encaps\nbench 7 decaps\nbench x y\n";
        let r = labelled_regions(&plog, out).expect("parses");
        assert_eq!(
            r,
            vec![
                CountedRegion {
                    label: "keygen".into(),
                    instructions: 10,
                    cycles: estimate_cycles(&a),
                },
                CountedRegion {
                    label: "encaps".into(),
                    instructions: 7,
                    cycles: 7,
                },
            ]
        );
        assert_eq!(r[0].cycles, 5 + (2 * 3 - 1) + 2 + 2);
    }

    #[test]
    fn regions_without_classes_or_bad_logs_are_errors() {
        let e = labelled_regions("region main #0 5\n", "bench 0 keygen\n");
        assert!(e.is_err_and(|e| e.contains("no classes line")));
        let e = labelled_regions("region main #0 five\n", "bench 0 keygen\n");
        assert!(e.is_err());
    }
}
