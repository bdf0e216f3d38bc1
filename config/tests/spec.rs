//! params.json v3: round trip, `config_id` names the configuration and not the folder, every re-stamped corruption is refused naming its field, the
//! stored XOR programs and Thumb-2 routines are proven (a wrong operand or register is refused
//! naming the file and the matrix), the c rule, huge numbers, ASCII output
//! (docs/params-json.md).
//!
//! One fresh export of HQC-1 (c = 3072) is derived per test binary ([`fresh`]) and copied
//! for each corruption; the committed `results/export` folders serve where any valid export
//! will do. The fresh optimised round trip of every level runs in the extended suite
//! (`scripts/test-extended.sh`).

use fafft_config::artefacts::{Artefacts, Baseline, Optimise};
use fafft_config::derive::Config;
use fafft_config::export::render;
use fafft_config::published::{ARTIFACT_BETA, CANONICAL_BETA, LIGHTEST_L10_BETA, PUBLISHED};
use fafft_config::rules::{self, RuleError};
use fafft_config::spec::{self, load, Provenance, PARAMS_FILE, TOOL_VERSION};
use fafft_config::transform::Chain;
use fafft_config::ConfigError;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fafft-config-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn hqc1(c: u64) -> Config {
    Config::new(32, 10, ARTIFACT_BETA, Chain::Artifact, c, 17_669)
}

/// Derive and write an export into `dir` with the cheap [`Baseline`] programs and routines
/// (correct, verifiable, only slower on the board), where any valid export will do.
fn write_export(cfg: &Config, dir: &Path) {
    write_export_with(cfg, dir, &Baseline)
}

/// Derive and write an export into `dir` with programs and routines from `src`.
fn write_export_with(cfg: &Config, dir: &Path, src: &dyn Artefacts) {
    let d = cfg.derive_with(src).expect("derive");
    let prov = Provenance {
        command: format!("test export of {cfg:?}"),
        tool_version: TOOL_VERSION.into(),
    };
    for (name, text) in render(&d, &prov).files {
        std::fs::write(dir.join(name), text).expect("write");
    }
}

/// The committed export `results/export/<name>`.
fn committed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/export")
        .join(name)
}

/// Copy a folder (with subfolders) into a fresh temporary folder.
fn copy_of(src: &Path, tag: &str) -> PathBuf {
    fn copy(src: &Path, dst: &Path) {
        std::fs::create_dir_all(dst).expect("mkdir");
        for e in std::fs::read_dir(src).expect("read_dir") {
            let e = e.expect("entry");
            let to = dst.join(e.file_name());
            if e.file_type().expect("type").is_dir() {
                copy(&e.path(), &to);
            } else {
                std::fs::copy(e.path(), &to).expect("copy");
            }
        }
    }
    let d = tmp(tag);
    copy(src, &d);
    d
}

/// One fresh export of `hqc1(3072)` per test binary ([`Baseline`] artefacts; the optimised
/// export of the same configuration is [`optimised_round_trip_of_every_level`]'s).
fn fresh() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tmp("fresh");
        write_export(&hqc1(3072), &dir);
        dir
    })
}

fn read_value(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(PARAMS_FILE)).expect("read"))
        .expect("json")
}

fn write_value(dir: &Path, v: &Value) {
    std::fs::write(
        dir.join(PARAMS_FILE),
        serde_json::to_string_pretty(v).expect("ser"),
    )
    .expect("write");
}

fn load_verify(dir: &Path) -> Result<(), ConfigError> {
    load(&dir.join(PARAMS_FILE))?.verify().map(|_| ())
}

