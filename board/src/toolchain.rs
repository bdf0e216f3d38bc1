//! The toolchain a board run needs (its folders: [`crate::paths`]): arm-none-eabi-gcc,
//! qemu-system-arm, a host C compiler, and Debian's rust-web for m4kem. Missing tools are installed by `scripts/install-board-deps.sh` and
//! `scripts/install-rust-web.sh` (both idempotent).

use std::process::{Command, Stdio};

use crate::error::BoardError;
use crate::paths::Paths;
use crate::progress::progress;
use crate::report::Toolchain;
use crate::runs::tail;

fn in_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|d| {
            let f = d.join(tool);
            f.is_file()
                && std::fs::metadata(&f)
                    .map(|m| {
                        use std::os::unix::fs::PermissionsExt as _;
                        m.permissions().mode() & 0o111 != 0
                    })
                    .unwrap_or(false)
        })
    })
}

fn first_line(cmd: &mut Command) -> String {
    cmd.stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| {
            String::from_utf8_lossy(if o.stdout.is_empty() {
                &o.stderr
            } else {
                &o.stdout
            })
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
        })
        .unwrap_or_default()
}

const BOARD_TOOLS: [&str; 7] = [
    "arm-none-eabi-gcc",
    "arm-none-eabi-nm",
    "arm-none-eabi-size",
    "qemu-system-arm",
    "gcc",
    "python3",
    "make",
];

/// Makes sure the board tools exist (installing them when missing); their versions.
pub(crate) fn ensure_tools(p: &Paths) -> Result<Toolchain, BoardError> {
    let missing: Vec<&str> = BOARD_TOOLS
        .iter()
        .copied()
        .filter(|t| !in_path(t))
        .collect();
    if !missing.is_empty() {
        progress(&format!(
            "missing {}: running scripts/install-board-deps.sh",
            missing.join(", ")
        ));
        let script = p.repo.join("scripts").join("install-board-deps.sh");
        let out = Command::new(&script)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| BoardError::Spawn {
                program: script.display().to_string(),
                source,
            })?;
        let still: Vec<&str> = BOARD_TOOLS
            .iter()
            .copied()
            .filter(|t| !in_path(t))
            .collect();
        if !out.status.success() || !still.is_empty() {
            return Err(BoardError::Toolchain(format!(
                "the board toolchain is missing ({}) and {} could not install it (exit {:?}):\n{}",
                still.join(", "),
                script.display(),
                out.status.code(),
                tail(&String::from_utf8_lossy(&out.stderr), 15)
            )));
        }
    }
    let rw = p.rust_web();
    if !rw.join("bin").join("cargo").is_file() || !rw.join("bin").join("rustc").is_file() {
        progress("Debian rust-web missing: running scripts/install-rust-web.sh");
        let script = p.repo.join("scripts").join("install-rust-web.sh");
        let out = Command::new(&script)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| BoardError::Spawn {
                program: script.display().to_string(),
                source,
            })?;
        if !out.status.success() || !rw.join("bin").join("cargo").is_file() {
            return Err(BoardError::Toolchain(format!(
                "Debian's rust-web toolchain is missing and {} failed (exit {:?}):\n{}",
                script.display(),
                out.status.code(),
                tail(&String::from_utf8_lossy(&out.stderr), 15)
            )));
        }
    }
    let rustc_v = first_line(
        Command::new(rw.join("bin").join("rustc"))
            .arg("-V")
            .env("LD_LIBRARY_PATH", rw.join("lib").join("x86_64-linux-gnu")),
    );
    Ok(Toolchain {
        arm_none_eabi_gcc: first_line(Command::new("arm-none-eabi-gcc").arg("--version")),
        qemu: first_line(Command::new("qemu-system-arm").arg("--version")),
        rust_web: rustc_v,
        machine: "mps2-an386 (Cortex-M4F), RAM capped at 640 KiB by link.ld".into(),
    })
}
