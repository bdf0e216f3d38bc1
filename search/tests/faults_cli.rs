//! Faults a new user hit, one test each: special files and symlinks as
//! `--out`, partial inputs, non-finite ratios, huge numbers, checkpoints, late failures, merge of
//! an inconsistent part, one vocabulary (`--json`, `--out`, one β parser).

mod common;
use common::*;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run `search ARGS`, killing it after `secs` seconds (then `None`).
fn search_within(args: &[&str], secs: u64) -> Option<Run> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_search"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn search");
    let t0 = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            let o = child.wait_with_output().expect("output");
            return Some(Run {
                code: o.status.code(),
                stdout: o.stdout,
                stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            });
        }
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn no_panic(r: &Run) {
    assert!(!r.stderr.contains("panicked"), "panic: {}", r.stderr);
}

fn small_moduli(extra: &[&str]) -> Run {
    let mut a = vec!["moduli", "--m", "16", "--l", "3", "--top", "4"];
    a.extend_from_slice(extra);
    search(&a)
}

fn leftovers(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .expect("read dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Special files and symlinks.

#[test]
fn out_through_a_symlink_writes_its_target() {
    let d = tmp_dir("symlink-out");
    let plot_in = d.join("hist-in.json");
    small_moduli(&["--out", p(&plot_in)]).ok();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["modulus", "--m", "16", "--l", "3", "--beta", "canonical"]
                .into_iter()
                .map(String::from)
                .collect(),
            "json",
        ),
        (
            vec!["moduli", "--m", "16", "--l", "3", "--top", "2"]
                .into_iter()
                .map(String::from)
                .collect(),
            "json",
        ),
        (
            vec!["crt", "--n", "100", "--m", "16"]
                .into_iter()
                .map(String::from)
                .collect(),
            "json",
        ),
        (
            vec![
                "plot".to_string(),
                "histogram".to_string(),
                "--input".to_string(),
                p(&plot_in).to_string(),
            ],
            "svg",
        ),
        (
            vec![
                "plot".to_string(),
                "histogram".to_string(),
                "--input".to_string(),
                p(&plot_in).to_string(),
            ],
            "png",
        ),
    ];
    for (i, (args, ext)) in cases.iter().enumerate() {
        let target = d.join(format!("target{i}.{ext}"));
        std::fs::write(&target, b"old").expect("seed");
        let link = d.join(format!("link{i}.{ext}"));
        std::os::unix::fs::symlink(target.file_name().expect("name"), &link).expect("symlink");
        let mut a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        a.extend_from_slice(&["--out", p(&link)]);
        search(&a).ok();
        let lt = std::fs::symlink_metadata(&link).expect("lstat").file_type();
        assert!(
            lt.is_symlink(),
            "{args:?}: --out replaced the symlink itself"
        );
        assert_ne!(
            read(&target),
            b"old",
            "{args:?}: the link's target was not written"
        );
    }
    assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn out_to_a_fifo_writes_through() {
    let d = tmp_dir("fifo-out");
    let f = d.join("pipe");
    let made = Command::new("mkfifo")
        .arg(&f)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !made {
        eprintln!("mkfifo not available; skipped");
        return;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let g = f.clone();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read(&g));
    });
    let r = search(&[
        "modulus",
        "--m",
        "16",
        "--l",
        "3",
        "--beta",
        "canonical",
        "--json",
        "--out",
        p(&f),
    ]);
    let kind = std::fs::symlink_metadata(&f).expect("lstat").file_type();
    assert!(kind.is_fifo(), "--out replaced the FIFO by a regular file");
    let r = r.ok();
    let got = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the reader got EOF")
        .expect("read FIFO");
    assert_eq!(got, r.stdout, "the FIFO received the same bytes as stdout");
    assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn out_to_dev_null_keeps_the_device() {
    let null = Path::new("/dev/null");
    let is_dev = || {
        std::fs::symlink_metadata(null)
            .map(|m| m.file_type().is_char_device())
            .unwrap_or(false)
    };
    if !is_dev() {
        return;
    }
    for args in [
        &["modulus", "--m", "16", "--l", "3", "--beta", "canonical"][..],
        &["moduli", "--m", "16", "--l", "3", "--top", "2"][..],
        &["crt", "--n", "100", "--m", "16"][..],
    ] {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--out", "/dev/null"]);
        search(&a).ok();
        assert!(is_dev(), "{args:?} --out /dev/null replaced the device");
    }
}

