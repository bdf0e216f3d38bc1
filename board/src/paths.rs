//! Where a board run reads and writes (docs/board.md): the repository whose board sources it
//! builds, the export folder, the build folder of this export and its logs.

use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::args::BoardArgs;
use crate::error::BoardError;

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
    /// The unpacked rust-web tree of this repository (m4kem's compiler).
    pub(crate) fn rust_web(&self) -> PathBuf {
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
