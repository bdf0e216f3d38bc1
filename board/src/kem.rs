//! The KEM on the board (docs/board.md): `m4kem` built with the C multiplier of the same
//! export folder (`board/m4kem/build.sh c-fafft`) regenerates the first K KAT entries of a
//! flavour; each entry's SHA3-256(pk ‖ sk ‖ ct ‖ ss) is compared on the host.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::args::BoardArgs;
use crate::error::BoardError;
use crate::export_input::Config;
use crate::firmware::errors_only;
use crate::paths::Paths;
use crate::progress::progress;
use crate::report::{Checks, KatRun};
use crate::runs::{exit_meaning, run_counted, run_logged, tail};
use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::kat;

/// Builds m4kem with the C multiplier of the export folder; the ELF, if the build succeeded.
/// `features`: extra cargo features of m4kem (`eea`, `profile`, comma separated; build.sh's
/// `FEATURES`).
pub(crate) fn build_m4kem(
    p: &Paths,
    cfg: &Config,
    xor: &str,
    features: &str,
    ck: &mut Checks,
) -> Option<PathBuf> {
    let script = p.board.join("m4kem").join("build.sh");
    let log = p.logs.join(if features.is_empty() {
        "m4kem-build.log".to_string()
    } else {
        format!("m4kem-build-{}.log", features.replace(',', "-"))
    });
    let mut cmd = Command::new(&script);
    cmd.arg("c-fafft")
        .env("PARAMS_DIR", &p.params_dir)
        .env("BUILD_TAG", &p.tag)
        .env("FEATURES", features)
        .env("XOR", xor);
    match run_logged(&mut cmd, &log, None) {
        Ok((Some(0), text)) => {
            let elf = text
                .lines()
                .rev()
                .find(|l| l.trim_end().ends_with(".elf"))
                .map(|l| PathBuf::from(l.trim()));
            match elf {
                Some(e) if e.is_file() => {
                    ck.push(
                        "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                        true,
                        format!(
                            "{} (n = {}, features [{features}], log {})",
                            e.display(),
                            cfg.info.n,
                            log.display()
                        ),
                    );
                    Some(e)
                }
                _ => {
                    ck.push(
                        "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                        false,
                        format!("build.sh did not name an ELF; log {}", log.display()),
                    );
                    None
                }
            }
        }
        Ok((code, text)) => {
            ck.push(
                "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                false,
                format!(
                    "build.sh exited {code:?}:\n{}",
                    tail(&errors_only(&text), 20)
                ),
            );
            None
        }
        Err(e) => {
            ck.push(
                "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                false,
                e.to_string(),
            );
            None
        }
    }
}

/// The expected board digest of one KAT entry.
#[derive(Clone, Debug)]
pub struct ExpectedEntry {
    /// `count`.
    pub count: usize,
    /// The committed pin SHA3-256(pk ‖ sk ‖ ct ‖ ss), lower-case hex.
    pub pinned: String,
    /// The same digest of the official file's entry, when a KAT folder was named.
    pub official: Option<String>,
}

/// What the board's KAT entries of one flavour must reproduce.
#[derive(Clone, Debug)]
pub struct ExpectedFlavour {
    /// The flavour.
    pub flavour: Flavour,
    /// Where the digests come from (the pin file, and the official file if any).
    pub source: String,
    /// Entries 0..K.
    pub entries: Vec<ExpectedEntry>,
}

/// What the board's KAT entries of the selected flavours must reproduce.
#[derive(Clone, Debug)]
pub struct Expected {
    /// Per selected flavour.
    pub flavours: Vec<ExpectedFlavour>,
    /// The folder of official KAT files used (`--kat-dir`, else `$HQC_KAT_DIR`), if any.
    pub kat_dir: Option<PathBuf>,
}

