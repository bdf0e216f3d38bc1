//! Sharded runs merge into the exact bytes of one run; interrupted runs resume to the exact bytes
//! of an uninterrupted run; checkpoints refuse another configuration.

mod common;
use common::*;
use std::process::Command;
use std::time::{Duration, Instant};

const CFG: [&str; 8] = ["--m", "32", "--l", "12", "--within", "20", "--top", "6"];

fn moduli(extra: &[&str]) -> Run {
    let mut a = vec!["moduli"];
    a.extend_from_slice(&CFG);
    a.extend_from_slice(extra);
    search(&a)
}

#[test]
fn three_shards_merge_to_the_unsharded_bytes() {
    let d = tmp_dir("shards");
    let whole = d.join("whole.json");
    moduli(&["--out", p(&whole)]).ok();
    let parts: Vec<_> = (0..3).map(|i| d.join(format!("part{i}.json"))).collect();
    for (i, f) in parts.iter().enumerate() {
        let spec = format!("{i}/3");
        moduli(&["--shard", &spec, "--out", p(f)]).ok();
        let j: serde_json::Value = serde_json::from_slice(&read(f)).expect("json");
        assert_eq!(j["shard"]["index"].as_u64(), Some(i as u64));
        assert_eq!(j["shard"]["count"].as_u64(), Some(3));
        assert!(j["space"]["covered"]
            .as_str()
            .expect("c")
            .starts_with("partial"));
    }
    let merged = d.join("merged.json");
    // parts in scrambled order
    search(&[
        "merge",
        p(&parts[2]),
        p(&parts[0]),
        p(&parts[1]),
        "--out",
        p(&merged),
    ])
    .ok();
    assert_eq!(read(&merged), read(&whole));
    let j: serde_json::Value = serde_json::from_slice(&read(&merged)).expect("json");
    assert!(j.get("shard").is_none());

    let out = d.join("bad.json");
    refuses_parts_that_are_no_split(&d, &parts, &whole, &out);
    refuses_edited_parts(&d, &parts, &out);
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// Missing and duplicate shards, shards of another configuration, non-shard inputs are
/// refused.
fn refuses_parts_that_are_no_split(
    d: &std::path::Path,
    parts: &[std::path::PathBuf],
    whole: &std::path::Path,
    out: &std::path::Path,
) {
    let r = search(&["merge", p(&parts[0]), p(&parts[1]), "--out", p(out)]);
    assert_error(&r, &["missing shard", "2/3"]);
    let r = search(&[
        "merge",
        p(&parts[0]),
        p(&parts[1]),
        p(&parts[1]),
        p(&parts[2]),
        "--out",
        p(out),
    ]);
    assert_error(&r, &["given twice"]);
    let other = d.join("other.json");
    search(&[
        "moduli",
        "--m",
        "32",
        "--l",
        "12",
        "--within",
        "20",
        "--top",
        "5",
        "--shard",
        "2/3",
        "--out",
        p(&other),
    ])
    .ok();
    let r = search(&[
        "merge",
        p(&parts[0]),
        p(&parts[1]),
        p(&other),
        "--out",
        p(out),
    ]);
    assert_error(&r, &["different configurations", "top_limit"]);
    let r = search(&["merge", p(whole), "--out", p(out)]);
    assert_error(&r, &["not a shard output"]);
    let two = d.join("two.json");
    moduli(&["--shard", "1/2", "--out", p(&two)]).ok();
    let r = search(&[
        "merge",
        p(&parts[0]),
        p(&two),
        p(&parts[2]),
        "--out",
        p(out),
    ]);
    assert_error(&r, &["split into 3"]);
    let garbage = d.join("garbage.json");
    std::fs::write(&garbage, b"{not json").expect("write");
    let r = search(&["merge", p(&garbage), "--out", p(out)]);
    assert_error(&r, &["cannot parse", "garbage.json"]);
}

/// Consistent shards of a configuration this tool does not accept (edited files) are refused.
fn refuses_edited_parts(d: &std::path::Path, parts: &[std::path::PathBuf], out: &std::path::Path) {
    let edited: Vec<_> = parts
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let text = String::from_utf8_lossy(&read(f)).replace("\"m\": 32,", "\"m\": 12,");
            let e = d.join(format!("edited{i}.json"));
            std::fs::write(&e, text).expect("write");
            e
        })
        .collect();
    let r = search(&[
        "merge",
        p(&edited[0]),
        p(&edited[1]),
        p(&edited[2]),
        "--out",
        p(out),
    ]);
    assert_error(&r, &["cannot merge", "m = 12"]);
}

