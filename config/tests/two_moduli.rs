//! Two coprime FAFFT moduli in one export (docs/fafft.md §9.8, params.json `second`,
//! docs/firmware-layout.md §14): the rule refuses a residue ring, a split, an l2 outside
//! 5..=l1 and N1 + N2 < 2n − 1 with typed errors naming the problem; equal moduli are refused
//! as not coprime and an inadmissible β2 by its own error; the HQC-3 plan of `search crt`
//! (rank 2: M1 of l = 11, β 0x00112c53; M2 of l = 8, β 0x0093b187) round-trips through
//! load + verify; every re-stamped bad `second` in the file is refused naming the field.

use fafft_config::artefacts::Baseline;
use fafft_config::derive::{layout_b, stored_groups, Config};
use fafft_config::export::render;
use fafft_config::rules::{check_full, check_second, RuleError, Second, SecondError, Split};
use fafft_config::spec::{self, load, Provenance, PARAMS_FILE, TOOL_VERSION};
use fafft_config::transform::Chain;
use fafft_config::ConfigError;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const N3: u64 = 35_851; // HQC-3
const BETA1: u32 = 0x0011_2c53;
const BETA2: u32 = 0x0093_b187;

fn second(l: u32, beta: u32) -> Second {
    Second { l, beta }
}

