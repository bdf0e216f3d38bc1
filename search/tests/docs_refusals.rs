//! docs/cli.md and the behaviour agree: every refusal the document states for `search` is
//! quoted here and run, and must end in one sentence with a non-zero exit.

mod common;
use common::*;
use std::path::Path;

fn cli_doc() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
    // the document wraps lines; compare with single spaces
    read_text(&path)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn read_text(path: &Path) -> String {
    String::from_utf8(read(path)).expect("utf-8")
}

/// The documented refusals: the phrase of docs/cli.md that states it, the command (split at
/// spaces; `{D}` is the test folder holding a complete scan `whole.json`, a shard part
/// `part.json`, `empty.json` = `{}`, an empty folder `existing` and a link `link` to it), and
/// what stderr must name.
const REFUSALS: &[(&str, &str, &[&str])] = &[
    (
        "`--checkpoint X --out X` is refused",
        "moduli --m 16 --l 3 --checkpoint {D}/x --out {D}/x",
        &["same file"],
    ),
    (
        "and a directory is refused",
        "modulus --m 16 --l 3 --beta canonical --out {D}/existing",
        &["is a directory"],
    ),
    (
        "Refused: a file without a `shard` field",
        "merge {D}/whole.json",
        &["not a shard output"],
    ),
    (
        "a shard given twice",
        "merge {D}/part.json {D}/part.json",
        &["given twice"],
    ),
    ("a missing shard", "merge {D}/part.json", &["missing shard"]),
    (
        "an `--out` that names one of the parts",
        "merge {D}/part.json --out {D}/part.json",
        &["--out"],
    ),
    (
        "a shard part is refused",
        "crt --n 100 --m 16 --moduli {D}/part.json",
        &["shard 0/2"],
    ),
    (
        "(a finite number with 0 < R ≤ 8, default 1)",
        "crt --n 100 --m 16 --max-residue-ratio 0",
        &["--max-residue-ratio"],
    ),
    (
        "(a finite number with 0 < R ≤ 8, default 1)",
        "crt --n 100 --m 16 --max-residue-ratio 8.5",
        &["--max-residue-ratio"],
    ),
    (
        "an empty object `{}` or anything but an object is refused",
        "crt --n 100 --m 16 --cost-table {D}/empty.json",
        &["empty object"],
    ),
    (
        "`--out` naming a `--moduli` or `--cost-table` file is refused",
        "crt --n 100 --m 16 --moduli {D}/whole.json --out {D}/whole.json",
        &["--out"],
    ),
    (
        "`--out` and `--data-out` must be two different files",
        "plot histogram --input {D}/whole.json --data-out {D}/h.svg --out {D}/h.svg",
        &["same file"],
    ),
    (
        "an existing DIR is replaced only with `--force`",
        "export --m 32 --l 10 --beta 0x00103674 --c 3072 --n 17669 --out {D}/existing",
        &["already exists", "--force"],
    ),
    (
        "a symbolic link or a non-folder is refused",
        "export --m 32 --l 10 --beta 0x00103674 --c 3072 --n 17669 --out {D}/link",
        &["symbolic link"],
    ),
    (
        "a symbolic link or a non-folder is refused",
        "export --m 32 --l 10 --beta 0x00103674 --c 3072 --n 17669 --out {D}/whole.json",
        &["not a directory"],
    ),
    (
        "a file that is no such report",
        "export --plan {D}/whole.json --out {D}/e",
        &["is not a `search crt` or joint-search JSON report"],
    ),
    (
        "a directory, FIFO, socket or device is refused at once",
        "slp --matrix /dev/null",
        &["character device"],
    ),
];

#[test]
fn every_documented_refusal_is_refused() {
    let doc = cli_doc();
    let d = tmp_dir("doc-refusals");
    let whole = d.join("whole.json");
    search(&["moduli", "--m", "16", "--l", "3", "--out", p(&whole)]).ok();
    let part = d.join("part.json");
    search(&[
        "moduli",
        "--m",
        "16",
        "--l",
        "3",
        "--shard",
        "0/2",
        "--out",
        p(&part),
    ])
    .ok();
    std::fs::write(d.join("empty.json"), "{}").expect("write");
    std::fs::create_dir(d.join("existing")).expect("mkdir");
    std::os::unix::fs::symlink("existing", d.join("link")).expect("symlink");
    let before = read(&whole);
    for (phrase, command, needles) in REFUSALS {
        assert!(doc.contains(phrase), "docs/cli.md no longer says: {phrase}");
        let command = command.replace("{D}", p(&d));
        let r = search(&command.split(' ').collect::<Vec<_>>());
        assert_error(&r, needles);
        let lines = r.stderr.trim_end().lines().count();
        assert_eq!(lines, 1, "{command}: one sentence: {}", r.stderr);
    }
    assert_eq!(read(&whole), before, "an input was changed");
    assert!(d.join("existing").read_dir().expect("dir").next().is_none());
    let _ = std::fs::remove_dir_all(&d);
}
