//! The `hqc-verify` binary: exit status, JSON output, `--out`, and the fafft-crt stub.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hqc-verify"))
}

#[test]
fn kat_first_entry_matches_and_writes_file() {
    let out = std::env::temp_dir().join(format!("hqc-verify-cli-{}", std::process::id()));
    let o = bin()
        .args([
            "kat",
            "--level",
            "1",
            "--flavour",
            "v5.0.0",
            "--count",
            "1",
            "--json",
            "--rsp-out",
        ])
        .arg(&out)
        .output()
        .expect("binary runs");
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    assert_eq!(v[0]["matches"], true);
    assert_eq!(v[0]["level"], "HQC-1");
    let written = out.join("v5.0.0").join("hqc-1.rsp");
    let text = std::fs::read(&written).expect("file written");
    assert_eq!(
        hqc_verify::kat::sha256_hex(&text),
        "f55cf152d07ff1b53c994bfd078c634830edbbbc39d8b62ceab26c80da201148"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn fafft_crt_needs_a_readable_params_file() {
    for (args, msg) in [
        (
            &["kat", "--params", "missing-p.json"][..],
            "cannot read parameter file",
        ),
        (&["kat", "--multiplier", "fafft-crt"][..], "needs --params"),
        (
            &["profile", "--params", "missing-p.json"][..],
            "cannot read parameter file",
        ),
        (
            &["kat", "--multiplier", "portable", "--params", "p.json"][..],
            "cannot be combined",
        ),
    ] {
        let o = bin().args(args).output().expect("binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        &["kat", "--level", "2"][..],
        &["kat", "--flavour", "v4"][..],
        &["kat", "--count", "101"][..],
        &["kat", "--multiplier", "nope", "--count", "1"][..],
        &["kat", "--kat-dir", "/nonexistent/kat", "--count", "1"][..],
    ] {
        let o = bin().args(args).output().expect("binary runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

/// A copy of an exported folder with params.json edited by `edit` and re-stamped (config_id
/// and checksum recomputed, as a careless hand edit followed by a re-stamp would).
fn restamped_copy(tag: &str, edit: &dyn Fn(&mut serde_json::Value)) -> std::path::PathBuf {
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/export/hqc1-published");
    let dir = std::env::temp_dir().join(format!(
        "hqc-verify-cli-params-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp");
    for e in std::fs::read_dir(&src).expect("export folder") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
    }
    let p = dir.join("params.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
    edit(&mut v);
    fafft_config::spec::restamp(&mut v);
    std::fs::write(&p, serde_json::to_string_pretty(&v).expect("ser")).expect("write");
    dir
}

#[test]
fn kat_params_refuses_what_fafft_config_refuses() {
    use serde_json::json;
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(&str, &str, Edit)> = vec![
        (
            "schema",
            "schema_version 99",
            Box::new(|v| v["schema_version"] = json!(99)),
        ),
        (
            "phex",
            "`P.hex`",
            Box::new(|v| v["P"]["hex"] = json!("0x107585e17")),
        ),
        ("weight", "`weight`", Box::new(|v| v["weight"] = json!(166))),
        (
            "dec",
            "`decode_columns`",
            Box::new(|v| v["decode_columns"][3] = json!("0x12345678")),
        ),
        ("r", "`r`", Box::new(|v| v["r"][7] = json!("0x00000003"))),
        (
            "gamma",
            "`gamma`",
            Box::new(|v| v["gamma"][4] = json!("0x011a2441")),
        ),
        (
            "top",
            "`basis_top`",
            Box::new(|v| v["basis_top"] = json!("0x92f9c988")),
        ),
        ("c", "`c`", Box::new(|v| v["c"] = json!(2560))),
        ("nothing", "`files.IL_defs.h`", Box::new(|_| {})),
        ("missing", "gen_xor_programs.h is missing", Box::new(|_| {})),
    ];
    for (tag, msg, edit) in cases {
        let dir = restamped_copy(tag, &*edit);
        if tag == "nothing" {
            // one byte of a header changed
            let il = dir.join("IL_defs.h");
            let mut b = std::fs::read(&il).expect("read");
            let k = b.len() - 40;
            b[k] ^= 1;
            std::fs::write(&il, b).expect("write");
        }
        if tag == "missing" {
            std::fs::remove_file(dir.join("gen_xor_programs.h")).expect("rm");
        }
        let o = bin()
            .args(["kat", "--level", "1", "--count", "1", "--params"])
            .arg(dir.join("params.json"))
            .output()
            .expect("binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
        assert!(err.contains(msg), "{tag}: expected {msg:?} in: {err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn kat_params_accepts_the_smallest_c() {
    // The one c rule: c = 2592 is the smallest admissible c for HQC-1 with N = 2^15.
    use fafft_config::derive::Config;
    use fafft_config::transform::Chain;
    let min_c = fafft_config::rules::min_c(17_669, 32 << 10);
    assert_eq!(min_c, 2592);
    let cfg = Config::new(32, 10, 0x0010_3674, Chain::Artifact, min_c, 17_669);
    let d = cfg
        .derive_with(&fafft_config::artefacts::Baseline)
        .expect("derive");
    let prov = fafft_config::spec::Provenance {
        command: "cli test".into(),
        tool_version: fafft_config::spec::TOOL_VERSION.into(),
    };
    let dir = std::env::temp_dir().join(format!("hqc-verify-cli-c2592-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp");
    for (name, text) in fafft_config::export::render(&d, &prov).files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let o = bin()
        .args(["kat", "--level", "1", "--count", "1", "--params"])
        .arg(dir.join("params.json"))
        .output()
        .expect("binary runs");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// One vocabulary: `--json` is JSON on stdout, `--out FILE` the same bytes in FILE; `--out`
// writes through devices, FIFOs and symbolic links; errors are one sentence, exit 2.

fn tmp(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("hqc-verify-cli-vocab-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp");
    d
}

const KAT1: [&str; 7] = ["kat", "--level", "1", "--flavour", "v5.0.0", "--count", "1"];

#[test]
fn out_file_holds_the_bytes_json_prints() {
    let d = tmp("same-bytes");
    let f = d.join("kat.json");
    let o = bin()
        .args(KAT1)
        .args(["--json", "--out"])
        .arg(&f)
        .output()
        .expect("binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&f).expect("--out written"), o.stdout);
    // without --json: text on stdout, the JSON still in --out
    let o = bin()
        .args(KAT1)
        .arg("--out")
        .arg(&f)
        .output()
        .expect("binary runs");
    assert!(o.status.success());
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("JSON in --out");
    assert_eq!(v[0]["matches"], true);
    assert!(serde_json::from_slice::<serde_json::Value>(&o.stdout).is_err());
    // profile and pin speak the same vocabulary
    let o = bin()
        .args([
            "profile",
            "--level",
            "1",
            "--flavour",
            "2026-02",
            "--iterations",
            "1",
        ])
        .args(["--json", "--out"])
        .arg(d.join("profile.json"))
        .output()
        .expect("binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(d.join("profile.json")).expect("profile --out"),
        o.stdout
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn out_writes_through_devices_fifos_and_symlinks() {
    use std::os::unix::fs::FileTypeExt;
    let d = tmp("special");
    // /dev/null stays a character device
    let o = bin()
        .args(KAT1)
        .args(["--out", "/dev/null"])
        .output()
        .expect("binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(m.file_type().is_char_device(), "/dev/null was replaced");
    // a symbolic link: the target is written, the link stays a link
    let target = d.join("target.json");
    let link = d.join("link.json");
    std::fs::write(&target, "old").expect("write");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let o = bin()
        .args(KAT1)
        .args(["--json", "--out"])
        .arg(&link)
        .output()
        .expect("binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::symlink_metadata(&link)
        .expect("link")
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).expect("target"), o.stdout);
    // a FIFO: written through to its reader, not replaced
    let fifo = d.join("fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(st.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).expect("read fifo"))
    };
    let o = bin()
        .args(KAT1)
        .args(["--json", "--out"])
        .arg(&fifo)
        .output()
        .expect("binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(reader.join().expect("reader"), o.stdout);
    assert!(std::fs::symlink_metadata(&fifo)
        .expect("fifo")
        .file_type()
        .is_fifo());
    let _ = std::fs::remove_dir_all(&d);
}

/// Exit 2, and stderr is one `error:` sentence that contains `needle` once.
fn one_error(args: &[&str], needle: &str) {
    let t = std::time::Instant::now();
    let o = bin().args(args).output().expect("binary runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(lines.len(), 1, "{args:?}: one error line expected: {err}");
    assert_eq!(
        lines[0].matches(needle).count(),
        1,
        "{args:?}: {needle:?} once in {:?}",
        lines[0]
    );
    assert!(
        !lines[0].contains("Error {") && !lines[0].contains("Os {"),
        "{args:?}: a sentence, not a Debug dump: {}",
        lines[0]
    );
    assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
    assert!(t.elapsed().as_secs() < 60, "{args:?}: refused up front");
}

#[test]
fn errors_are_one_sentence() {
    let d = tmp("errors");
    let dir = d.display().to_string();
    // an unwritable --out is refused before any work (100 entries would take a while)
    one_error(
        &["kat", "--out", "/nonexistent-dir/kat.json"],
        "No such file or directory",
    );
    one_error(&["kat", "--count", "1", "--out", &dir], "--out");
    one_error(
        &["kat", "--count", "1", "--kat-dir", "/nonexistent/kat"],
        "does not exist",
    );
    one_error(
        &["board", "--params", "/nonexistent/params.json"],
        "does not exist",
    );
    one_error(
        &[
            "board",
            "--params",
            "/nonexistent/params.json",
            "--out",
            &dir,
        ],
        "--out",
    );
    one_error(&["pin", "--kat-dir", "/nonexistent/kat"], "does not exist");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn kat_params_runs_the_level_of_its_n() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/export/hqc3-published/params.json");
    let o = bin()
        .args([
            "kat",
            "--flavour",
            "2026-02",
            "--count",
            "1",
            "--json",
            "--params",
        ])
        .arg(&p)
        .output()
        .expect("binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let runs = v.as_array().expect("array");
    assert_eq!(runs.len(), 1, "only the level of n = 35851");
    assert_eq!(runs[0]["level"], "HQC-3");
    assert_eq!(runs[0]["matches"], true);
}

// ---------------------------------------------------------------------------------------------
// Nothing silently wrong: a requested whole-file comparison that cannot run, inputs
// that are not regular files, an output naming an input, closed or full stdout, flags that
// cannot work together.

#[test]
fn a_kat_dir_that_cannot_be_compared_is_an_error() {
    let d = tmp("kat-dir");
    let mut kat = KAT1.to_vec();
    kat.push("--kat-dir");
    // an empty folder: the official file is missing
    let empty = d.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let mut a = kat.clone();
    let e = empty.display().to_string();
    a.push(&e);
    one_error(&a, "hqc-1.rsp does not exist");
    // the .rsp is a folder, a link to /dev/zero, a FIFO
    let sub = d.join("as-dir");
    std::fs::create_dir_all(sub.join("v5.0.0/hqc-1.rsp")).expect("mkdir");
    let zero = d.join("as-zero");
    std::fs::create_dir_all(zero.join("v5.0.0")).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", zero.join("v5.0.0/hqc-1.rsp")).expect("symlink");
    let fifo = d.join("as-fifo");
    std::fs::create_dir_all(fifo.join("v5.0.0")).expect("mkdir");
    let made = Command::new("mkfifo")
        .arg(fifo.join("v5.0.0/hqc-1.rsp"))
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    let mut cases = vec![(sub, "is a directory"), (zero, "character device")];
    if made {
        cases.push((fifo, "is a FIFO"));
    }
    for (dir, needle) in cases {
        let mut a = kat.clone();
        let s = dir.display().to_string();
        a.push(&s);
        one_error(&a, needle);
    }
    // a regular file given as the folder
    let file = d.join("file");
    std::fs::write(&file, b"x").expect("write");
    let mut a = kat.clone();
    let f = file.display().to_string();
    a.push(&f);
    one_error(&a, "is not a folder but a regular file");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn special_params_files_and_out_naming_an_input_are_refused() {
    let d = tmp("special-params");
    one_error(
        &["kat", "--count", "1", "--params", "/dev/zero"],
        "character device",
    );
    let dir = d.display().to_string();
    one_error(&["board", "--params", &dir], "is a directory");
    let copy = d.join("params.json");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/export/hqc3-published/params.json");
    std::fs::copy(&src, &copy).expect("copy");
    let before = std::fs::read(&copy).expect("read");
    let c = copy.display().to_string();
    one_error(
        &["kat", "--count", "1", "--params", &c, "--out", &c],
        "names the input",
    );
    assert_eq!(std::fs::read(&copy).expect("read"), before);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn board_flags_that_cannot_work_together_are_refused() {
    for extra in [
        &["--ct-check", "--profile"][..],
        &["--host-iterations", "5"][..],
    ] {
        let mut a = vec!["board", "--params", "/nonexistent/params.json"];
        a.extend_from_slice(extra);
        let o = bin().args(&a).output().expect("binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(extra[0].trim_start_matches('-')), "{err}");
    }
}

#[test]
fn full_or_closed_stdout_never_panics() {
    let full = std::path::Path::new("/dev/full");
    for json in [false, true] {
        let mut a = KAT1.to_vec();
        if json {
            a.push("--json");
        }
        if full.exists() {
            let o = bin()
                .args(&a)
                .stdout(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(full)
                        .expect("/dev/full"),
                )
                .output()
                .expect("binary runs");
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(err.contains("cannot write to standard output"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
        }
        let mut child = bin()
            .args(&a)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(141), "{err}");
        assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
    }
}

/// With standard error on /dev/full (every write fails), notes and errors neither panic nor
/// change the exit status.
#[test]
fn a_full_stderr_neither_panics_nor_changes_the_exit_status() {
    let full = || {
        std::process::Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        )
    };
    // notes (the KAT folder, the decoder) on stderr, then the run: exit 0
    let o = bin()
        .args(KAT1)
        .stderr(full())
        .output()
        .expect("binary runs");
    assert_eq!(o.status.code(), Some(0));
    // an error: exit 2 (a panic would be 101)
    let o = bin()
        .args(["kat", "--params", "missing-p.json"])
        .stderr(full())
        .output()
        .expect("binary runs");
    assert_eq!(o.status.code(), Some(2));
}