fn hqc3(s: Second) -> Config {
    Config::new(32, 11, BETA1, Chain::Default, 0, N3).with_second(Some(s))
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fafft-twomod-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write_export(cfg: &Config, dir: &Path) {
    let d = cfg.derive_with(&Baseline).expect("derive");
    let prov = Provenance {
        command: "test export of the HQC-3 two-moduli plan".into(),
        tool_version: TOOL_VERSION.into(),
    };
    for (name, text) in render(&d, &prov).files {
        let p = dir.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(p, text).expect("write");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("dir") {
        let e = e.expect("entry");
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

#[test]
fn the_second_modulus_rule_names_each_problem() {
    let ok = check_second(&second(8, BETA2), 32, 11, N3, 0, None);
    assert_eq!(ok, Ok(8192));
    let err = |s: Second, c: u64, split: Option<&Split>| {
        check_second(&s, 32, 11, N3, c, split).expect_err("bad")
    };
    assert_eq!(
        err(second(8, BETA2), 6912, None),
        SecondError::WithResidue { c: 6912 }
    );
    let sp = Split {
        k: 17_920,
        residual_words: 560,
    };
    assert_eq!(err(second(8, BETA2), 0, Some(&sp)), SecondError::WithSplit);
    assert_eq!(
        err(second(4, BETA2), 0, None),
        SecondError::BadL {
            l: 4,
            min: 5,
            max: 11
        }
    );
    assert!(matches!(
        err(second(12, BETA2), 0, None),
        SecondError::BadL { l: 12, .. }
    ));
    let e = err(second(7, BETA2), 0, None);
    assert_eq!(
        e,
        SecondError::TooSmall {
            n1: 65_536,
            n2: 4096,
            have: 69_632,
            need: 71_701,
            n: N3,
            min_l: 8
        }
    );
    assert!(e.to_string().contains("the second needs l >= 8"), "{e}");
    // with a second modulus the rule replaces the c rule (c = 0, N1 < 2n - 1) ...
    assert_eq!(
        check_full(32, 11, N3, 0, None, Some(&second(8, BETA2))),
        Ok(65_536)
    );
    // ... and without one c = 0 at N = 2^16 breaks the c rule
    assert!(matches!(
        check_full(32, 11, N3, 0, None, None),
        Err(RuleError::CTooSmall { .. })
    ));
    // the configuration refuses it before any table is computed
    let e = hqc3(second(7, BETA2)).validate().expect_err("invalid");
    assert!(e.to_string().contains("N1 + N2"), "{e}");
}

#[test]
fn equal_moduli_and_a_bad_beta2_are_refused() {
    let e = hqc3(second(11, BETA1))
        .derive_with(&Baseline)
        .expect_err("equal moduli");
    assert!(
        matches!(
            e,
            ConfigError::Rule(RuleError::Second(SecondError::NotCoprime { .. }))
        ),
        "{e}"
    );
    assert!(e.to_string().contains("not coprime"), "{e}");
    // beta in V_16: not admissible for any l
    let e = hqc3(second(8, 0x0000_1234))
        .derive_with(&Baseline)
        .expect_err("inadmissible");
    assert!(
        matches!(
            e,
            ConfigError::Rule(RuleError::Second(SecondError::Beta { .. }))
        ),
        "{e}"
    );
    assert!(e.to_string().contains("not admissible for l = 8"), "{e}");
}

#[test]
fn layout_b_pads_small_transforms() {
    assert_eq!(stored_groups(8), 32);
    assert_eq!(stored_groups(11), 64);
    // l = 8: point i = 32 b + t is group t, bit b; word k = bit k of the value
    let mut vals = vec![0u32; 256];
    vals[32 * 3 + 5] = 0b101;
    let t = layout_b(&vals, 8);
    assert_eq!(t.len(), 32 * 32);
    assert_eq!(t[32 * 5], 1 << 3);
    assert_eq!(t[32 * 5 + 2], 1 << 3);
    assert_eq!(t.iter().filter(|&&w| w != 0).count(), 2);
}

#[test]
fn the_hqc3_plan_round_trips_and_a_bad_second_in_the_file_is_refused() {
    let dir = tmp("rt");
    let cfg = hqc3(second(8, BETA2));
    write_export(&cfg, &dir);
    let v = load(&dir.join(PARAMS_FILE))
        .expect("load")
        .verify()
        .expect("verify");
    let s2 = v.params.second.clone().expect("second");
    assert_eq!((s2.l, s2.beta.0, s2.big_n, s2.weight), (8, BETA2, 8192, 21));
    assert_eq!(s2.dir, "second");
    assert_eq!(v.derived.cfg, cfg);
    for f in [
        "twomod_defs.h",
        "second/fafft_params.h",
        "second/gft_mul_s_inv_8_beta.S",
        "second/encode_to_gft_full_length.S",
    ] {
        assert!(v.params.files.contains_key(f), "{f} not in files");
    }
    let h = std::fs::read_to_string(dir.join("fafft_params.h")).expect("header");
    assert!(h.contains("#define TWOMOD_L2 8 "), "{h}");
    assert!(h.contains("#define CRT_C 0"), "{h}");
    let t = std::fs::read_to_string(dir.join("twomod_defs.h")).expect("tables");
    assert!(t.contains("#define TWOMOD_N2 8192"), "{t}");
    assert!(t.contains("#define TWOMOD_M1_WEIGHT 199"), "{t}");
    assert!(t.contains(&format!("#define TWOMOD_W_WEIGHT {}", s2.w_weight)));
    let h2 = std::fs::read_to_string(dir.join("second/fafft_params.h")).expect("header 2");
    assert!(h2.contains("#define FAFFT_L 8"), "{h2}");
    assert!(!h2.contains("TWOMOD"), "{h2}");

    let text = std::fs::read_to_string(dir.join(PARAMS_FILE)).expect("read");
    let orig: Value = serde_json::from_str(&text).expect("json");
    let refused = |tag: &str, edit: &dyn Fn(&mut Value)| {
        let d = tmp(tag);
        copy_tree(&dir, &d);
        let mut v = orig.clone();
        edit(&mut v);
        spec::restamp(&mut v);
        std::fs::write(
            d.join(PARAMS_FILE),
            serde_json::to_string_pretty(&v).expect("ser"),
        )
        .expect("write");
        let e = load(&d.join(PARAMS_FILE))
            .and_then(|l| l.verify())
            .expect_err("must be refused");
        let _ = std::fs::remove_dir_all(&d);
        e
    };
    let e = refused("l7", &|v| v["second"]["l"] = json!(7));
    assert_eq!(e.field().as_deref(), Some("second"), "{e}");
    assert!(e.to_string().contains("N1 + N2 = 65536 + 4096"), "{e}");
    let e = refused("l4", &|v| v["second"]["l"] = json!(4));
    assert_eq!(e.field().as_deref(), Some("second"), "{e}");
    assert!(e.to_string().contains("outside 5..=11"), "{e}");
    let e = refused("c", &|v| v["c"] = json!(6912));
    assert_eq!(e.field().as_deref(), Some("second"), "{e}");
    assert!(e.to_string().contains("no residue ring"), "{e}");
    // another admissible beta2 (here beta1 at l = 8, coprime): the derived M2 differs
    let e = refused("beta", &|v| v["second"]["beta"] = json!("0x00112c53"));
    assert_eq!(e.field().as_deref(), Some("second.exponents"), "{e}");
    let e = refused("weight", &|v| v["second"]["weight"] = json!(23));
    assert_eq!(e.field().as_deref(), Some("second.weight"), "{e}");
    let e = refused("w", &|v| {
        v["second"]["w_evals_sha256"] = json!("00".repeat(32));
    });
    assert_eq!(e.field().as_deref(), Some("second.w_evals_sha256"), "{e}");
    // without the field, c = 0 at N = 2^16 breaks the c rule
    let e = refused("none", &|v| {
        v.as_object_mut().map(|m| m.remove("second"));
    });
    assert_eq!(e.field().as_deref(), Some("c"), "{e}");
    // a table edited in the file (a changed F2(W) word) is refused by its digest
    let d = tmp("table");
    copy_tree(&dir, &d);
    let tf = d.join("twomod_defs.h");
    let t = std::fs::read_to_string(&tf).expect("read");
    let at = t.find("twomod_w_evals[").expect("table");
    let edited = format!("{}{}", &t[..at], t[at..].replacen("0x", "0x1", 1));
    std::fs::write(&tf, edited).expect("write");
    let e = load(&d.join(PARAMS_FILE))
        .and_then(|l| l.verify())
        .expect_err("edited table");
    assert_eq!(e.field().as_deref(), Some("files.twomod_defs.h"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_modulus_no_field() {
    let cfg = Config::new(32, 11, BETA1, Chain::Default, 8192, N3);
    assert!(cfg.second.is_none());
    let d = cfg.derive_with(&Baseline).expect("derive");
    assert!(d.second.is_none());
    let prov = Provenance {
        command: "t".into(),
        tool_version: TOOL_VERSION.into(),
    };
    let r = render(&d, &prov);
    assert!(r.files.iter().all(|(n, _)| !n.starts_with("second/")));
    let (_, params) = r
        .files
        .iter()
        .find(|(n, _)| n == PARAMS_FILE)
        .expect("params");
    assert!(!params.contains("\"second\""));
}
