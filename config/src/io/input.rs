//! The one way the tools read an input file.
//!
//! Every file a command reads (JSON reports, checkpoints, shard parts, params.json, cost and
//! measured tables, matrices, `.rsp` KAT files) goes through [`read_bytes`] or [`read_text`]
//! with the size limit of its format ([`Format`], listed in docs/cli.md):
//!
//! * only a regular file is read (symbolic links are followed); a directory, FIFO, socket or
//!   device is refused with one sentence naming the path and what it is, without opening it
//!   (so a FIFO never blocks the command and `/dev/zero` is never read);
//! * a file larger than its format's limit is refused before it is read, and the read itself
//!   stops one byte past the limit (a file that grows while it is read is refused as well), so
//!   memory stays bounded by the limit.

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// A file format with its size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// What the file is, for messages ("a search checkpoint").
    pub what: &'static str,
    /// Largest accepted size in bytes.
    pub limit: u64,
}

const MIB: u64 = 1 << 20;

/// A JSON report of `search` (scan, shard part, merge, crt plan, joint search).
pub const REPORT_JSON: Format = Format {
    what: "a JSON report",
    limit: 16 * MIB,
};
/// A checkpoint of `search moduli` (both objectives).
pub const CHECKPOINT: Format = Format {
    what: "a search checkpoint",
    limit: 16 * MIB,
};
/// A params.json of an export.
pub const PARAMS_JSON: Format = Format {
    what: "a params.json",
    limit: MIB,
};
/// A cost table (`--cost-table`), a measured table or a board report read by `calibrate`.
pub const TABLE_JSON: Format = Format {
    what: "a cost or measured table",
    limit: 16 * MIB,
};
/// A binary matrix for `search slp`.
pub const MATRIX: Format = Format {
    what: "a matrix file",
    limit: 16 * MIB,
};
/// A KAT response file (`.rsp`) or the official intermediate-values file.
pub const RSP: Format = Format {
    what: "a KAT file",
    limit: 64 * MIB,
};

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be opened or read.
    #[error("cannot read {what} {}: {source}", path.display())]
    Io {
        /// What the file should be.
        what: &'static str,
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The path names no regular file.
    #[error("{} is {kind}, not a regular file; give {what} as a regular file", path.display())]
    NotRegular {
        /// What the file should be.
        what: &'static str,
        /// The path.
        path: PathBuf,
        /// "a directory", "a FIFO", ...
        kind: &'static str,
    },
    /// The file is larger than its format allows.
    #[error("{} is {size} bytes or more, larger than the {limit}-byte limit for {what} (docs/cli.md)", path.display())]
    TooLarge {
        /// What the file should be.
        what: &'static str,
        /// The path.
        path: PathBuf,
        /// Its size (at least).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{} is not UTF-8 text, so it is not {what}", path.display())]
    NotText {
        /// What the file should be.
        what: &'static str,
        /// The path.
        path: PathBuf,
    },
}

impl InputError {
    /// Whether the file does not exist (for readers to which a missing file is not an error,
    /// such as a checkpoint that has not been written yet).
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

fn kind_of(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

/// Checks that `path` names a regular file within the limit of `format` (without opening it).
pub fn check(path: &Path, format: Format) -> Result<u64, InputError> {
    let meta = std::fs::metadata(path).map_err(|source| InputError::Io {
        what: format.what,
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            what: format.what,
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
        });
    }
    if meta.len() > format.limit {
        return Err(InputError::TooLarge {
            what: format.what,
            path: path.to_path_buf(),
            size: meta.len(),
            limit: format.limit,
        });
    }
    Ok(meta.len())
}

/// Reads the regular file `path`, at most `format.limit` bytes (see the module documentation).
pub fn read_bytes(path: &Path, format: Format) -> Result<Vec<u8>, InputError> {
    use std::os::unix::fs::OpenOptionsExt;
    let size = check(path, format)?;
    let io = |source| InputError::Io {
        what: format.what,
        path: path.to_path_buf(),
        source,
    };
    // O_NONBLOCK: should the path have been replaced by a FIFO since the check, opening it
    // does not wait for a writer (the type is checked again on the open file).
    const O_NONBLOCK: i32 = 0o4000;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)
        .map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            what: format.what,
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
        });
    }
    let mut buf = Vec::with_capacity(size.min(format.limit) as usize);
    f.take(format.limit + 1).read_to_end(&mut buf).map_err(io)?;
    if buf.len() as u64 > format.limit {
        return Err(InputError::TooLarge {
            what: format.what,
            path: path.to_path_buf(),
            size: buf.len() as u64,
            limit: format.limit,
        });
    }
    Ok(buf)
}

/// [`read_bytes`] for a text file (UTF-8).
pub fn read_text(path: &Path, format: Format) -> Result<String, InputError> {
    let bytes = read_bytes(path, format)?;
    String::from_utf8(bytes).map_err(|_| InputError::NotText {
        what: format.what,
        path: path.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fafft-input-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    const SMALL: Format = Format {
        what: "a test file",
        limit: 8,
    };

    #[test]
    fn regular_file_within_the_limit_is_read() {
        let d = tmp("ok");
        std::fs::write(d.join("a"), b"12345678").expect("seed");
        assert_eq!(read_bytes(&d.join("a"), SMALL).expect("read"), b"12345678");
        std::os::unix::fs::symlink("a", d.join("link")).expect("link");
        assert_eq!(read_text(&d.join("link"), SMALL).expect("read"), "12345678");
    }

    #[test]
    fn larger_file_is_refused() {
        let d = tmp("large");
        std::fs::write(d.join("a"), b"123456789").expect("seed");
        let e = read_bytes(&d.join("a"), SMALL).expect_err("too large");
        assert!(e.to_string().contains("8-byte limit"), "{e}");
    }

    #[test]
    fn special_files_are_refused_without_reading() {
        let d = tmp("special");
        let e = read_bytes(&d, SMALL).expect_err("directory");
        assert!(e.to_string().contains("is a directory"), "{e}");
        if Path::new("/dev/zero").exists() {
            let e = read_bytes(Path::new("/dev/zero"), SMALL).expect_err("device");
            assert!(e.to_string().contains("character device"), "{e}");
        }
        let fifo = d.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if made {
            let e = read_bytes(&fifo, SMALL).expect_err("fifo");
            assert!(e.to_string().contains("is a FIFO"), "{e}");
        }
        let e = read_bytes(&d.join("missing"), SMALL).expect_err("missing");
        assert!(e.is_not_found(), "{e}");
    }

    #[test]
    fn binary_is_not_text() {
        let d = tmp("bin");
        std::fs::write(d.join("a"), [0xffu8, 0xfe]).expect("seed");
        let e = read_text(&d.join("a"), SMALL).expect_err("not utf-8");
        assert!(e.to_string().contains("not UTF-8"), "{e}");
    }
}