impl Expected {
    /// The digests of the first `args.count` entries of each selected flavour at `level`:
    /// always the committed per-entry pins (`kat::pins::board_digest`); with a KAT folder
    /// (`--kat-dir`, else `$HQC_KAT_DIR`) also the official `.rsp` files, which are first
    /// checked whole against their pinned SHA-256.
    pub fn read(args: &BoardArgs, level: Level) -> Result<Self, BoardError> {
        let count = usize::from(args.count);
        let kat_dir = kat::locate::locate_kat_dir(args.kat_dir.as_deref())?;
        let mut flavours = Vec::new();
        for &f in &args.flavour.0 {
            let mut entries = Vec::with_capacity(count);
            for c in 0..count {
                let pinned = kat::pins::board_digest(f, level, c)
                    .map_err(kat::KatError::from)?
                    .ok_or(BoardError::MissingPin {
                        level,
                        flavour: f,
                        count: c,
                    })?;
                entries.push(ExpectedEntry {
                    count: c,
                    pinned,
                    official: None,
                });
            }
            let mut source = format!(
                "the committed pins hqc-verify/{}",
                kat::pins::entry_file_name(f, level)
            );
            if let Some(dir) = &kat_dir {
                let (path, text) = kat::read_official(dir, f, level)?.ok_or_else(|| {
                    BoardError::Params(format!(
                        "official KAT file {} is missing",
                        kat::locate::official_file(dir, f, level).display()
                    ))
                })?;
                let rsp = kat::rsp::parse(&text).map_err(|source| kat::KatError::Rsp {
                    path: path.clone(),
                    source,
                })?;
                for e in &mut entries {
                    e.official = rsp
                        .entries
                        .iter()
                        .find(|o| o.count == e.count)
                        .map(kat::pins::board_digest_of);
                }
                source = format!("{source} and {}", path.display());
            }
            flavours.push(ExpectedFlavour {
                flavour: f,
                source,
                entries,
            });
        }
        Ok(Expected { flavours, kat_dir })
    }

    /// True when no KAT folder was used: the committed pins alone judge the entries.
    pub fn pins_only(&self) -> bool {
        self.kat_dir.is_none()
    }
}

/// Runs the KAT entries of every selected flavour on the board (`elf` = the m4kem build, if
/// it succeeded).
pub(crate) fn kat_runs(
    p: &Paths,
    elf: Option<&Path>,
    cfg: &Config,
    args: &BoardArgs,
    expected: &Expected,
    ck: &mut Checks,
) -> Vec<KatRun> {
    let count = args.count;
    let mut out = Vec::new();
    for ExpectedFlavour {
        flavour: f,
        source,
        entries: want,
    } in &expected.flavours
    {
        let f = *f;
        let r = match elf {
            Some(elf) => {
                progress(&format!(
                    "running KAT entries 0..{} of {} {} on the board",
                    count - 1,
                    cfg.level,
                    f
                ));
                kat_on_board(p, elf, cfg.level, f, count, want, source, args.timeout, ck)
            }
            None => {
                ck.push(
                    format!("kem: {} {} KAT entries 0..{}", cfg.level, f, count - 1),
                    false,
                    "not run: the m4kem build failed".into(),
                );
                KatRun {
                    first_failure: Some("not run (build failed)".into()),
                    ..empty_run(f, count)
                }
            }
        };
        out.push(r);
    }
    out
}

/// The KAT run of a flavour before any entry ran.
fn empty_run(f: Flavour, count: u16) -> KatRun {
    KatRun {
        flavour: f.name().into(),
        requested: count,
        run: 0,
        passed: 0,
        first_failure: None,
        qemu_exit: None,
        keygen: None,
        encaps: None,
        decaps: None,
        keygen_cycles: None,
        encaps_cycles: None,
        decaps_cycles: None,
        stack: BTreeMap::new(),
    }
}

/// Why one entry line of the board fails, or `None` when it passes.
/// One KAT entry line of the board harness (m4kem README):
/// `count=<i> level=<L> flavour=<F> digest=<hex> ok=<0|1>`. The one parser of these lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EntryLine<'a> {
    pub count: usize,
    pub level: &'a str,
    pub flavour: &'a str,
    pub digest: &'a str,
    pub ok: bool,
}

impl<'a> EntryLine<'a> {
    /// The entry of a line, or None when the line is no complete entry line.
    pub(crate) fn parse(line: &'a str) -> Option<Self> {
        if !line.starts_with("count=") {
            return None;
        }
        let kv: BTreeMap<&str, &str> = line
            .split_whitespace()
            .filter_map(|t| t.split_once('='))
            .collect();
        Some(EntryLine {
            count: kv.get("count")?.parse().ok()?,
            level: kv.get("level")?,
            flavour: kv.get("flavour")?,
            digest: kv.get("digest")?,
            ok: *kv.get("ok")? == "1",
        })
    }
}

fn entry_verdict(
    e: &EntryLine<'_>,
    level: Level,
    f: Flavour,
    want: &[ExpectedEntry],
) -> Option<String> {
    let (lv, fl, dg, c) = (e.level, e.flavour, e.digest, e.count);
    if lv != level.digit().to_string() || Flavour::parse(fl) != Some(f) {
        return Some(format!("the board ran level {lv} flavour {fl}"));
    }
    let Some(w) = want.iter().find(|w| w.count == c) else {
        return Some(format!("entry count = {c} was not requested"));
    };
    if !dg.eq_ignore_ascii_case(&w.pinned) {
        return Some(format!("digest {dg} differs from the pinned {}", w.pinned));
    }
    if let Some(o) = w.official.as_ref().filter(|o| !dg.eq_ignore_ascii_case(o)) {
        return Some(format!("digest {dg} differs from the official file's {o}"));
    }
    (!e.ok).then(|| "digest matches but Decaps did not reproduce ss on the board".into())
}

