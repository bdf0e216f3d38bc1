//! Faults a new user hit with the output, one test each: special files and symlinks as
//! `--out` (a symlink, a FIFO, /dev/null, a directory, /dev/stdout), an unwritable `--out`
//! found before the work, and one vocabulary for `--json` and `--out`. Other faults:
//! `faults_cli.rs`.

mod common;
use common::*;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

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
// Late failures.

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
