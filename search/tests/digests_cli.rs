//! Digests of the files the tools write and read back (docs/cli.md §4): every reader of a crt
//! report refuses an edited one (naming the field where it can be recomputed, else the
//! digest), a report whose digest was removed, and reads a legacy report (schema_version 3,
//! written before reports carried a digest) with a note; merge refuses an edited joint-search
//! shard part; warnings on a full standard error do not panic.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One fresh `search crt --n 20 --m 8 --json --out FILE` report, shared by the tests.
fn fresh_report() -> &'static Path {
    static REPORT: OnceLock<PathBuf> = OnceLock::new();
    REPORT.get_or_init(|| {
        let d = tmp_dir("digests-crt");
        let f = d.join("crt.json");
        search(&["crt", "--n", "20", "--m", "8", "--json", "--out", p(&f)]).ok();
        f
    })
}

fn load(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&read(path)).expect("json")
}

fn save(path: &Path, v: &serde_json::Value) {
    std::fs::write(path, serde_json::to_vec_pretty(v).expect("json")).expect("write");
}

/// `export --plan F --rank 99` (refused by the rank once the report is read: nothing is built)
/// and `plot breakdown --input F`.
fn readers(f: &Path, d: &Path) -> (Run, Run) {
    let out = d.join("e");
    let svg = d.join("b.svg");
    (
        search(&["export", "--plan", p(f), "--rank", "99", "--out", p(&out)]),
        search(&["plot", "breakdown", "--input", p(f), "--out", p(&svg)]),
    )
}