#[test]
fn stopped_run_resumes_to_identical_bytes() {
    let d = tmp_dir("resume");
    let whole = d.join("whole.json");
    moduli(&["--out", p(&whole)]).ok();
    let ck = d.join("ck.json");
    let out = d.join("resumed.json");
    // stop twice (after 5 and then 9 more chunks), then finish, with different thread counts
    let r = moduli(&[
        "--checkpoint",
        p(&ck),
        "--out",
        p(&out),
        "--stop-after-chunks",
        "5",
        "--threads",
        "2",
    ]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert!(ck.exists() && !out.exists());
    let r = moduli(&[
        "--checkpoint",
        p(&ck),
        "--out",
        p(&out),
        "--stop-after-chunks",
        "9",
        "--threads",
        "1",
    ]);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    moduli(&["--checkpoint", p(&ck), "--out", p(&out)]).ok();
    assert_eq!(read(&out), read(&whole));
    // a completed checkpoint reproduces the result without rescanning
    let again = d.join("again.json");
    moduli(&["--checkpoint", p(&ck), "--out", p(&again)]).ok();
    assert_eq!(read(&again), read(&whole));

    // sparse mode too
    let sp = [
        "moduli",
        "--m",
        "32",
        "--l",
        "10",
        "--max-poly-weight",
        "7",
        "--top",
        "4",
    ];
    let s_whole = search(&sp).ok();
    let s_ck = d.join("sck.json");
    let mut a = sp.to_vec();
    a.extend_from_slice(&["--checkpoint", p(&s_ck), "--stop-after-chunks", "3"]);
    assert_eq!(search(&a).code, Some(3));
    let mut a = sp.to_vec();
    a.extend_from_slice(&["--checkpoint", p(&s_ck)]);
    assert_eq!(search(&a).ok().stdout, s_whole.stdout);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn killed_run_resumes_to_identical_bytes() {
    let d = tmp_dir("kill");
    let cfg = [
        "moduli",
        "--m",
        "32",
        "--l",
        "10",
        "--within",
        "21",
        "--top",
        "5",
        "--threads",
        "1",
    ];
    let whole = search(&cfg).ok();
    let ck = d.join("ck.json");
    let mut args = cfg.to_vec();
    args.extend_from_slice(&["--checkpoint", p(&ck)]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_search"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let t0 = Instant::now();
    while !ck.exists() && t0.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill(); // SIGKILL: no chance to clean up
    let _ = child.wait();
    assert!(ck.exists(), "the checkpoint appears after the first batch");
    let resumed = search(&args).ok();
    assert_eq!(resumed.stdout, whole.stdout);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn checkpoint_of_another_configuration_is_refused() {
    let d = tmp_dir("ckmismatch");
    let ck = d.join("ck.json");
    let r = moduli(&["--checkpoint", p(&ck), "--stop-after-chunks", "2"]);
    assert_eq!(r.code, Some(3));
    let r = search(&[
        "moduli",
        "--m",
        "32",
        "--l",
        "12",
        "--within",
        "19",
        "--top",
        "6",
        "--checkpoint",
        p(&ck),
    ]);
    assert_error(&r, &["different configuration", "within", "ck.json"]);
    let r = moduli(&["--checkpoint", p(&ck), "--shard", "0/2"]);
    assert_error(&r, &["different configuration", "shard"]);
    // a candidate wider than m bits in an otherwise valid checkpoint
    let text = String::from_utf8_lossy(&read(&ck)).into_owned();
    let pos = text
        .find("\"p\":\"")
        .expect("a candidate in the checkpoint")
        + 5;
    let wide = format!("{}1ffffffffffff{}", &text[..pos], &text[pos..]);
    std::fs::write(&ck, wide).expect("write");
    let r = moduli(&["--checkpoint", p(&ck)]);
    assert_error(&r, &["cannot parse", "bad candidate"]);
    std::fs::write(&ck, b"garbage").expect("write");
    let r = moduli(&["--checkpoint", p(&ck)]);
    assert_error(&r, &["cannot parse", "checkpoint"]);
    let _ = std::fs::remove_dir_all(&d);
}
