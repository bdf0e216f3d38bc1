//! `search export --plan FILE [--rank K]` (docs/cli.md §2.6): the plan's configuration read from
//! the committed `search crt` and joint-search reports, exported byte for byte as the
//! flag-based export of the same configuration; refusals name the problem and write nothing.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn committed(rel: &str) -> String {
    repo().join(rel).display().to_string()
}

/// Run `search ARGS` in `cwd` (so a relative `--out` is recorded as given).
fn search_in(cwd: &Path, args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_search"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("spawn search");
    assert!(
        o.status.success(),
        "search {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).expect("under root").to_path_buf());
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

fn assert_same_folder(a: &Path, b: &Path) {
    let fa = files(a);
    assert_eq!(
        fa,
        files(b),
        "{} and {} list different files",
        a.display(),
        b.display()
    );
    assert!(fa.iter().any(|f| f == Path::new("params.json")));
    for f in &fa {
        assert!(
            read(&a.join(f)) == read(&b.join(f)),
            "{} differs between {} and {}",
            f.display(),
            a.display(),
            b.display()
        );
    }
}

/// Rank 3 of the committed HQC-1 crt report is the published configuration (artifact β and
/// chain, c = 3072): exported from the plan under the committed folder's relative name, it
/// is byte for byte results/export/hqc1-published, the flag-based export committed with the
/// command it records (one export: 20 s on an idle machine, up to 80 s on a busy one, so it runs
/// in the extended suite; `plan_configuration_is_the_flag_configuration` is its cheap twin here).
#[test]
#[ignore = "extended suite: one full export"]
fn crt_plan_exports_the_committed_flag_export() {
    let dir = tmp_dir("plan-crt-rank3");
    search_in(
        &dir,
        &[
            "export",
            "--plan",
            &committed("results/model/crt-17669.json"),
            "--rank",
            "3",
            "--out",
            "results/export/hqc1-published",
        ],
    );
    assert_same_folder(
        &dir.join("results/export/hqc1-published"),
        &repo().join("results/export/hqc1-published"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The plan export and the flag export of the same configuration into the same relative
/// folder name (in two working directories) give identical folders.
fn plan_equals_flags(tag: &str, plan: &[&str], flags: &[&str]) {
    let a = tmp_dir(&format!("{tag}-plan"));
    let b = tmp_dir(&format!("{tag}-flags"));
    let mut pa = vec!["export"];
    pa.extend_from_slice(plan);
    pa.extend_from_slice(&["--out", "e"]);
    search_in(&a, &pa);
    let mut fa = vec!["export"];
    fa.extend_from_slice(flags);
    fa.extend_from_slice(&["--out", "e"]);
    search_in(&b, &fa);
    assert_same_folder(&a.join("e"), &b.join("e"));
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// The joint-search winner and a 2-Karatsuba and a two-moduli plan, each against its flags
/// (six exports, a few minutes: extended suite).
#[test]
#[ignore]
fn joint_split_and_two_moduli_plans_equal_their_flags() {
    let joint = committed("results/joint/hqc1-joint-fullstage.json");
    let crt = committed("results/model/crt-17669.json");
    plan_equals_flags(
        "joint",
        &["--plan", &joint],
        &[
            "--l",
            "10",
            "--beta",
            "0x002a324a",
            "--c",
            "3072",
            "--n",
            "17669",
            "--chain",
            "gamma:0x8f3f6e5d",
        ],
    );
    plan_equals_flags(
        "kara2",
        &["--plan", &crt, "--rank", "9"],
        &[
            "--l",
            "10",
            "--beta",
            "0x00012f9a",
            "--c",
            "0",
            "--n",
            "17669",
            "--split-k",
            "16160",
            "--split-words",
            "48",
        ],
    );
    plan_equals_flags(
        "twomod",
        &["--plan", &crt, "--rank", "8"],
        &[
            "--l",
            "10",
            "--beta",
            "0x0028b51f",
            "--c",
            "0",
            "--n",
            "17669",
            "--second-l",
            "7",
            "--second-beta",
            "0x0001037b",
        ],
    );
}

/// `--rank first-residue-or-single` and the default rank choose without exporting: a rank
/// beyond the plans names how many there are, and nothing is written.
#[test]
fn ranks_out_of_range_name_the_count() {
    let dir = tmp_dir("plan-ranks");
    let out = dir.join("e");
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "results/model/crt-17669.json",
            "11",
            &["--rank 11", "has 10 plans (ranks 1 to 10)"],
        ),
        (
            "results/model/crt-57637.json",
            "10",
            &["has 9 plans (ranks 1 to 9)"],
        ),
        ("results/model/crt-35851-v7.json", "99", &["has 10 plans"]),
        (
            "results/joint/hqc1-joint-fullstage.json",
            "2",
            &["--rank 2", "has 1 plan (rank 1)"],
        ),
    ];
    for (file, rank, needles) in cases {
        let r = search(&[
            "export",
            "--plan",
            &committed(file),
            "--rank",
            rank,
            "--out",
            p(&out),
        ]);
        assert_error(&r, needles);
        assert!(
            !out.exists(),
            "{file} --rank {rank} wrote {}",
            out.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plan the export cannot build (a karatsuba2 plan without its split, a two-moduli plan
/// without its second transform) is refused with its kind and rank; so is a report of
/// another schema, a joint shard part, and a file that is no report.
#[test]
fn unbuildable_plans_and_bad_files_are_refused() {
    let dir = tmp_dir("plan-refusals");
    let out = dir.join("e");
    let text =
        String::from_utf8(read(&repo().join("results/model/crt-17669.json"))).expect("utf-8");
    let report: serde_json::Value = serde_json::from_str(&text).expect("json");
    let write = |name: &str, v: &serde_json::Value| {
        let f = dir.join(name);
        std::fs::write(&f, serde_json::to_vec(v).expect("json")).expect("write");
        f
    };
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = report.clone();
        f(&mut v);
        v
    };
    let no_split = write(
        "no-split.json",
        &edit(&|v| v["plans"][8]["split"] = serde_json::Value::Null),
    );
    let one_transform = write(
        "one-transform.json",
        &edit(&|v| {
            if let Some(t) = v["plans"][7]["transforms"].as_array_mut() {
                t.truncate(1);
            }
        }),
    );
    let schema = write("schema.json", &edit(&|v| v["schema_version"] = 2.into()));
    let bad_beta = write(
        "bad-beta.json",
        &edit(&|v| v["plans"][0]["transforms"][0]["beta"] = "0x12g".into()),
    );
    let run = |f: &Path, rank: &str| {
        search(&["export", "--plan", p(f), "--rank", rank, "--out", p(&out)])
    };
    assert_error(
        &run(&no_split, "9"),
        &["plan rank 9", "karatsuba2 plan", "cannot build", "no split"],
    );
    assert_error(
        &run(&one_transform, "8"),
        &["plan rank 8", "two_moduli plan", "no second transform"],
    );
    assert_error(
        &run(&schema, "1"),
        &["schema_version 2", "schema_version 4"],
    );
    assert_error(&run(&bad_beta, "1"), &["plan rank 1", "0x12g"]);
    let mut shard: serde_json::Value = serde_json::from_slice(&read(
        &repo().join("results/joint/hqc1-joint-fullstage.json"),
    ))
    .expect("json");
    shard["shard"] = serde_json::json!({"index": 0, "count": 2});
    let shard = write("shard.json", &shard);
    let r = run(&shard, "1");
    assert_error(&r, &["shard part", "search merge"]);
    let not_report = write("not-report.json", &serde_json::json!({"plans": 3}));
    assert_error(
        &run(&not_report, "1"),
        &["is not a `search crt` or joint-search JSON report"],
    );
    assert_error(&run(&dir, "1"), &["is a directory"]);
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--plan` or `--rank` with any configuration flag, and `--rank` without `--plan`, are
/// usage errors (exit 2); `--rank` takes a positive number or `first-residue-or-single`.
#[test]
fn plan_and_configuration_flags_conflict() {
    let plan = committed("results/model/crt-17669.json");
    let dir = tmp_dir("plan-usage");
    let out = dir.join("e");
    for (flag, value) in [
        ("--m", "32"),
        ("--l", "10"),
        ("--beta", "0x0028b51f"),
        ("--c", "3072"),
        ("--n", "17669"),
        ("--chain", "default"),
        ("--split-k", "16160"),
        ("--split-words", "48"),
        ("--second-l", "7"),
        ("--second-beta", "0x0001037b"),
    ] {
        for sel in [["--plan", plan.as_str()], ["--rank", "2"]] {
            let r = search(&["export", sel[0], sel[1], flag, value, "--out", p(&out)]);
            assert_eq!(r.code, Some(2), "{} with {flag}: {}", sel[0], r.stderr);
            assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
        }
    }
    let r = search(&["export", "--rank", "2", "--out", p(&out)]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    for bad in ["0", "first", "x", "1.5"] {
        let r = search(&["export", "--plan", &plan, "--rank", bad, "--out", p(&out)]);
        assert_eq!(r.code, Some(2), "--rank {bad}: {}", r.stderr);
        assert!(r.stderr.contains("first-residue-or-single"), "{}", r.stderr);
    }
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The plan chosen for each committed report, by the library (no export): the flags a
/// user would have copied by hand.
#[test]
fn chosen_configurations_of_the_committed_reports() {
    use search::plan_export::{choose, Rank};
    let c = |file: &str, rank: Rank| {
        let ch = choose(&repo().join(file), rank).unwrap_or_else(|e| panic!("{file}: {e}"));
        let cfg = ch.config;
        (
            ch.rank,
            cfg.l,
            format!("{:#010x}", cfg.beta),
            cfg.chain.name(),
            cfg.c,
            cfg.n,
            cfg.split.map(|s| (s.k, s.residual_words)),
            cfg.second.map(|s| (s.l, s.beta)),
        )
    };
    let first = Rank::FirstResidueOrSingle;
    let crt1 = "results/model/crt-17669.json";
    assert_eq!(
        c(crt1, Rank::Number(1)),
        (
            1,
            10,
            "0x0028b4f3".into(),
            "default".into(),
            3072,
            17669,
            None,
            None
        )
    );
    assert_eq!(c(crt1, first), c(crt1, Rank::Number(1)));
    assert_eq!(
        c(crt1, Rank::Number(9)),
        (
            9,
            10,
            "0x00012f9a".into(),
            "default".into(),
            0,
            17669,
            Some((16160, 48)),
            None
        )
    );
    assert_eq!(
        c(crt1, Rank::Number(8)),
        (
            8,
            10,
            "0x0028b51f".into(),
            "default".into(),
            0,
            17669,
            None,
            Some((7, 0x0001_037b))
        )
    );
    assert_eq!(
        c("results/model/crt-57637.json", first),
        (
            1,
            12,
            "0x00012f9a".into(),
            "default".into(),
            0,
            57637,
            None,
            None
        )
    );
    assert_eq!(
        c("results/model/crt-35851-v7.json", first),
        (
            1,
            11,
            "0x00112c53".into(),
            "default".into(),
            6912,
            35851,
            None,
            None
        )
    );
    assert_eq!(
        c("results/joint/hqc1-joint-fullstage.json", Rank::Number(1)),
        (
            1,
            10,
            "0x002a324a".into(),
            "gamma:0x8f3f6e5d".into(),
            3072,
            17669,
            None,
            None
        )
    );
}

/// Without exporting: the configuration chosen from the plan is the one the flags give
/// (`ExportArgs::config`), and the command it records is the committed folder's (the cheap
/// twin of `crt_plan_exports_the_committed_flag_export`).
#[test]
fn plan_configuration_is_the_flag_configuration() {
    use search::export::{command_of, ExportArgs};
    use search::plan_export::{choose, Rank};
    let chosen = choose(
        &repo().join("results/model/crt-17669.json"),
        Rank::Number(3),
    )
    .expect("rank 3")
    .config;
    let flags = ExportArgs {
        m: 32,
        l: Some(10),
        beta: Some("0x00103674".into()),
        c: 3072,
        n: Some(17_669),
        plan: None,
        rank: None,
        out: "results/export/hqc1-published".into(),
        chain: "artifact".into(),
        force: false,
        layout: "project".into(),
        split_k: None,
        split_words: None,
        second_l: None,
        second_beta: None,
        seeds: 1,
        moves: fafft_config::routines::emit_options().budget.polish as u64,
        quick: false,
    };
    assert_eq!(chosen, flags.config().expect("flags"));
    let params: serde_json::Value = serde_json::from_slice(&read(
        &repo().join("results/export/hqc1-published/params.json"),
    ))
    .expect("json");
    assert_eq!(
        params["command"].as_str(),
        Some(command_of(&chosen, Path::new("results/export/hqc1-published")).as_str())
    );
}
