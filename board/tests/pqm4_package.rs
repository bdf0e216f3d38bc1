//! The pqm4 package (`hqc-verify package`, docs/pqm4.md) on the host: the folder is written
//! from a committed export, its C sources are compiled with the host C compiler (`cc`, or
//! `$HOST_CC`) together with the driver `hqc-verify/pqm4/host/host_kat.c`, and `randombytes`
//! is fed with the bytes of the KAT DRBG (`hqc_verify::core::prng::ShakePrng`) through the
//! driver's stdin. The keys, ciphertexts and shared secrets must equal the committed per-entry
//! pins (kat/entries/) in both flavours, Decaps must return the same key, and the failure
//! cases of pqm4's test (changed ciphertext, changed salt, changed secret key) must give a
//! different key. The default suite checks the first entries of HQC-1; the extended suite
//! (`#[ignore]`) all 100 entries of every level.
//!
//! The C compiler is invoked from the test (no build-script dependency): the package is a
//! folder of sources, and compiling it as a user would is the point of the test.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hqc_board::package::{write_package, PackageError, PackageRequest};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet, SALT_BYTES};
use hqc_verify::core::prng::{kat_seeds, RandomSource, ShakePrng};
use hqc_verify::kat::first_pin_difference;
use hqc_verify::kat::pins::entry_pins;
use hqc_verify::kat::rsp::Entry;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crate folder has a parent")
        .to_path_buf()
}