#[test]
fn out_to_a_directory_is_refused() {
    let d = tmp_dir("dir-out");
    for args in [
        &["modulus", "--m", "16", "--l", "3", "--beta", "canonical"][..],
        &["crt", "--n", "100", "--m", "16"][..],
    ] {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--out", p(&d)]);
        assert_error(&search(&a), &["cannot write", "is a directory"]);
        assert!(d.is_dir());
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// Partial inputs.

#[test]
fn crt_refuses_a_shard_part_and_labels_partial_moduli() {
    let d = tmp_dir("partial");
    let part = d.join("part.json");
    small_moduli(&["--shard", "1/3", "--out", p(&part)]).ok();
    let r = search(&["crt", "--n", "100", "--m", "16", "--moduli", p(&part)]);
    assert_error(&r, &["part.json", "shard 1/3", "search merge"]);

    let within = d.join("within.json");
    small_moduli(&["--within", "10", "--out", p(&within)]).ok();
    let r = search(&[
        "crt",
        "--n",
        "100",
        "--m",
        "16",
        "--json",
        "--moduli",
        p(&within),
    ])
    .ok();
    let v = r.json();
    let src = v["moduli"]
        .as_array()
        .expect("moduli")
        .iter()
        .find(|x| x["l"] == 3)
        .and_then(|x| x["source"].as_str())
        .expect("l = 3 from the file")
        .to_string();
    assert!(src.contains("restricted to beta in V_10"), "{src}");

    let sparse = d.join("sparse.json");
    small_moduli(&["--max-poly-weight", "5", "--out", p(&sparse)]).ok();
    let r = search(&[
        "crt",
        "--n",
        "100",
        "--m",
        "16",
        "--json",
        "--moduli",
        p(&sparse),
    ])
    .ok();
    let v = r.json();
    let src = v["moduli"]
        .as_array()
        .expect("moduli")
        .iter()
        .find(|x| x["l"] == 3)
        .and_then(|x| x["source"].as_str())
        .expect("l = 3 from the file")
        .to_string();
    assert!(src.contains("sparse-P search"), "{src}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn histogram_titles_say_what_was_covered() {
    let d = tmp_dir("titles");
    let whole = d.join("whole.json");
    small_moduli(&["--out", p(&whole)]).ok();
    let part = d.join("part.json");
    small_moduli(&["--shard", "0/2", "--out", p(&part)]).ok();
    let within = d.join("within.json");
    small_moduli(&["--within", "10", "--out", p(&within)]).ok();
    let sparse = d.join("sparse.json");
    small_moduli(&["--max-poly-weight", "5", "--out", p(&sparse)]).ok();
    let title = |input: &Path| -> String {
        let out = d.join("h.svg");
        search(&["plot", "histogram", "--input", p(input), "--out", p(&out)]).ok();
        String::from_utf8_lossy(&read(&out)).into_owned()
    };
    assert!(title(&whole).contains("over all 496 admissible"));
    for (f, needle) in [
        (&part, "shard 0/2"),
        (&within, "restricted to beta in V_10"),
        (&sparse, "sparse-P search"),
    ] {
        let t = title(f);
        assert!(!t.contains("over all"), "{needle}: title claims all orbits");
        assert!(t.contains(needle), "{needle} missing from the title");
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// Non-finite ratios and huge numbers.

#[test]
fn residue_ratio_must_be_finite_and_positive() {
    for bad in ["inf", "NaN", "-1", "0", "1e300"] {
        let arg = format!("--max-residue-ratio={bad}");
        let r = search_within(&["crt", "--n", "100", "--m", "16", &arg], 60)
            .unwrap_or_else(|| panic!("--max-residue-ratio {bad} ran for a minute"));
        assert_error(&r, &["--max-residue-ratio", "finite", "0 < RATIO"]);
    }
    search(&["crt", "--n", "100", "--m", "16", "--max-residue-ratio", "2"]).ok();
}

#[test]
fn huge_numbers_are_refused_at_the_edge() {
    let d = tmp_dir("huge");
    let out = d.join("c.svg");
    for args in [
        &[
            "plot",
            "cost",
            "--n",
            "17669",
            "--c",
            "18446744073709551615",
        ][..],
        &["plot", "cost", "--n", "18446744073709551615"][..],
        &["plot", "cost", "--n", "1000", "--m", "4294967295"][..],
        &["plot", "cost", "--n", "1000", "--m", "16", "--l", "99"][..],
    ] {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--out", p(&out)]);
        let r = search(&a);
        no_panic(&r);
        assert_ne!(r.code, Some(0), "{args:?} was accepted");
        assert!(!out.exists(), "{args:?} wrote a plot");
    }
    for n in ["18446744073709551615", "9223372036854775808", "0"] {
        let r = search(&["crt", "--n", n]);
        assert_error(&r, &["bad n"]);
    }
    let h = d.join("h.json");
    std::fs::write(&h, r#"{"m": 16, "l": 200, "histogram": {"13": 1}}"#).expect("write");
    let r = search(&["plot", "histogram", "--input", p(&h), "--out", p(&out)]);
    assert_error(&r, &["l = 200"]);
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// Checkpoints.

#[test]
fn checkpoint_and_out_must_differ() {
    let d = tmp_dir("ck-out");
    let ck = d.join("ck.json");
    let r = small_moduli(&["--checkpoint", p(&ck), "--stop-after-chunks", "2"]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    let saved = read(&ck);
    std::fs::create_dir(d.join("sub")).expect("sub");
    std::os::unix::fs::symlink("ck.json", d.join("alias.json")).expect("symlink");
    for out in [ck.clone(), d.join("sub/../ck.json"), d.join("alias.json")] {
        let r = small_moduli(&["--checkpoint", p(&ck), "--out", p(&out)]);
        assert_error(&r, &["same file", "checkpoint"]);
        assert_eq!(read(&ck), saved, "the checkpoint was touched");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn resumed_run_says_how_far_it_got_and_stale_temps_go() {
    let d = tmp_dir("resume");
    let ck = d.join("ck.json");
    let r = search(&[
        "moduli",
        "--m",
        "32",
        "--l",
        "12",
        "--within",
        "19",
        "--top",
        "4",
        "--threads",
        "1",
        "--checkpoint",
        p(&ck),
        "--stop-after-chunks",
        "5",
    ]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    // what a run killed while saving leaves behind (no process has this id)
    let stale = d.join(".ck.json.tmp-99999999");
    std::fs::write(&stale, b"{\"half").expect("stale");
    let r = search(&[
        "moduli",
        "--m",
        "32",
        "--l",
        "12",
        "--within",
        "19",
        "--top",
        "4",
        "--threads",
        "1",
        "--checkpoint",
        p(&ck),
    ])
    .ok();
    assert!(
        r.stderr.contains("resuming from checkpoint") && r.stderr.contains(" 5 of "),
        "{}",
        r.stderr
    );
    assert!(!stale.exists(), "stale temporary checkpoint left behind");
    assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
#[ignore = "a full HQC-1 export (about 100 s on a shared 2-core machine); extended suite. The removal \
            itself is tested in the default suite by fafft_config::output's \
            stale_temporary_files_of_dead_runs_are_removed"]
fn export_removes_staging_folders_of_killed_exports() {
    let d = tmp_dir("export-stale");
    let out = d.join("exp");
    // what an export killed while writing leaves behind (no process has this id)
    let stale = d.join(".exp.tmp-99999999");
    std::fs::create_dir_all(&stale).expect("stale dir");
    std::fs::write(stale.join("params.json"), b"{\"half").expect("stale file");
    let r = search(&[
        "export",
        "--m",
        "32",
        "--l",
        "10",
        "--beta",
        "0x00103674",
        "--c",
        "3072",
        "--n",
        "17669",
        "--chain",
        "artifact",
        "--out",
        p(&out),
    ])
    .ok();
    assert!(out.join("params.json").is_file(), "{}", r.stderr);
    assert!(!stale.exists(), "stale staging folder left behind");
    assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// Late failures and error text.

#[test]
fn unwritable_out_is_found_before_the_work() {
    let d = tmp_dir("late");
    let file = d.join("plain");
    std::fs::write(&file, b"x").expect("file");
    // a path below a regular file can never be created
    let bad_json = file.join("out.json");
    let bad_svg = file.join("out.svg");
    // crt: the output is checked before the arguments are even planned
    let r = search(&["crt", "--n", "1", "--out", p(&bad_json)]);
    assert_error(&r, &["cannot write", "out.json"]);
    // plot: no data written, no scan run, when the plot cannot be written
    let data = d.join("data.json");
    let r = search(&[
        "plot",
        "histogram",
        "--m",
        "16",
        "--l",
        "3",
        "--data-out",
        p(&data),
        "--out",
        p(&bad_svg),
    ]);
    assert_error(&r, &["cannot write", "out.svg"]);
    assert!(
        !data.exists(),
        "the data was computed and written before the failure"
    );
    assert!(!r.stderr.contains("Error("), "Debug dump: {}", r.stderr);
    // merge
    let part = d.join("p.json");
    small_moduli(&["--shard", "0/1", "--out", p(&part)]).ok();
    let r = search(&["merge", p(&part), "--out", p(&bad_json)]);
    assert_error(&r, &["cannot write"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn errors_are_printed_once() {
    let r = search(&["modulus", "--m", "32", "--l", "10", "--beta", "0x92f9c989"]);
    assert_error(&r, &["not admissible", "outside V_22"]);
    assert_eq!(r.stderr.matches("outside V_22").count(), 1, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    let d = tmp_dir("once");
    let r = search(&[
        "crt",
        "--n",
        "100",
        "--m",
        "16",
        "--out",
        p(&d.join("no/such/x.json")),
    ]);
    assert_error(&r, &["cannot write"]);
    assert_eq!(
        r.stderr.matches("No such file or directory").count(),
        1,
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// merge.

#[test]
fn merge_refuses_a_part_whose_histogram_does_not_add_up() {
    let d = tmp_dir("merge-hist");
    let a = d.join("a.json");
    let b = d.join("b.json");
    small_moduli(&["--shard", "0/2", "--out", p(&a)]).ok();
    small_moduli(&["--shard", "1/2", "--out", p(&b)]).ok();
    let mut v: serde_json::Value = serde_json::from_slice(&read(&b)).expect("json");
    let hist = v["histogram"].as_object_mut().expect("histogram");
    let (k, c) = hist
        .iter()
        .next()
        .map(|(k, c)| (k.clone(), c.as_u64().expect("count")))
        .expect("a bin");
    hist.insert(k, serde_json::json!(c + 1));
    std::fs::write(&b, serde_json::to_vec_pretty(&v).expect("json")).expect("write");
    let out = d.join("m.json");
    let r = search(&["merge", p(&a), p(&b), "--out", p(&out)]);
    assert_error(&r, &["b.json", "histogram"]);
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// One vocabulary.

#[test]
fn json_on_stdout_and_out_are_the_same_bytes() {
    let d = tmp_dir("vocab");
    let f = d.join("m.json");
    let r = small_moduli(&["--json", "--out", p(&f)]).ok();
    assert_eq!(r.stdout, read(&f), "moduli --json vs --out");
    let a = d.join("a.json");
    let b = d.join("b.json");
    small_moduli(&["--shard", "0/2", "--out", p(&a)]).ok();
    small_moduli(&["--shard", "1/2", "--out", p(&b)]).ok();
    let merged = d.join("merged.json");
    let r = search(&["merge", p(&a), p(&b), "--json", "--out", p(&merged)]).ok();
    assert_eq!(r.stdout, read(&merged), "merge --json vs --out");
    assert_eq!(read(&merged), read(&f), "merge equals the unsharded run");
    let r = search(&["merge", p(&a), p(&b)]).ok();
    assert_eq!(r.stdout, read(&f), "merge without --out prints the JSON");
    let data = d.join("data.json");
    let r = search(&[
        "plot",
        "histogram",
        "--input",
        p(&f),
        "--json",
        "--data-out",
        p(&data),
        "--out",
        p(&d.join("h.svg")),
    ])
    .ok();
    assert_eq!(r.stdout, read(&data), "plot --json vs --data-out");
    let c = d.join("crt.json");
    let r = search(&["crt", "--n", "100", "--m", "16", "--json", "--out", p(&c)]).ok();
    assert_eq!(r.stdout, read(&c), "crt --json vs --out");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn beta_parses_the_same_way_everywhere() {
    // the one rule: optional 0x, at most m/4 hex digits, no sign
    let r = search(&[
        "modulus", "--m", "32", "--l", "10", "--beta", "28b51f", "--json",
    ])
    .ok();
    assert_eq!(r.json()["beta"], "0x0028b51f");
    let r = search(&[
        "crt",
        "--n",
        "17669",
        "--beta",
        "10:28b51f",
        "--json",
        "--no-two-moduli",
    ]);
    let r = r.ok();
    let v = r.json();
    assert!(v["moduli"]
        .as_array()
        .expect("moduli")
        .iter()
        .any(|x| x["l"] == 10 && x["lightest_beta"] == "0x0028b51f"));
    for bad in ["+28b51f", "0x+28b51f", "-1", "0x0028_b51f"] {
        let arg = format!("--beta={bad}");
        let r = search(&["modulus", "--m", "32", "--l", "10", &arg]);
        assert_error(&r, &["malformed"]);
        let arg = format!("10:{bad}");
        let r = search(&["crt", "--n", "17669", "--beta", &arg]);
        assert_error(&r, &["bad --beta"]);
    }
}

#[test]
fn out_to_dev_stdout_when_stdout_is_a_pipe() {
    if !Path::new("/dev/stdout").exists() {
        return;
    }
    // /dev/stdout -> /proc/self/fd/1 -> "pipe:[N]": a link whose text is no path
    let r = search(&[
        "modulus",
        "--m",
        "16",
        "--l",
        "3",
        "--beta",
        "canonical",
        "--out",
        "/dev/stdout",
    ])
    .ok();
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(text.contains("verified       yes"), "{text}");
    assert!(
        text.contains("\"schema_version\""),
        "no JSON on stdout: {text}"
    );
}

#[test]
fn out_to_dev_stdout_redirected_to_a_file_keeps_both() {
    if !Path::new("/dev/stdout").exists() {
        return;
    }
    let d = tmp_dir("stdout-file");
    let f = d.join("all.txt");
    let file = std::fs::File::create(&f).expect("create");
    let st = Command::new(env!("CARGO_BIN_EXE_search"))
        .args([
            "modulus",
            "--m",
            "16",
            "--l",
            "3",
            "--beta",
            "canonical",
            "--out",
            "/dev/stdout",
        ])
        .stdout(file)
        .status()
        .expect("run");
    assert!(st.success());
    let text = String::from_utf8_lossy(&read(&f)).into_owned();
    assert!(text.contains("\"schema_version\""), "{text}");
    assert!(text.contains("verified       yes"), "{text}");
    assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn export_effort_flags_out_of_range_are_clean_errors() {
    let d = tmp_dir("effort-flags");
    let out = d.join("exp");
    let base = [
        "export",
        "--m",
        "32",
        "--l",
        "10",
        "--beta",
        "0x00103674",
        "--c",
        "3072",
        "--n",
        "17669",
        "--out",
    ];
    for (flag, value, named) in [
        ("--seeds", "0", "--seeds"),
        ("--seeds", "65", "--seeds"),
        ("--seeds", "many", "--seeds"),
        ("--moves", "1e5", "--moves"),
        ("--moves", "20000000", "--moves"),
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.push(p(&out));
        args.push(flag);
        args.push(value);
        let r = search(&args);
        no_panic(&r);
        // a usage error (clap's exit code 2), naming the flag
        assert_eq!(r.code, Some(2), "{flag} {value}: {}", r.stderr);
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
        assert!(r.stderr.contains(named), "{}", r.stderr);
        assert!(!out.exists(), "{flag} {value}: an output was written");
    }
    let _ = std::fs::remove_dir_all(&d);
}
