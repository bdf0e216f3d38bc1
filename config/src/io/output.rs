//! The one way the tools write an output file.
//!
//! The rule, by what the path names (symbolic links are followed first, up to 40 hops, and the
//! link itself is never replaced):
//!
//! * a regular file, or a path that does not exist yet: written atomically, i.e. to a temporary
//!   file `.NAME.tmp-PID` in the same directory, fsync, then rename over NAME; the temporary file
//!   is removed on any error, so a reader never sees a half-written file (also after a kill);
//!   temporary files and folders `.NAME.tmp-PID` left by runs that were killed (PID no longer
//!   alive) are removed on the next successful write of NAME;
//! * a character device or a FIFO (`/dev/null`, a named pipe), or an open file descriptor
//!   (`/dev/stdout`, `/dev/fd/N`, links into `/proc`): written through, i.e. opened for
//!   writing and written, never renamed over;
//! * a directory or any other special file (socket, block device): refused with an error that
//!   names the path.
//!
//! [`check_writable`] applies the same rule up front, so a command can refuse an unwritable
//! output before minutes of work; [`same_file`] tells whether two paths name the same file (for
//! refusing `--checkpoint X --out X`). A folder written as a whole (an export, a package) is
//! put in place by [`replace_dir`].

use std::io::{Error, ErrorKind, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Component, Path, PathBuf};

mod replace_dir;
pub use replace_dir::{replace_dir, ReplaceDirError, ReplaceStep};

/// What an output path names, after following symbolic links.
#[derive(Debug)]
enum Target {
    /// A regular file or a new path: write atomically to this (link-free) path.
    Replace(PathBuf),
    /// A character device or FIFO: open and write through.
    Through(PathBuf),
    /// This process's own standard output or error (`/dev/stdout`, `/proc/self/fd/1`, ...):
    /// written through the same descriptor, after what the process printed before.
    Std(u8),
}

fn refuse(path: &Path, what: &str) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!(
            "{} is {what}; give a regular file (or a character device or FIFO) as output",
            path.display()
        ),
    )
}

fn kind_name(t: std::fs::FileType) -> String {
    if t.is_dir() {
        "a directory"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
    .to_string()
}

/// Follow symbolic links from `path` to the file that would be written, and classify it.
fn resolve(path: &Path) -> std::io::Result<Target> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Target::Replace(p)),
            Err(e) => return Err(e),
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            // What the kernel reaches through the link (this also resolves links whose text is
            // no path, such as /dev/stdout -> /proc/self/fd/1 -> "pipe:[N]").
            if let Ok(m) = std::fs::metadata(&p) {
                let t = m.file_type();
                if t.is_char_device() || t.is_fifo() {
                    return Ok(Target::Through(p));
                }
                if !t.is_file() {
                    return Err(refuse(path, &kind_name(t)));
                }
            }
            let to = std::fs::read_link(&p)?;
            for (fd, names) in [
                (1u8, ["/proc/self/fd/1", "/dev/fd/1"]),
                (2u8, ["/proc/self/fd/2", "/dev/fd/2"]),
            ] {
                if names
                    .iter()
                    .any(|n| to == Path::new(n) || p == Path::new(n))
                {
                    return Ok(Target::Std(fd));
                }
            }
            if to.starts_with("/proc/") {
                // an open file descriptor (/dev/stdout, /dev/fd/N): write into it, since
                // replacing the file behind it would detach it from its other writers
                return Ok(Target::Through(p));
            }
            p = if to.is_absolute() {
                to
            } else {
                p.parent().unwrap_or_else(|| Path::new("")).join(to)
            };
            continue;
        }
        if ft.is_file() {
            return Ok(Target::Replace(p));
        }
        if ft.is_char_device() || ft.is_fifo() {
            return Ok(Target::Through(p));
        }
        return Err(refuse(path, &kind_name(ft)));
    }
    Err(Error::new(
        ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

fn dir_and_name(path: &Path) -> std::io::Result<(PathBuf, String)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidInput,
                format!("{} does not name a file", path.display()),
            )
        })?;
    Ok((dir, name))
}

/// The temporary name used while writing NAME: `.NAME.tmp-PID`.
pub fn temp_path(path: &Path) -> PathBuf {
    let (dir, name) = dir_and_name(path).unwrap_or_else(|_| (PathBuf::from("."), "out".into()));
    dir.join(format!(".{name}.tmp-{}", std::process::id()))
}

/// Whether process `pid` is alive; `None` when this cannot be told (no `/proc`).
fn pid_alive(pid: u32) -> Option<bool> {
    if !Path::new("/proc/self").exists() {
        return None;
    }
    Some(Path::new(&format!("/proc/{pid}")).exists())
}