/// A fresh scratch folder under the system temporary folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!("pqm4-pkg-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).expect("create scratch folder");
        Scratch(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn export_of(level: Level) -> PathBuf {
    let dir = match level {
        Level::Hqc1 => "hqc1-joint",
        Level::Hqc3 => "hqc3-published",
        Level::Hqc5 => "hqc5-canonical",
    };
    repo().join("results/export").join(dir).join("params.json")
}

fn package(level: Level, flavour: Flavour, out: &Path) -> PathBuf {
    let r = write_package(&PackageRequest {
        params: export_of(level),
        out: out.to_path_buf(),
        flavour,
        force: false,
    })
    .expect("package written");
    r.dir
}

fn cc() -> String {
    std::env::var("HOST_CC").unwrap_or_else(|_| "cc".into())
}

fn run_cc(opt: &str, args: &[&std::ffi::OsStr]) {
    let out = Command::new(cc())
        .args([opt, "-std=gnu99"])
        .args(args)
        .output()
        .expect("start the host C compiler");
    assert!(
        out.status.success(),
        "host C compiler failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles the package in `dir` with the driver; `fafft_o` is a compiled fafft.c to reuse
/// (its source does not depend on the flavour), or None to compile it into `fafft_o_out`.
fn build(dir: &Path, exe: &Path, fafft_o: &Path, compile_fafft: bool, opt: &str) {
    let host = repo().join("hqc-verify/pqm4/host");
    let inc_pkg = format!("-I{}", dir.display());
    let inc_host = format!("-I{}", host.display());
    if compile_fafft {
        run_cc(
            opt,
            &[
                inc_pkg.as_ref(),
                "-c".as_ref(),
                dir.join("fafft.c").as_os_str(),
                "-o".as_ref(),
                fafft_o.as_os_str(),
            ],
        );
    }
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read package folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c") && !p.ends_with("fafft.c"))
        .collect();
    srcs.sort();
    srcs.push(host.join("host_kat.c"));
    let mut args: Vec<&std::ffi::OsStr> = vec![inc_pkg.as_ref(), inc_host.as_ref()];
    args.extend(srcs.iter().map(|p| p.as_os_str()));
    args.extend([fafft_o.as_os_str(), "-o".as_ref(), exe.as_os_str()]);
    run_cc(opt, &args);
}

/// The randombytes stream of KAT entries 0 .. count: seed_kem, m, salt per entry.
fn kat_randomness(k: usize, count: usize) -> (Vec<[u8; 48]>, Vec<u8>) {
    let mut seeds = vec![[0u8; 48]; count];
    kat_seeds(&mut seeds);
    let mut bytes = Vec::new();
    for seed in &seeds {
        let mut prng = ShakePrng::new(seed, &[]);
        let mut b = vec![0u8; 32 + k + SALT_BYTES];
        prng.fill(&mut b[..32]);
        prng.fill(&mut b[32..32 + k]);
        prng.fill(&mut b[32 + k..]);
        bytes.extend_from_slice(&b);
    }
    (seeds, bytes)
}

fn drive(exe: &Path, arg: &str, input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(exe)
        .arg(arg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the driver");
    child
        .stdin
        .take()
        .expect("driver stdin")
        .write_all(input)
        .expect("feed randomness");
    let out = child.wait_with_output().expect("driver finishes");
    assert!(
        out.status.success(),
        "driver {arg} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn sizes(level: Level) -> [usize; 4] {
    fn of<P: ParamSet>() -> [usize; 4] {
        [P::EK_BYTES, P::DK_BYTES, P::CT_BYTES, P::K]
    }
    match level {
        Level::Hqc1 => of::<Hqc1>(),
        Level::Hqc3 => of::<Hqc3>(),
        Level::Hqc5 => of::<Hqc5>(),
    }
}

/// Entries 0 .. count from the compiled package against the pins.
fn check_kat(exe: &Path, level: Level, flavour: Flavour, count: usize) {
    let [pk, sk, ct, k] = sizes(level);
    let (seeds, rnd) = kat_randomness(k, count);
    let out = drive(exe, &count.to_string(), &rnd);
    let rec = pk + sk + ct + 64;
    assert_eq!(
        out.len(),
        rec * count,
        "{level} {flavour}: driver output length"
    );
    let mut entries = Vec::new();
    for (i, r) in out.chunks_exact(rec).enumerate() {
        let (ss, ss2) = (&r[pk + sk + ct..pk + sk + ct + 32], &r[pk + sk + ct + 32..]);
        assert_eq!(ss, ss2, "{level} {flavour} entry {i}: Decaps key differs");
        entries.push(Entry {
            count: i,
            seed: seeds[i].to_vec(),
            pk: r[..pk].to_vec(),
            sk: r[pk..pk + sk].to_vec(),
            ct: r[pk + sk..pk + sk + ct].to_vec(),
            ss: ss.to_vec(),
        });
    }
    let pins = entry_pins(flavour, level).expect("pins parse");
    assert!(pins.len() >= count, "{level} {flavour}: {count} pins");
    assert_eq!(
        first_pin_difference(&entries, &pins[..count]),
        None,
        "{level} {flavour}: package output against the pins"
    );
}

/// `opt`: the host compiler's optimisation flag (the default suite compiles at -O0, which
/// costs a fifth of -O2's compile time; the extended suite at -O2).
fn check_level(level: Level, count: usize, opt: &str) {
    let s = Scratch::new(&format!("l{}", level.digit()));
    let fafft_o = s.0.join("fafft.o");
    let mut fafft_c: Option<Vec<u8>> = None;
    for flavour in Flavour::ALL {
        let dir = package(level, flavour, &s.0.join(flavour.name()));
        let src = std::fs::read(dir.join("fafft.c")).expect("read fafft.c");
        if let Some(prev) = &fafft_c {
            assert_eq!(prev, &src, "fafft.c does not depend on the flavour");
        }
        let exe = s.0.join(format!("host_kat-{}", flavour.name()));
        build(&dir, &exe, &fafft_o, fafft_c.is_none(), opt);
        fafft_c = Some(src);
        check_kat(&exe, level, flavour, count);
        let [_, _, _, k] = sizes(level);
        let (_, rnd) = kat_randomness(k, 1);
        let text = drive(&exe, "-t", &rnd);
        assert_eq!(
            String::from_utf8_lossy(&text).trim(),
            "ok",
            "{level} {flavour} failure cases"
        );
    }
}

#[test]
fn hqc1_package_reproduces_the_first_kat_entries_in_both_flavours() {
    check_level(Level::Hqc1, 3, "-O0");
}

#[test]
#[ignore = "extended suite: 100 entries per flavour"]
fn hqc1_package_reproduces_100_kat_entries() {
    check_level(Level::Hqc1, 100, "-O2");
}

#[test]
#[ignore = "extended suite: 100 entries per flavour"]
fn hqc3_package_reproduces_100_kat_entries() {
    check_level(Level::Hqc3, 100, "-O2");
}

#[test]
#[ignore = "extended suite: 100 entries per flavour"]
fn hqc5_package_reproduces_100_kat_entries() {
    check_level(Level::Hqc5, 100, "-O2");
}

#[test]
fn existing_package_is_kept_without_force_and_replaced_with_it() {
    let s = Scratch::new("force");
    let dir = package(Level::Hqc1, Flavour::V2026_02, &s.0);
    let marker = dir.join("kem.c");
    std::fs::write(&marker, "changed").expect("write marker");
    let mut req = PackageRequest {
        params: export_of(Level::Hqc1),
        out: s.0.clone(),
        flavour: Flavour::V5_0_0,
        force: false,
    };
    let e = write_package(&req).expect_err("refused without --force");
    assert!(matches!(e, PackageError::Exists(_)), "{e}");
    assert_eq!(std::fs::read_to_string(&marker).expect("read"), "changed");
    req.force = true;
    write_package(&req).expect("replaced with --force");
    let cfg = std::fs::read_to_string(dir.join("hqc_config.h")).expect("read config");
    assert!(cfg.contains("#define HQC_FLAVOUR_V5 1"), "{cfg}");
    assert_ne!(std::fs::read_to_string(&marker).expect("read"), "changed");
    let leftovers: Vec<_> = std::fs::read_dir(dir.parent().expect("parent"))
        .expect("list")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() != "m4f")
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary folders left: {leftovers:?}"
    );
}

#[test]
fn artifact_layout_and_missing_files_are_refused_and_write_nothing() {
    let s = Scratch::new("refuse");
    for bad in [
        repo().join("results/export/hqc1-published-artifact/params.json"),
        s.0.join("no-such/params.json"),
    ] {
        let e = write_package(&PackageRequest {
            params: bad.clone(),
            out: s.0.join("out"),
            flavour: Flavour::V2026_02,
            force: false,
        })
        .expect_err("refused");
        assert!(!e.to_string().is_empty());
        assert!(
            !s.0.join("out").exists(),
            "{}: nothing written",
            bad.display()
        );
    }
}

#[test]
fn cli_writes_once_and_refuses_a_second_write_with_one_sentence() {
    let s = Scratch::new("cli");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hqc-verify"))
            .arg("package")
            .arg("--params")
            .arg(export_of(Level::Hqc1))
            .arg("--out-dir")
            .arg(&s.0)
            .args(extra)
            .output()
            .expect("run hqc-verify")
    };
    let first = run(&["--json"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&first.stdout).expect("JSON report");
    assert_eq!(v["level"], "HQC-1");
    assert_eq!(v["flavour"], "2026-02");
    assert_eq!(v["config_id"].as_str().map(str::len), Some(64));
    let second = run(&[]);
    assert_eq!(second.status.code(), Some(2));
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("exists; pass --force"), "{err}");
    let bad = run(&["--flavour", "v4"]);
    assert_eq!(bad.status.code(), Some(2));
}
