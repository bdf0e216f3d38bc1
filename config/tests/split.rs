//! The 2-Karatsuba split of an export (docs/fafft.md §9.11, params.json `split`): the rule
//! refuses every bad k and residual with a typed error naming the problem; a split export
//! round-trips through load + verify and writes `SPLIT_K` / `SPLIT_RW` into fafft_params.h;
//! a re-stamped bad split in the file is refused naming the field `split`.

use fafft_config::artefacts::Baseline;
use fafft_config::derive::Config;
use fafft_config::export::render;
use fafft_config::published::CANONICAL_BETA;
use fafft_config::rules::{check_split, check_with_split, RuleError, Split, SplitError};
use fafft_config::spec::{self, load, Provenance, PARAMS_FILE, TOOL_VERSION};
use fafft_config::transform::Chain;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const N1: u64 = 17_669; // HQC-1
const BIG_N: u64 = 32_768; // l = 10

fn split(k: u64, residual_words: u64) -> Split {
    Split { k, residual_words }
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fafft-split-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn hqc1_split(k: u64, w: u64) -> Config {
    Config::new(32, 10, CANONICAL_BETA, Chain::Default, 0, N1).with_split(Some(split(k, w)))
}

fn write_export(cfg: &Config, dir: &Path) {
    let d = cfg.derive_with(&Baseline).expect("derive");
    let prov = Provenance {
        command: format!("test export of {cfg:?}"),
        tool_version: TOOL_VERSION.into(),
    };
    for (name, text) in render(&d, &prov).files {
        std::fs::write(dir.join(name), text).expect("write");
    }
}

#[test]
fn the_split_rule_names_each_problem() {
    // valid: the edges (smallest k = 32·⌈n/64⌉ with the exact residual, largest k = 32·⌊N/64⌋)
    // and the planner's HQC-1 choice
    for (k, w) in [(8864, 277), (16384, 41), (16160, 48)] {
        assert_eq!(check_split(&split(k, w), N1, BIG_N, 0), Ok(()), "k = {k}");
    }
    let err = |k: u64, w: u64, c: u64| check_split(&split(k, w), N1, BIG_N, c).expect_err("bad");
    assert_eq!(err(16160, 48, 3072), SplitError::WithResidue { c: 3072 });
    assert_eq!(err(16161, 48, 0), SplitError::KNotWordMultiple { k: 16161 });
    assert!(err(16161, 48, 0)
        .to_string()
        .contains("not a multiple of 32"));
    assert_eq!(
        err(8832, 300, 0),
        SplitError::HighTooLong {
            k: 8832,
            high: N1 - 8832,
            min_k: 8864
        }
    );
    assert!(err(8832, 300, 0)
        .to_string()
        .contains("smallest valid k is 8864"));
    assert_eq!(
        err(16416, 48, 0),
        SplitError::TooLarge {
            k: 16416,
            two_k: 32832,
            big_n: BIG_N,
            max_k: 16384
        }
    );
    assert!(err(16416, 48, 0)
        .to_string()
        .contains("largest valid k is 16384"));
    assert_eq!(
        err(17696, 48, 0),
        SplitError::KNotBelowN { k: 17696, n: N1 }
    );
    assert_eq!(
        err(16160, 47, 0),
        SplitError::ResidualTooSmall {
            words: 47,
            bits: 1504,
            high: 1509
        }
    );
    assert!(matches!(
        err(16160, 1025, 0),
        SplitError::ResidualTooLarge { .. }
    ));
    // with a split, the split rule replaces the c rule (c = 0 and N < 2n - 1 is fine) ...
    assert_eq!(
        check_with_split(32, 10, N1, 0, Some(&split(16160, 48))),
        Ok(BIG_N)
    );
    // ... and without one the c rule still refuses c = 0 at N = 2^15
    assert!(matches!(
        check_with_split(32, 10, N1, 0, None),
        Err(RuleError::CTooSmall { .. })
    ));
    // the configuration refuses it before any table is computed
    let e = hqc1_split(16161, 48).validate().expect_err("invalid");
    assert!(e.to_string().contains("not a multiple of 32"), "{e}");
}

#[test]
fn a_split_export_round_trips_and_a_bad_split_in_the_file_is_refused() {
    let dir = tmp("rt");
    let cfg = hqc1_split(16160, 48);
    write_export(&cfg, &dir);
    let v = load(&dir.join(PARAMS_FILE))
        .expect("load")
        .verify()
        .expect("verify");
    assert_eq!(v.params.split, Some(split(16160, 48)));
    assert_eq!(v.derived.cfg, cfg);
    let h = std::fs::read_to_string(dir.join("fafft_params.h")).expect("header");
    assert!(h.contains("#define SPLIT_K 16160 "), "{h}");
    assert!(h.contains("#define SPLIT_RW 48 "), "{h}");
    assert!(h.contains("#define CRT_C 0"), "{h}");
    let text = std::fs::read_to_string(dir.join(PARAMS_FILE)).expect("read");
    let orig: Value = serde_json::from_str(&text).expect("json");
    let refused = |tag: &str, edit: &dyn Fn(&mut Value)| {
        let d = tmp(tag);
        for e in std::fs::read_dir(&dir).expect("dir") {
            let e = e.expect("entry");
            std::fs::copy(e.path(), d.join(e.file_name())).expect("copy");
        }
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
    let e = refused("k31", &|v| v["split"]["k"] = json!(16161));
    assert_eq!(e.field().as_deref(), Some("split"), "{e}");
    assert!(e.to_string().contains("not a multiple of 32"), "{e}");
    let e = refused("kbig", &|v| v["split"]["k"] = json!(16416));
    assert_eq!(e.field().as_deref(), Some("split"), "{e}");
    assert!(e.to_string().contains("2k = 32832 > N = 32768"), "{e}");
    let e = refused("ksmall", &|v| v["split"]["k"] = json!(8832));
    assert!(e.to_string().contains("n - k = 8837 > k"), "{e}");
    let e = refused("rw", &|v| v["split"]["residual_words"] = json!(40));
    assert!(e.to_string().contains("shorter than n - k"), "{e}");
    // a valid but different split: the header no longer matches (SPLIT_K in fafft_params.h)
    let e = refused("other", &|v| v["split"]["k"] = json!(16384));
    assert!(
        e.to_string().contains("files") || e.to_string().contains("config_id"),
        "{e}"
    );
    // without the split field, c = 0 at N = 2^15 breaks the c rule
    let e = refused("none", &|v| {
        v.as_object_mut().map(|m| m.remove("split"));
    });
    assert_eq!(e.field().as_deref(), Some("c"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_split_no_field() {
    let cfg = Config::new(32, 10, CANONICAL_BETA, Chain::Default, 3072, N1);
    let d = cfg.derive_with(&Baseline).expect("derive");
    let prov = Provenance {
        command: "t".into(),
        tool_version: TOOL_VERSION.into(),
    };
    let r = render(&d, &prov);
    let (_, params) = r
        .files
        .iter()
        .find(|(n, _)| n == PARAMS_FILE)
        .expect("params");
    assert!(!params.contains("\"split\""));
    let (_, h) = r
        .files
        .iter()
        .find(|(n, _)| n == "fafft_params.h")
        .expect("header");
    assert!(!h.contains("SPLIT_K"));
}