/// Remove `.NAME.tmp-PID` files and folders beside `path` whose process is no longer alive
/// (left by killed runs). Best effort: what cannot be removed is left alone. Returns how many
/// were removed.
pub fn remove_stale_temps(path: &Path) -> usize {
    let Ok((dir, name)) = dir_and_name(path) else {
        return 0;
    };
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let fname = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = fname.strip_prefix(&prefix) else {
            continue;
        };
        // `.NAME.tmp-PID` or `.NAME.tmp-PID.EXT`
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let tail = &rest[digits.len()..];
        if digits.is_empty() || !(tail.is_empty() || tail.starts_with('.')) {
            continue;
        }
        let Ok(pid) = digits.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || pid_alive(pid) != Some(false) {
            continue;
        }
        let p = e.path();
        let ok = match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&p).is_ok(),
            Ok(_) => std::fs::remove_file(&p).is_ok(),
            Err(_) => false,
        };
        removed += usize::from(ok);
    }
    removed
}

fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let res = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        if let Ok(m) = std::fs::metadata(path) {
            // keep the permissions of the file being replaced
            let _ = f.set_permissions(m.permissions());
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else {
        remove_stale_temps(path);
    }
    res
}

/// Write `bytes` to `path` by the rule of this module: atomically for a regular file or a new
/// path, through a symbolic link to its target, straight into a character device or FIFO; a
/// directory or other special file is refused.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match resolve(path)? {
        Target::Replace(p) => replace(&p, bytes),
        Target::Through(p) => {
            // append: a descriptor shared with the shell (`> file`) keeps what was written
            let mut f = std::fs::OpenOptions::new().append(true).open(&p)?;
            f.write_all(bytes)?;
            f.flush()
        }
        Target::Std(1) => {
            let mut o = std::io::stdout().lock();
            o.write_all(bytes)?;
            o.flush()
        }
        Target::Std(_) => {
            let mut o = std::io::stderr().lock();
            o.write_all(bytes)?;
            o.flush()
        }
    }
}

/// Check up front that [`write_atomic`] can write `path`: it is not a directory or other
/// special file, and (for a regular file or a new path) its directory exists and accepts a new
/// file (probed by creating and removing the temporary file).
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let ctx = |e: Error, what: String| Error::new(e.kind(), format!("{what}: {e}"));
    match resolve(path)? {
        Target::Replace(p) => {
            let (dir, _) = dir_and_name(&p)?;
            match std::fs::metadata(&dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(refuse(&dir, "not a directory")),
                Err(e) => return Err(ctx(e, format!("directory {}", dir.display()))),
            }
            let tmp = temp_path(&p);
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
                .map_err(|e| {
                    ctx(
                        e,
                        format!("directory {} does not accept a new file", dir.display()),
                    )
                })?;
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        // Opening a FIFO would wait for its reader; a device is checked when written.
        Target::Through(_) | Target::Std(_) => Ok(()),
    }
}

/// Standard output could not be written (a closed pipe, a full disk).
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output: {source}")]
pub struct StdoutError {
    /// The cause.
    #[source]
    pub source: Error,
}

impl StdoutError {
    /// Whether the reader went away (`| head`): the command should end quietly.
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == ErrorKind::BrokenPipe
    }
}

/// The exit status of a command whose standard output was closed by its reader: 128 + SIGPIPE,
/// what a shell reports for a program ended by the signal.
pub const BROKEN_PIPE_STATUS: u8 = 141;

/// Write `bytes` to standard output and flush, returning any error instead of panicking (the
/// checked replacement of `print!` on every output path).
pub fn print(bytes: impl AsRef<[u8]>) -> Result<(), StdoutError> {
    let mut o = std::io::stdout().lock();
    o.write_all(bytes.as_ref())
        .and_then(|()| o.flush())
        .map_err(|source| StdoutError { source })
}

/// Write one line to standard error, ignoring a write error: warnings, notes and progress must
/// never end a program (`eprintln!` panics when standard error is full, e.g. `2>/dev/full`), and
/// there is nowhere left to report that standard error failed. The replacement of `eprintln!` in
/// the tools.
pub fn note(text: impl std::fmt::Display) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(e, "{text}").and_then(|()| e.flush());
}

/// Whether an error (or one of its causes) is a closed standard output or pipe.
pub fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cur {
        if let Some(io) = c.downcast_ref::<Error>() {
            if io.kind() == ErrorKind::BrokenPipe {
                return true;
            }
        }
        if c.downcast_ref::<StdoutError>()
            .is_some_and(StdoutError::is_broken_pipe)
        {
            return true;
        }
        cur = c.source();
    }
    false
}

/// The path with symbolic links followed and `.`/`..` removed, as far as it exists.
fn normal(path: &Path) -> PathBuf {
    let p = match resolve(path) {
        Ok(Target::Replace(p) | Target::Through(p)) => p,
        Ok(Target::Std(_)) | Err(_) => path.to_path_buf(),
    };
    if let Ok(c) = std::fs::canonicalize(&p) {
        return c;
    }
    // a new file: canonical directory + name
    match (p.parent(), p.file_name()) {
        (Some(d), Some(n)) => {
            let d = if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            };
            match std::fs::canonicalize(d) {
                Ok(cd) => cd.join(n),
                Err(_) => lexical(&p),
            }
        }
        _ => lexical(&p),
    }
}

fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether `a` and `b` name the same file (after following links, through `.`/`..`, or as the
/// same inode), also when the file does not exist yet.
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    normal(a) == normal(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;
    use std::sync::mpsc;
    use std::time::Duration;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fafft-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn leftovers(d: &Path) -> Vec<String> {
        std::fs::read_dir(d)
            .expect("read dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp-"))
            .collect()
    }

    #[test]
    fn regular_file_is_replaced_atomically() {
        let d = tmp("regular");
        let f = d.join("out.json");
        write_atomic(&f, b"one\n").expect("write new");
        write_atomic(&f, b"two\n").expect("overwrite");
        assert_eq!(std::fs::read(&f).expect("read"), b"two\n");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    }

    #[test]
    fn symlink_is_followed_not_replaced() {
        let d = tmp("symlink");
        std::fs::write(d.join("real.json"), b"old\n").expect("seed");
        std::os::unix::fs::symlink("real.json", d.join("link.json")).expect("symlink");
        write_atomic(&d.join("link.json"), b"new\n").expect("write through link");
        let meta = std::fs::symlink_metadata(d.join("link.json")).expect("lstat");
        assert!(
            meta.file_type().is_symlink(),
            "the link itself was replaced"
        );
        assert_eq!(std::fs::read(d.join("real.json")).expect("read"), b"new\n");
        // a dangling link creates its target
        std::os::unix::fs::symlink("sub/../fresh.json", d.join("dangling")).expect("symlink");
        std::fs::create_dir(d.join("sub")).expect("sub");
        write_atomic(&d.join("dangling"), b"x").expect("write through dangling link");
        assert!(std::fs::symlink_metadata(d.join("dangling"))
            .expect("lstat")
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(d.join("fresh.json")).expect("read"), b"x");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    }

    #[test]
    fn fifo_is_written_through() {
        let d = tmp("fifo");
        let f = d.join("pipe");
        let ok = std::process::Command::new("mkfifo")
            .arg(&f)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            eprintln!("mkfifo not available; skipped");
            return;
        }
        let (tx, rx) = mpsc::channel();
        let g = f.clone();
        std::thread::spawn(move || {
            let _ = tx.send(std::fs::read(&g).map_err(|e| e.to_string()));
        });
        let res = write_atomic(&f, b"through the pipe\n");
        let kind = std::fs::symlink_metadata(&f).expect("lstat").file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced by another file");
        assert!(res.is_ok(), "{res:?}");
        let got = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("reader done");
        assert_eq!(got.as_deref(), Ok(&b"through the pipe\n"[..]));
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    }

    #[test]
    fn dev_null_stays_a_device() {
        let null = Path::new("/dev/null");
        let is_dev = |p: &Path| {
            std::fs::symlink_metadata(p)
                .map(|m| m.file_type().is_char_device())
                .unwrap_or(false)
        };
        if !is_dev(null) {
            return;
        }
        write_atomic(null, b"discarded\n").expect("write to /dev/null");
        assert!(is_dev(null), "/dev/null is no longer a character device");
        check_writable(null).expect("/dev/null is writable");
    }

    #[test]
    fn directory_is_refused() {
        let d = tmp("dir");
        let sub = d.join("target");
        std::fs::create_dir(&sub).expect("mkdir");
        let e = write_atomic(&sub, b"x").expect_err("a directory is refused");
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(e.to_string().contains("target"), "{e}");
        assert!(sub.is_dir());
        let e = check_writable(&sub).expect_err("refused up front");
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    }

    #[test]
    fn stale_temporary_files_of_dead_runs_are_removed() {
        let d = tmp("stale");
        let f = d.join("out.json");
        // no process has this id (above the Linux pid limit 2^22)
        let stale = d.join(".out.json.tmp-99999999");
        std::fs::write(&stale, b"half").expect("stale file");
        let stale_dir = d.join(".out.json.tmp-99999998");
        std::fs::create_dir(&stale_dir).expect("stale dir");
        std::fs::write(stale_dir.join("x"), b"half").expect("stale dir file");
        // an unrelated file of the same shape for another name stays
        let other = d.join(".other.json.tmp-99999999");
        std::fs::write(&other, b"keep").expect("other");
        write_atomic(&f, b"done\n").expect("write");
        assert!(!stale.exists(), "stale temporary file left behind");
        assert!(!stale_dir.exists(), "stale temporary folder left behind");
        assert!(other.exists());
    }

    #[test]
    fn unwritable_locations_are_found_up_front() {
        let d = tmp("probe");
        check_writable(&d.join("new.json")).expect("new file in a writable dir");
        let e = check_writable(&d.join("no/such/dir/out.json")).expect_err("missing dir");
        assert!(e.to_string().contains("no/such/dir"), "{e}");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    }

    #[test]
    fn same_file_through_different_paths() {
        let d = tmp("same");
        let f = d.join("ck.json");
        std::fs::write(&f, b"{}").expect("seed");
        std::os::unix::fs::symlink("ck.json", d.join("alias")).expect("symlink");
        std::fs::create_dir(d.join("sub")).expect("sub");
        assert!(same_file(&f, &d.join("sub/../ck.json")));
        assert!(same_file(&f, &d.join("alias")));
        assert!(same_file(&d.join("new.json"), &d.join("sub/../new.json")));
        assert!(!same_file(&f, &d.join("new.json")));
    }
}
