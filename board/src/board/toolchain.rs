//! Where the board run reads and writes (docs/board.md), and the toolchain it needs:
//! arm-none-eabi-gcc, qemu-system-arm, a host C compiler, and Debian's rust-web for m4kem.
//! Missing tools are installed by `scripts/install-board-deps.sh` and
//! `scripts/install-rust-web.sh` (both idempotent).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest as _, Sha256};

use super::args::BoardArgs;
use super::report::Toolchain;
use super::runs::tail;
use super::{progress, BoardError};

/// The folders of one board run.
pub(crate) struct Paths {
    /// The repository root.
    pub(crate) repo: PathBuf,
    /// `hqc-verify/board`.
    pub(crate) board: PathBuf,
    /// The export folder (`PARAMS_DIR`).
    pub(crate) params_dir: PathBuf,
    /// Build tag: folder name, XOR programs, hash of the folder path.
    pub(crate) tag: String,
    /// The firmware build folder.
    pub(crate) fw_build: PathBuf,
    /// The instruction-counting plugin of this build folder.
    pub(crate) plugin: PathBuf,
    /// Logs and board outputs.
    pub(crate) logs: PathBuf,
}

impl Paths {
    pub(crate) fn new(args: &BoardArgs, params_dir: &Path) -> Result<Self, BoardError> {
        let repo = source_tree()?;
        let board = repo.join(crate::SOURCES_DIR);
        if !board.join("firmware").join("Makefile").is_file() {
            return Err(BoardError::Sources(format!(
                "{} is missing (the board sources)",
                board.join("firmware/Makefile").display()
            )));
        }
        let name: String = params_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "params".into())
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let h = hex::encode(Sha256::digest(params_dir.display().to_string().as_bytes()));
        let tag = format!("{name}-{}-{}", args.xor, &h[..8]);
        let base = args
            .build_dir
            .clone()
            .unwrap_or_else(|| repo.join("build").join("board-run"));
        // absolute: make runs in the firmware folder, where a relative --build-dir would name
        // a different folder (the generated headers were then not found)
        let base = std::path::absolute(&base).map_err(|e| BoardError::io("resolve", &base, e))?;
        let fw_build = base.join(&tag);
        let logs = fw_build.join("logs");
        std::fs::create_dir_all(&logs).map_err(|e| BoardError::io("create", &logs, e))?;
        Ok(Paths {
            // one plugin per build folder: concurrent runs never rebuild a shared .so
            plugin: fw_build.join("libinsncount.so"),
            params_dir: params_dir.to_path_buf(),
            repo,
            board,
            tag,
            fw_build,
            logs,
        })
    }
    fn rust_web(&self) -> PathBuf {
        self.repo
            .join("build")
            .join("rust-web")
            .join("tree")
            .join("usr")
    }
}

/// The repository whose board sources ([`crate::SOURCES_DIR`]) a run builds: the nearest folder at
/// or above the working directory that holds `<SOURCES_DIR>/firmware/Makefile` (the working
/// tree the command runs in), else the tree this binary was built from. Said on stderr when it
/// is not the working tree (docs/board.md).
pub(crate) fn source_tree() -> Result<PathBuf, BoardError> {
    let marker = Path::new(crate::SOURCES_DIR)
        .join("firmware")
        .join("Makefile");
    if let Ok(cwd) = std::env::current_dir() {
        if let Some(root) = cwd.ancestors().find(|d| d.join(&marker).is_file()) {
            return Ok(root.to_path_buf());
        }
    }
    let built = crate::built_repo();
    fafft_config::output::note(format_args!(
        "board sources: the working directory is not inside a checkout of this repository; using the tree this binary was built from, {}",
        built.display()
    ));
    Ok(built)
}

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