#[test]
fn a_crt_report_carries_a_digest_that_every_reader_checks() {
    let f = fresh_report();
    let v = load(f);
    assert_eq!(v["schema_version"], 4);
    assert!(v["digest"].as_str().is_some_and(|s| s.len() == 64), "{v}");
    let d = tmp_dir("digests-readers");
    // the report as written is read (the rank is refused, not the file), without a note
    let (export, plot) = readers(f, &d);
    assert_error(&export, &["--rank 99", "has 3 plans"]);
    assert!(!export.stderr.contains("note:"), "{}", export.stderr);
    let plot = plot.ok();
    assert!(plot.stderr.is_empty(), "{}", plot.stderr);
    // a field no reader can recompute: the digest names the edit
    let edited = d.join("summary.json");
    let mut e = v.clone();
    e["summary"] = "the best plan of all".into();
    save(&edited, &e);
    let (export, plot) = readers(&edited, &d);
    for r in [&export, &plot] {
        assert_error(
            r,
            &["summary.json is inconsistent", "`digest` does not match"],
        );
    }
    let r = search(&["calibrate", "--json", "--crt", p(&edited)]);
    assert_error(
        &r,
        &["summary.json is inconsistent", "`digest` does not match"],
    );
    // a removed digest is refused: nothing vouches for the content
    let mut e = v.clone();
    e.as_object_mut().expect("object").remove("digest");
    let removed = d.join("removed.json");
    save(&removed, &e);
    let (export, plot) = readers(&removed, &d);
    for r in [&export, &plot] {
        assert_error(r, &["removed.json is inconsistent", "has no `digest`"]);
    }
    // ... also when the schema is lowered to the legacy one while the digest stays
    let mut e = v.clone();
    e["schema_version"] = 3.into();
    let lowered = d.join("lowered.json");
    save(&lowered, &e);
    let (export, plot) = readers(&lowered, &d);
    for r in [&export, &plot] {
        assert_error(r, &["lowered.json is inconsistent", "carries a `digest`"]);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_edited_recomputable_field_of_a_crt_report_is_named() {
    let v = load(fresh_report());
    let d = tmp_dir("digests-fields");
    let out = d.join("e");
    // the preferred plan made cheaper: both readers name the total
    let mut e = v.clone();
    e["plans"][0]["cost"]["total_cycles"] = 1.0.into();
    let total = d.join("total.json");
    save(&total, &e);
    let (export, plot) = readers(&total, &d);
    for r in [&export, &plot] {
        assert_error(
            r,
            &["total.json is inconsistent", "plan 1: `cost.total_cycles`"],
        );
    }
    // a lighter modulus claimed for the exported plan: export recomputes it from β
    let mut e = v.clone();
    let w = e["plans"][0]["transforms"][0]["weight"]
        .as_u64()
        .expect("weight");
    e["plans"][0]["transforms"][0]["weight"] = (w - 2).into();
    let weight = d.join("weight.json");
    save(&weight, &e);
    let r = search(&["export", "--plan", p(&weight), "--out", p(&out)]);
    assert_error(
        &r,
        &[
            "weight.json is inconsistent",
            "plan rank 1: `transforms[0].weight`",
        ],
    );
    assert!(!out.exists());
    // a rank the plans do not have
    let mut e = v.clone();
    e["best_two_moduli_rank"] = 1.into();
    let rank = d.join("rank.json");
    save(&rank, &e);
    let (export, plot) = readers(&rank, &d);
    for r in [&export, &plot] {
        assert_error(
            r,
            &["rank.json is inconsistent", "`best_two_moduli_rank` 1"],
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_legacy_crt_report_is_read_with_a_note() {
    let legacy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/model/crt-17669.json");
    let d = tmp_dir("digests-legacy");
    let (export, plot) = readers(&legacy, &d);
    assert_error(&export, &["--rank 99", "has 10 plans"]);
    let plot = plot.ok();
    for r in [&export.stderr, &plot.stderr] {
        assert!(
            r.starts_with("note: ")
                && r.contains("crt-17669.json is a schema_version 3 crt report")
                && r.contains("only its recomputable fields vouch for it"),
            "{r}"
        );
    }
    assert!(
        export
            .stderr
            .contains("the exported plan's modulus recomputed from its β"),
        "{}",
        export.stderr
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A joint search over 3 orbits (of V_17) x 2 conjugates x 2^3 offsets (48 configurations,
/// screen only).
fn joint(extra: &[&str]) -> Run {
    let mut a = vec![
        "moduli",
        "--m",
        "32",
        "--l",
        "10",
        "--within",
        "17",
        "--objective",
        "product",
        "--orbits",
        "3",
        "--conjugates",
        "2",
        "--offset-bits",
        "3",
        "--top",
        "5",
        "--optimise",
        "0",
    ];
    a.extend_from_slice(extra);
    search(&a)
}

/// What an edit does, the edit, and what the refusal names.
type Case = (
    &'static str,
    fn(&mut serde_json::Value),
    &'static [&'static str],
);

#[test]
fn merge_refuses_an_edited_joint_shard_part() {
    let d = tmp_dir("digests-joint");
    let parts: Vec<PathBuf> = (0..2).map(|i| d.join(format!("part{i}.json"))).collect();
    for (i, f) in parts.iter().enumerate() {
        joint(&["--shard", &format!("{i}/2"), "--out", p(f)]).ok();
    }
    let v = load(&parts[0]);
    assert!(v["digest"].as_str().is_some_and(|s| s.len() == 64), "{v}");
    let merged = d.join("merged.json");
    // (the parts as written merge: tests/joint.rs)
    let merge = |part: &Path| search(&["merge", p(part), p(&parts[1]), "--out", p(&merged)]);
    let edited = d.join("edited.json");
    let cases: &[Case] = &[
        (
            "a count no reader recomputes",
            |v| v["space"]["matrices_counted"] = 1.into(),
            &["edited.json is inconsistent", "`digest` does not match"],
        ),
        (
            "the best configuration dropped from the list",
            |v| {
                v["screen_top"].as_array_mut().expect("top").remove(0);
            },
            &["`screen_top` does not start with the best configuration"],
        ),
        (
            "a screened count",
            |v| v["space"]["screened"] = 1.into(),
            &["`space.screened` is 1, but shard 0/2 screens 24"],
        ),
        (
            "the digest removed",
            |v| {
                v.as_object_mut().expect("object").remove("digest");
            },
            &["edited.json is inconsistent", "has no `digest`"],
        ),
    ];
    for (what, edit, needles) in cases {
        let mut e = v.clone();
        edit(&mut e);
        save(&edited, &e);
        let r = merge(&edited);
        assert_eq!(r.code, Some(1), "{what}: {}", r.stderr);
        assert_error(&r, needles);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_resumed_joint_search_refuses_an_edited_checkpoint() {
    let d = tmp_dir("digests-joint-ck");
    let ck = d.join("ck.json");
    let out = d.join("out.json");
    let r = joint(&[
        "--checkpoint",
        p(&ck),
        "--stop-after-chunks",
        "2",
        "--out",
        p(&out),
    ]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    let v = load(&ck);
    assert_eq!(v["checkpoint_version"], 2);
    let resume = || joint(&["--checkpoint", p(&ck), "--out", p(&out)]);
    let mut e = v.clone();
    e["acc"]["matrices"] = 1.into();
    save(&ck, &e);
    assert_error(&resume(), &["ck.json", "`digest` does not match"]);
    let mut e = v.clone();
    e["acc"]["top"].as_array_mut().expect("top").remove(0);
    save(&ck, &e);
    assert_error(
        &resume(),
        &["`acc.top` does not start with the best configuration"],
    );
    // a checkpoint of version 1 (no digest) is resumed, with a note
    let mut e = v.clone();
    e["checkpoint_version"] = 1.into();
    e.as_object_mut().expect("object").remove("digest");
    save(&ck, &e);
    let r = resume().ok();
    assert!(
        r.stderr
            .contains("is a joint-search checkpoint of version 1")
            && r.stderr
                .contains("only its recomputable fields vouch for it"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// docs/cli.md states the rules these tests check.
#[test]
fn the_digest_rules_are_documented() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
    let doc = String::from_utf8(read(&path)).expect("utf-8");
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    for phrase in [
        "checkpoints, shard parts (of the weight scan and of the joint search) and crt reports carry a `digest`, and so do whole scans",
        "a file without `digest` is read with a note",
        "and so is a file whose digest was removed",
        "a crt report of `schema_version` 3 without `digest`",
        "a joint-search checkpoint of `checkpoint_version` 1",
        "A file of the current version without a digest, or a legacy-version file with one, is refused",
        "the chosen plan's modulus is recomputed from its β",
        "a write to stderr that fails (`2>/dev/full`, a closed stderr) is ignored",
    ] {
        assert!(doc.contains(phrase), "docs/cli.md no longer says: {phrase}");
    }
}

/// A whole scan carries a digest: `crt --moduli` and `plot histogram --input` refuse an edited
/// one, and read a file without digest (another tool's) with a note.
#[test]
fn scans_carry_a_digest_and_their_readers_check_it() {
    let d = tmp_dir("scan-digest");
    let scan = d.join("scan.json");
    search(&["moduli", "--m", "16", "--l", "3", "--out", p(&scan)]).ok();
    let text = String::from_utf8(read(&scan)).expect("utf-8");
    assert!(text.contains("\"digest\""), "{text}");
    let crt = |f: &Path| search(&["crt", "--n", "100", "--m", "16", "--moduli", p(f)]);
    let hist = |f: &Path| {
        search(&[
            "plot",
            "histogram",
            "--input",
            p(f),
            "--out",
            p(&d.join("h.svg")),
        ])
    };
    // the scan as written: read without a note
    for r in [crt(&scan).ok(), hist(&scan).ok()] {
        assert!(!r.stderr.contains("note:"), "{}", r.stderr);
    }
    // an edit the recomputable checks do not see (the tool version): the digest does
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["tool_version"] = "9.9.9".into();
    let edited = d.join("edited.json");
    std::fs::write(&edited, serde_json::to_string_pretty(&v).expect("json")).expect("write");
    for r in [crt(&edited), hist(&edited)] {
        assert_error(&r, &["edited.json", "`digest` does not match"]);
    }
    // without a digest: read, with the note
    v.as_object_mut().expect("object").remove("digest");
    v["tool_version"] =
        serde_json::from_str::<serde_json::Value>(&text).expect("json")["tool_version"].clone();
    let bare = d.join("bare.json");
    std::fs::write(&bare, serde_json::to_string_pretty(&v).expect("json")).expect("write");
    for r in [crt(&bare).ok(), hist(&bare).ok()] {
        assert!(r.stderr.contains("has no `digest`"), "{}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&d);
}