fn round_trip(levels: &[&str]) {
    for (i, p) in PUBLISHED
        .iter()
        .enumerate()
        .filter(|(_, p)| levels.contains(&p.level))
    {
        let dir = tmp(&format!("rt{i}"));
        let cfg = Config::new(32, p.l, p.beta, p.chain, p.c, p.n);
        // what `search export` writes: the optimiser and the backend at the export budgets
        write_export_with(&cfg, &dir, &Optimise);
        let v = load(&dir.join(PARAMS_FILE))
            .expect("load")
            .verify()
            .expect("verify");
        assert_eq!(v.params.n, p.n);
        assert_eq!(v.derived.cfg, cfg);
        assert_eq!(v.params.files.len(), 7 + v.derived.routines.len());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A fresh export verifies (the cheap programs; the optimised ones: the committed exports below,
/// which are `search export`'s output, and the extended suite's fresh optimised round trip).
#[test]
fn round_trip_of_hqc1() {
    let v = load(&fresh().join(PARAMS_FILE))
        .expect("load")
        .verify()
        .expect("verify");
    assert_eq!(v.derived.cfg, hqc1(3072));
    assert_eq!(v.params.files.len(), 7 + v.derived.routines.len());
}

#[test]
#[ignore = "extended suite (scripts/test-extended.sh): three fresh optimised derivations, minutes"]
fn optimised_round_trip_of_every_level() {
    round_trip(&["HQC-1", "HQC-3", "HQC-5"]);
}

/// `config_id` leaves out the provenance (the command with its `--out`, the tool version), so two
/// exports of one configuration have the same one; the effort (`xor_counts.method`) and every
/// derived field are in it; the checksum covers everything.
#[test]
fn config_id_names_the_configuration_not_the_folder() {
    let d = hqc1(3072).derive_with(&Baseline).expect("derive");
    let prov = |command: &str, tool_version: &str| Provenance {
        command: command.into(),
        tool_version: tool_version.into(),
    };
    let a = render(&d, &prov("search export ... --out A", TOOL_VERSION));
    let b = render(&d, &prov("search export ... --out elsewhere/B", "9.9.9"));
    assert_eq!(a.params.config_id, b.params.config_id);
    assert_ne!(a.params.checksum, b.params.checksum);
    let v = a.params.to_value();
    assert_eq!(spec::config_id_of(&v), a.params.config_id);
    for (field, edit) in [
        ("xor_counts.method", json!("another effort")),
        ("beta", json!("0x00103675")),
    ] {
        let mut w = v.clone();
        match field.split_once('.') {
            Some((x, y)) => w[x][y] = edit,
            None => w[field] = edit,
        }
        assert_ne!(spec::config_id_of(&w), a.params.config_id, "{field}");
    }
}

#[test]
fn committed_exports_verify() {
    let mut seen = 0;
    for e in std::fs::read_dir(committed("")).expect("results/export") {
        let dir = e.expect("entry").path();
        let p = dir.join(PARAMS_FILE);
        if !p.is_file() {
            continue;
        }
        let v = load(&p)
            .expect("load")
            .verify()
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(!v.derived.routines.is_empty());
        seen += 1;
    }
    assert!(seen >= 6, "only {seen} committed exports found");
}

#[test]
fn published_weights_are_the_derived_ones() {
    for w in fafft_config::published::PUBLISHED_WEIGHTS {
        if let Some(beta) = w.beta {
            let p = algebra::minpoly::minimal_polynomial(algebra::field::Tower::<32>(beta))
                .expect("minpoly");
            let m = algebra::modulus::modulus_from_minpoly(&p, w.l);
            assert_eq!(m.weight() as u32, w.weight, "{}", w.label);
        }
    }
    let p = algebra::minpoly::minimal_polynomial(algebra::field::Tower::<32>(LIGHTEST_L10_BETA))
        .expect("minpoly");
    assert_eq!(algebra::modulus::modulus_from_minpoly(&p, 10).weight(), 85);
    assert_eq!(CANONICAL_BETA, 0x0001_2f9a);
}

/// Apply `edit` to params.json, re-stamp config_id and checksum, and return the error of
/// load + verify.
fn restamped(tag: &str, edit: impl Fn(&mut Value)) -> ConfigError {
    let dir = copy_of(fresh(), tag);
    let mut v = read_value(&dir);
    edit(&mut v);
    spec::restamp(&mut v);
    write_value(&dir, &v);
    let e = load_verify(&dir).expect_err("corruption must be refused");
    let _ = std::fs::remove_dir_all(&dir);
    e
}

#[test]
fn restamped_corruptions_name_their_field() {
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, &str, Edit)> = vec![
        (
            "schema",
            "schema_version",
            Box::new(|v| v["schema_version"] = json!(99)),
        ),
        (
            "phex",
            "P.hex",
            Box::new(|v| v["P"]["hex"] = json!("0x107585e17")),
        ),
        ("weight", "weight", Box::new(|v| v["weight"] = json!(166))),
        (
            "mexp",
            "M.exponents",
            Box::new(|v| {
                let e = v["M"]["exponents"][5].as_u64().expect("e");
                v["M"]["exponents"][5] = json!(e + 1);
            }),
        ),
        (
            "dec",
            "decode_columns",
            Box::new(|v| v["decode_columns"][3] = json!("0x12345678")),
        ),
        ("r", "r", Box::new(|v| v["r"][7] = json!("0x00000003"))),
        (
            "gamma",
            "gamma",
            Box::new(|v| v["gamma"][4] = json!("0x011a2441")),
        ),
        (
            "gl",
            "chain.gamma_l",
            Box::new(|v| v["chain"]["gamma_l"] = json!("0x599a429f")),
        ),
        (
            "top",
            "basis_top",
            Box::new(|v| v["basis_top"] = json!("0x92f9c988")),
        ),
        (
            "il",
            "IL.words_plain",
            Box::new(|v| v["IL"]["words_plain"][0] = json!("0x44c4a9fe")),
        ),
        (
            "xor",
            "xor_counts.encode",
            Box::new(|v| v["xor_counts"]["encode"] = json!(1)),
        ),
        (
            "files",
            "files.IL_defs.h",
            Box::new(|v| v["files"]["IL_defs.h"] = json!("0".repeat(64))),
        ),
    ];
    for (tag, field, edit) in cases {
        let e = restamped(tag, edit);
        assert_eq!(e.field().as_deref(), Some(field), "{tag}: {e}");
        assert!(e.to_string().contains(field), "{tag}: {e}");
    }
}

#[test]
fn rules_in_the_file_are_checked_with_their_field() {
    let e = restamped("c", |v| v["c"] = json!(2560));
    assert_eq!(e.field().as_deref(), Some("c"), "{e}");
    assert!(e.to_string().contains("2592"), "{e}");
    let e = restamped("n", |v| v["n"] = json!(40_000));
    assert_eq!(e.field().as_deref(), Some("n"), "{e}");
    let e = restamped("chain", |v| v["chain"]["kind"] = json!("bogus"));
    assert_eq!(e.field().as_deref(), Some("chain.kind"), "{e}");
    let e = restamped("unknown", |v| v["extra"] = json!(1));
    assert!(matches!(e, ConfigError::Field { .. }), "{e}");
    assert!(e.to_string().contains("extra"), "{e}");
    let e = restamped("hexform", |v| v["beta"] = json!("0x103674"));
    assert!(matches!(e, ConfigError::Field { .. }), "{e}");
}

#[test]
fn edits_without_restamp_and_changed_files_are_caught() {
    let dir = copy_of(fresh(), "files");
    assert!(load_verify(&dir).is_ok());
    // A hand edit without re-stamping: checksum.
    let good = std::fs::read_to_string(dir.join(PARAMS_FILE)).expect("read");
    let mut v = read_value(&dir);
    v["weight"] = json!(166);
    write_value(&dir, &v);
    let e = load_verify(&dir).expect_err("edited");
    assert!(matches!(e, ConfigError::Checksum { .. }), "{e}");
    std::fs::write(dir.join(PARAMS_FILE), &good).expect("restore");
    // One byte of a header changed.
    let il = dir.join("IL_defs.h");
    let mut bytes = std::fs::read(&il).expect("read");
    let k = bytes.len() - 40;
    bytes[k] ^= 1;
    std::fs::write(&il, &bytes).expect("write");
    let e = load_verify(&dir).expect_err("header changed");
    assert_eq!(e.field().as_deref(), Some("files.IL_defs.h"), "{e}");
    bytes[k] ^= 1;
    std::fs::write(&il, &bytes).expect("write");
    assert!(load_verify(&dir).is_ok());
    // A file missing.
    std::fs::remove_file(dir.join("gen_xor_programs.h")).expect("rm");
    let e = load_verify(&dir).expect_err("missing");
    assert!(matches!(e, ConfigError::FileMissing { .. }), "{e}");
    assert_eq!(e.field().as_deref(), Some("files.gen_xor_programs.h"));
    // Not a params file at all.
    std::fs::write(dir.join(PARAMS_FILE), "[1, 2]").expect("write");
    assert!(matches!(load_verify(&dir), Err(ConfigError::Json { .. })));
    assert!(matches!(
        load(&dir.join("nope.json")),
        Err(ConfigError::Io { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Edit the text of `file` in a copy of `src`, optionally re-stamp `files.<file>` (and
/// config_id, checksum), and return the error of load + verify.
fn artefact_edit(
    src: &Path,
    tag: &str,
    file: &str,
    restamp: bool,
    edit: impl Fn(&str) -> String,
) -> Result<(), ConfigError> {
    let dir = copy_of(src, tag);
    let f = dir.join(file);
    let text = std::fs::read_to_string(&f).expect("read");
    let new = edit(&text);
    assert_ne!(new, text, "{tag}: the edit changed nothing");
    std::fs::write(&f, &new).expect("write");
    if restamp {
        let mut v = read_value(&dir);
        let sha = fafft_config::hex::Digest::of(new.as_bytes()).to_string();
        v["files"][file] = json!(sha);
        spec::restamp(&mut v);
        write_value(&dir, &v);
    }
    let r = load_verify(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// Replace the first line of `text` after the line containing `after` that starts with
/// `prefix` (trimmed) by `f(line)`.
fn edit_line(text: &str, after: &str, prefix: &str, f: impl Fn(&str) -> String) -> String {
    let mut seen = false;
    let mut done = false;
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.contains(after) {
            seen = true;
        }
        if seen && !done && line.trim_start().starts_with(prefix) {
            out += &f(line);
            done = true;
        } else {
            out += line;
        }
    }
    out
}

fn assert_names(e: &ConfigError, file: &str, matrix: &str) {
    assert!(matches!(e, ConfigError::Artefact { .. }), "{e}");
    assert_eq!(e.field(), Some(format!("files.{file}")), "{e}");
    let s = e.to_string();
    assert!(s.contains(file) && s.contains(matrix), "{e}");
}

#[test]
fn a_wrong_xor_operand_is_refused_naming_file_and_matrix() {
    // In gft_mul_gamma_3 the first temporary XORs another input: t0 = iA ^ iB becomes
    // iA ^ i(B+1 mod 32) (a different matrix), with and without re-stamping.
    let wrong_operand = |t: &str| {
        edit_line(t, "gft_mul_gamma_3(", "const uint32_t t0 =", |l| {
            let (head, b) = l.trim_end().rsplit_once(" ^ i").expect("t0 = iA ^ iB");
            let q: u32 = b.trim_end_matches(';').parse().expect("input");
            format!("{head} ^ i{};\n", (q + 1) % 32)
        })
    };
    for restamp in [false, true] {
        let e = artefact_edit(
            fresh(),
            "xorop",
            "gen_xor_programs.h",
            restamp,
            wrong_operand,
        )
        .expect_err("a wrong operand must be refused");
        assert_names(&e, "gen_xor_programs.h", "gamma_3");
    }
    // A different program of the same matrix is correct: t0 = iA ^ iB written iB ^ iA is
    // accepted once re-stamped (the file is then the canonical rendering of that program).
    let swapped = |t: &str| {
        edit_line(t, "gft_mul_gamma_3(", "const uint32_t t0 =", |l| {
            let (head, ops) = l.trim_end().split_once(" = ").expect("t0 = A ^ B");
            let (a, b) = ops.trim_end_matches(';').split_once(" ^ ").expect("A ^ B");
            format!("{head} = {b} ^ {a};\n")
        })
    };
    artefact_edit(fresh(), "xorswap", "gen_xor_programs.h", true, swapped)
        .expect("a correct program in canonical form is accepted");
    // A correct program in a non-canonical text is refused (re-rendering differs).
    let e = artefact_edit(fresh(), "xorform", "gen_xor_programs.h", true, |t| {
        t.replacen("#define HAVE_GEN_XOR 1\n", "#define HAVE_GEN_XOR 1 \n", 1)
    })
    .expect_err("non-canonical text");
    assert_eq!(
        e.field().as_deref(),
        Some("files.gen_xor_programs.h"),
        "{e}"
    );
}

#[test]
fn a_wrong_register_in_a_routine_is_refused_naming_file_and_matrix() {
    // The first EOR of gamma_2's routine reads another register.
    let wrong_register = |t: &str| {
        edit_line(t, "gft_mul_s_inv_2_beta:", "eor ", |l| {
            let (head, rm) = l.trim_end().rsplit_once(", r").expect("eor rd, rn, rm");
            let r: u32 = rm.parse().unwrap_or(0);
            format!("{head}, r{}\n", if r == 12 { 2 } else { r + 1 })
        })
    };
    let file = "gft_mul_s_inv_2_beta.S";
    for restamp in [false, true] {
        let e = artefact_edit(fresh(), "asmreg", file, restamp, wrong_register)
            .expect_err("a wrong register must be refused");
        assert_names(&e, file, "gamma_2");
    }
    // A wrong static-counts comment is refused too.
    let e = artefact_edit(fresh(), "asmstats", file, true, |t| {
        t.replacen("@ static counts: eor ", "@ static counts: eor 1", 1)
    })
    .expect_err("wrong stats");
    assert_names(&e, file, "gamma_2");
    // The artifact layout: the routines carry the programs.
    let file = "m4f/gft_mul_s_inv_2_beta.S";
    let e = artefact_edit(
        &committed("hqc1-published-artifact"),
        "asmart",
        file,
        true,
        wrong_register,
    )
    .expect_err("a wrong register must be refused (artifact layout)");
    assert_names(&e, file, "gamma_2");
    // A missing routine is named as missing.
    let dir = copy_of(fresh(), "asmmissing");
    std::fs::remove_file(dir.join("encode_to_gft_full_length.S")).expect("rm");
    let e = load_verify(&dir).expect_err("missing routine");
    assert!(matches!(e, ConfigError::FileMissing { .. }), "{e}");
    assert_eq!(
        e.field().as_deref(),
        Some("files.encode_to_gft_full_length.S")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_c_rule_is_the_smallest_c_that_fits() {
    // HQC-1 with N = 2^15: 2n - 1 = 35337, so c >= 2569, rounded up to 32: 2592.
    assert_eq!(rules::min_c(17_669, 32 << 10), 2592);
    let dir = tmp("c2592");
    write_export(&hqc1(2592), &dir);
    let v = load(&dir.join(PARAMS_FILE))
        .expect("load")
        .verify()
        .expect("c = 2592 verifies");
    assert_eq!(v.derived.il_plain.len(), 81);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(matches!(
        hqc1(2560).derive(),
        Err(ConfigError::Rule(RuleError::CTooSmall { min_c: 2592, .. }))
    ));
    assert!(matches!(
        hqc1(2600).derive(),
        Err(ConfigError::Rule(RuleError::CNotWordMultiple { .. }))
    ));
    for (n, l, c) in [(35_851u64, 11u32, 6176u64), (57_637, 12, 0)] {
        assert_eq!(rules::min_c(n, 32 << l), c);
    }
}

#[test]
fn huge_numbers_are_refused_not_wrapped() {
    for c in [18_446_744_073_709_551_584u64, u64::MAX - 31, 1 << 40] {
        assert!(matches!(
            hqc1(c).derive(),
            Err(ConfigError::Rule(RuleError::CTooLarge { .. }))
        ));
    }
    let huge_n = Config::new(32, 10, ARTIFACT_BETA, Chain::Artifact, 0, u64::MAX);
    assert!(matches!(
        huge_n.derive(),
        Err(ConfigError::Rule(RuleError::BadN { .. }))
    ));
    let big_l = Config::new(32, 40, ARTIFACT_BETA, Chain::Default, 0, 17_669);
    assert!(matches!(
        big_l.derive(),
        Err(ConfigError::Rule(RuleError::BadL { .. }))
    ));
    let e = restamped("hugec", |v| v["c"] = json!(u64::MAX));
    assert_eq!(e.field().as_deref(), Some("c"), "{e}");
}

#[test]
fn exported_files_are_ascii_even_for_odd_paths() {
    let d = hqc1(3072).derive_with(&Baseline).expect("derive");
    let prov = Provenance {
        command: "search export --out /tmp/\u{3b3}\u{3b2} */ x".into(),
        tool_version: TOOL_VERSION.into(),
    };
    for (name, text) in render(&d, &prov).files {
        if name != PARAMS_FILE {
            assert!(text.is_ascii(), "{name} is not ASCII");
            if !name.ends_with(".h") {
                continue; // the Thumb-2 routines (.S) carry `@` comments, no command line
            }
            let banner_end = text.find(" */\n").expect("banner");
            assert!(
                !text[..banner_end].contains("*/"),
                "{name}: banner closed early"
            );
        }
    }
    let prov = Provenance {
        command: "search export --out x".into(),
        tool_version: TOOL_VERSION.into(),
    };
    for (name, text) in render(&d, &prov).files {
        assert!(text.is_ascii(), "{name} is not ASCII");
    }
}