#[allow(clippy::too_many_arguments)]
fn kat_on_board(
    p: &Paths,
    elf: &Path,
    level: Level,
    f: Flavour,
    count: u16,
    want: &[ExpectedEntry],
    source: &str,
    timeout: u64,
    ck: &mut Checks,
) -> KatRun {
    let name = format!("kat-{}-{}-{}", level.digit(), f.name(), count);
    let append = format!(
        "level={} flavour={} count={count} bench=1",
        level.digit(),
        f.name()
    );
    let mut r = empty_run(f, count);
    let check_name = format!("kem: {level} {f} KAT entries 0..{} on the board", count - 1);
    let run = match run_counted(p, elf, Some(&append), &name, timeout) {
        Ok(x) => x,
        Err(e) => {
            r.first_failure = Some(e.to_string());
            ck.push(check_name, false, e.to_string());
            return r;
        }
    };
    let (code, text) = (run.code, run.text);
    r.qemu_exit = code;
    let get = |l: &str| run.regions.iter().find(|x| x.label == l);
    let (keygen, encaps, decaps) = (get("keygen"), get("encaps"), get("decaps"));
    r.keygen = keygen.map(|x| x.instructions);
    r.encaps = encaps.map(|x| x.instructions);
    r.decaps = decaps.map(|x| x.instructions);
    r.keygen_cycles = keygen.map(|x| x.cycles);
    r.encaps_cycles = encaps.map(|x| x.cycles);
    r.decaps_cycles = decaps.map(|x| x.cycles);
    let mut seen = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("stack ") {
            for kv in rest.split_whitespace() {
                if let Some((k, v)) = kv.split_once('=') {
                    if let Ok(v) = v.parse() {
                        r.stack.insert(k.into(), v);
                    }
                }
            }
        }
        let Some(e) = EntryLine::parse(line) else {
            continue;
        };
        let c = e.count;
        r.run += 1;
        seen.push(c);
        match entry_verdict(&e, level, f, want) {
            None => r.passed += 1,
            Some(why) => {
                if r.first_failure.is_none() {
                    r.first_failure = Some(format!("entry count = {c}: {why}"));
                }
            }
        }
    }
    let expect: Vec<usize> = (0..count as usize).collect();
    if seen != expect && r.first_failure.is_none() {
        r.first_failure = Some(format!(
            "expected entry lines 0..{}, the board printed {} ({}); last output: {}",
            count - 1,
            seen.len(),
            if seen.is_empty() {
                "none".into()
            } else {
                format!("{seen:?}")
            },
            tail(&text, 3).replace('\n', " | ")
        ));
    }
    let ok = code == Some(0) && r.passed == count as usize && r.first_failure.is_none();
    let mut detail = format!(
        "{} of {count} entries match {source} (QEMU exit {code:?}: {})",
        r.passed,
        exit_meaning(code)
    );
    if let Some(ff) = &r.first_failure {
        let _ = write!(detail, "; first failure: {ff}");
    }
    ck.push(check_name, ok, detail);
    ck.push(
        format!("counts: {level} {f} KeyGen/Encaps/Decaps counted"),
        r.keygen_cycles.is_some() && r.encaps_cycles.is_some() && r.decaps_cycles.is_some(),
        format!(
            "instructions / estimated cycles: keygen {:?} / {:?}, encaps {:?} / {:?}, decaps {:?} / {:?}",
            r.keygen, r.keygen_cycles, r.encaps, r.encaps_cycles, r.decaps, r.decaps_cycles
        ),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::EntryLine;

    #[test]
    fn entry_lines_parse_and_partial_lines_do_not() {
        let e =
            EntryLine::parse("count=3 level=1 flavour=2026-02 digest=ab12 ok=1").expect("entry");
        assert_eq!(
            (e.count, e.level, e.flavour, e.digest, e.ok),
            (3, "1", "2026-02", "ab12", true)
        );
        let e = EntryLine::parse("count=0 level=5 flavour=v5.0.0 digest=ff ok=0").expect("entry");
        assert!(!e.ok);
        for bad in [
            "count=3 level=1 flavour=2026-02 digest=ab12",
            "count=x level=1 flavour=2026-02 digest=ab12 ok=1",
            "bench 0 keygen",
            " count=3 level=1 flavour=2026-02 digest=ab12 ok=1",
            "",
        ] {
            assert_eq!(EntryLine::parse(bad), None, "{bad:?}");
        }
    }
}
