//! docs/cli.md and the behaviour agree: every refusal the document states for `search` is
//! quoted here and run, and must end in one sentence with a non-zero exit.

mod common;
use common::*;
use std::path::Path;

fn cli_doc() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
    // the document wraps lines; compare with single spaces
    read_text(&path).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn read_text(path: &Path) -> String {
    String::from_utf8(read(path)).expect("utf-8")
}

/// One documented refusal: the sentence of docs/cli.md, the command, what stderr must name.
struct Refusal<'a> {
    doc: &'a str,
    args: Vec<String>,
    needles: &'a [&'a str],
}

fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_documented_refusal_is_refused() {
    let doc = cli_doc();
    let d = tmp_dir("doc-refusals");
    let ps = |f: &str| d.join(f).to_str().expect("utf-8").to_string();
    let whole = ps("whole.json");
    search(&["moduli", "--m", "16", "--l", "3", "--out", &whole]).ok();
    let part = ps("part.json");
    search(&[
        "moduli", "--m", "16", "--l", "3", "--shard", "0/2", "--out", &part,
    ])
    .ok();
    std::fs::write(d.join("empty.json"), "{}").expect("write");
    std::fs::create_dir(d.join("existing")).expect("mkdir");
    std::os::unix::fs::symlink("existing", d.join("link")).expect("symlink");
    let export = |out: &str| {
        args(&[
            "export", "--m", "32", "--l", "10", "--beta", "0x00103674", "--c", "3072", "--n",
            "17669", "--chain", "artifact", "--out", out,
        ])
    };
    let crt = |extra: &[&str]| {
        let mut a = args(&["crt", "--n", "100", "--m", "16"]);
        a.extend(args(extra));
        a
    };
    let cases = vec![
        Refusal {
            doc: "`--checkpoint X --out X` is refused",
            args: args(&[
                "moduli", "--m", "16", "--l", "3", "--checkpoint", &ps("x"), "--out", &ps("x"),
            ]),
            needles: &["same file"],
        },
        Refusal {
            doc: "and a directory is refused",
            args: args(&["modulus", "--m", "16", "--l", "3", "--beta", "canonical", "--out", &ps("existing")]),
            needles: &["is a directory"],
        },
        Refusal {
            doc: "Refused: a file without a `shard` field",
            args: args(&["merge", &whole]),
            needles: &["not a shard output"],
        },
        Refusal {
            doc: "a shard given twice",
            args: args(&["merge", &part, &part]),
            needles: &["given twice"],
        },
        Refusal {
            doc: "a missing shard",
            args: args(&["merge", &part]),
            needles: &["missing shard"],
        },
        Refusal {
            doc: "an `--out` that names one of the parts",
            args: args(&["merge", &part, "--out", &part]),
            needles: &["--out"],
        },
        Refusal {
            doc: "a shard part is refused",
            args: crt(&["--moduli", &part]),
            needles: &["shard 0/2"],
        },
        Refusal {
            doc: "(a finite number with 0 < R ≤ 8, default 1)",
            args: crt(&["--max-residue-ratio", "0"]),
            needles: &["--max-residue-ratio"],
        },
        Refusal {
            doc: "(a finite number with 0 < R ≤ 8, default 1)",
            args: crt(&["--max-residue-ratio", "8.5"]),
            needles: &["--max-residue-ratio"],
        },
        Refusal {
            doc: "an empty object `{}` or anything but an object is refused",
            args: crt(&["--cost-table", &ps("empty.json")]),
            needles: &["empty object"],
        },
        Refusal {
            doc: "`--out` naming a `--moduli` or `--cost-table` file is refused",
            args: crt(&["--moduli", &whole, "--out", &whole]),
            needles: &["--out"],
        },
        Refusal {
            doc: "`--out` and `--data-out` must be two different files",
            args: args(&[
                "plot", "histogram", "--input", &whole, "--data-out", &ps("h.svg"), "--out",
                &ps("h.svg"),
            ]),
            needles: &["same file"],
        },
        Refusal {
            doc: "an existing DIR is replaced only with `--force`",
            args: export(&ps("existing")),
            needles: &["already exists", "--force"],
        },
        Refusal {
            doc: "a symbolic link or a non-folder is refused",
            args: export(&ps("link")),
            needles: &["symbolic link"],
        },
        Refusal {
            doc: "a symbolic link or a non-folder is refused",
            args: export(&whole),
            needles: &["not a directory"],
        },
        Refusal {
            doc: "a directory, FIFO, socket or device is refused at once",
            args: args(&["slp", "--matrix", "/dev/null"]),
            needles: &["character device"],
        },
    ];
    let before = read(Path::new(&whole));
    for c in cases {
        assert!(doc.contains(c.doc), "docs/cli.md no longer says: {}", c.doc);
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let r = search(&a);
        assert_error(&r, c.needles);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "one sentence: {}", r.stderr);
    }
    assert_eq!(read(Path::new(&whole)), before, "an input was changed");
    assert!(d.join("existing").read_dir().expect("dir").next().is_none());
    let _ = std::fs::remove_dir_all(&d);
}
