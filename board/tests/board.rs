//! `hqc-verify board` end to end on the emulated Cortex-M4 (QEMU mps2-an386).
//!
//! The configurations are exported with `fafft_config` (the exporter of `search export`, with
//! the cheap `Baseline` programs and routines: correct and verified, only not the optimised
//! ones, so the counts here are not the README's) into
//! `target/tmp/board-exports/` (files are rewritten only when their contents change, so the
//! firmware and m4kem builds under `build/board-run/` and `build/m4kem/` are reused between
//! runs). No file outside the repository is read: the board's KAT entries are judged by the
//! committed per-entry pins (`hqc-verify/kat/entries/`), and `HQC_KAT_DIR` is removed from the
//! environment of this test process.
//!
//! | test | configuration | KAT entries |
//! |---|---|---|
//! | `hqc1_published` | HQC-1, l = 10, c = 3072, β = 0x00103674, artifact chain | 10 per flavour, both |
//! | `hqc3_published` | HQC-3, l = 11, c = 8192, β = 0x00103674, artifact chain | 10 per flavour, both |
//! | `hqc5_canonical` | HQC-5, l = 12, c = 0, β = 0x00012f9a, default chain | 10 per flavour, both |
//! | `hqc1_split` | HQC-1, l = 10, c = 0, β = 0x00012f9a, split k = 16160, 48 residual words | 10 per flavour, both |
//! | `hqc3_two_moduli` | HQC-3, M1: l = 11, β = 0x00112c53; M2: l = 8, β = 0x0093b187 (rank 2 of `search crt`), c = 0 | 2 per flavour, both |
//! | `invalid_second_is_an_error` | copies of the two-moduli export with a re-stamped bad second modulus | — |
//! | `invalid_split_is_an_error` | copies of the split export with a re-stamped bad k or residual | — |
//! | `altered_modulus_exponent_fails` | HQC-1 copy, one exponent of `minpoly_mods_defs.h` changed | — |
//! | `invalid_params_are_errors` | missing, non-JSON, wrong level, edited field, non-HQC n, missing header, missing KAT folder | — |
//!
//! The toolchain (arm-none-eabi-gcc, qemu-system-arm, Debian rust-web) is installed by the
//! command itself when missing (`scripts/install-board-deps.sh`, `scripts/install-rust-web.sh`);
//! if that is impossible the tests fail with the scripts' message. The full KAT set (100 entries
//! per flavour) is `hqc-verify board --params DIR/params.json --count 100`.

mod board_support;

use std::path::Path;

use fafft_config::transform::Chain;

use hqc_board::{self as board, BoardArgs};
use hqc_verify::core::params::{Flavour, Level};

use board_support::*;

#[test]
fn hqc1_published() {
    let p = &exports()[0];
    let r = passes(p, Level::Hqc1);
    let stages = r.counts.stages.as_ref().expect("stages");
    let st = &stages.instructions;
    assert!(
        st.residue_product > 0 && st.reconstruction > 0,
        "HQC-1 has a residue ring"
    );
    let row = r
        .model
        .as_ref()
        .and_then(|m| m.rows.iter().find(|x| x.component == "reconstruction"));
    assert!(
        row.is_some_and(|x| x.counted_instructions == Some(st.reconstruction)
            && x.estimated_cycles == Some(stages.cycles.reconstruction))
    );
    // instruction counts and cycle estimates are deterministic: a second run gives the same
    // JSON (and text) byte for byte
    let again = run(&args(p, &Flavour::ALL, 10));
    assert_eq!(
        serde_json::to_string_pretty(&r).expect("json"),
        serde_json::to_string_pretty(&again).expect("json"),
        "the report differs between two runs"
    );
    assert_eq!(board::render_text(&r), board::render_text(&again));
    let json: serde_json::Value = serde_json::to_value(&r).expect("json");
    assert!(json["counts"]["ring_product_cycles"].is_u64());
    assert!(json["counts"]["stages"]["cycles"]["forward"].is_u64());
    assert!(
        json["counts"]["stages"]["forward"].is_u64(),
        "instructions stay at the top level"
    );
    assert_eq!(
        json["schema_version"],
        serde_json::json!(board::SCHEMA_VERSION)
    );
}

#[test]
fn hqc3_published() {
    let r = passes(&exports()[1], Level::Hqc3);
    assert!(r
        .counts
        .stages
        .as_ref()
        .is_some_and(|s| s.instructions.reconstruction > 0 && s.cycles.reconstruction > 0));
}

#[test]
fn hqc5_canonical() {
    let r = passes(&exports()[2], Level::Hqc5);
    let st = &r.counts.stages.as_ref().expect("stages").instructions;
    assert_eq!(
        (st.residue_product, st.reconstruction),
        (0, 0),
        "HQC-5 has no residue ring"
    );
}

/// A residue ring longer than the operands (c > n: the firmware zero-pads f and g to c bits for
/// f·g mod x^c; without that it read past them, which the planner's HQC-5 rank-5 plan
/// 2^16 + x^65536 once showed as a failed CRT product).
#[test]
fn hqc1_residue_longer_than_n() {
    no_kat_dir();
    let p = export(
        "hqc1-c18432",
        17_669,
        10,
        18_432,
        0x0028_b51f,
        Chain::Default,
    );
    let r = run(&args(&p, &[Flavour::V2026_02], 2));
    assert!(r.passed, "board run failed:\n{}", failures(&r));
    for name in [
        "firmware: test_mul: CRT product = schoolbook product",
        "firmware: test_mul: ring product = schoolbook mod x^n - 1",
    ] {
        assert!(check(&r, name).passed, "{name}");
    }
    assert_eq!(r.kat.len(), 1);
    assert_eq!((r.kat[0].passed, r.kat[0].run), (2, 2));
}

#[test]
fn hqc1_split() {
    no_kat_dir();
    // the planner's HQC-1 karatsuba2 plan: N = 2^15, canonical β, k = 16160, 48 residual words
    let p = export_split("hqc1-split", 17_669, 10, 0x0001_2f9a, 16_160, 48);
    let r = passes(&p, Level::Hqc1);
    assert!(
        check(
            &r,
            "firmware: test_mul: split product = schoolbook at k_min, k_max"
        )
        .passed
    );
    let stages = r.counts.stages.as_ref().expect("stages");
    let st = &stages.instructions;
    // four forwards, two pointwise products, two inverses, the residual, the additions
    assert!(st.residue_product > 0 && st.reconstruction > 0, "{st:?}");
    let region = |l: &str| {
        stages
            .regions
            .iter()
            .find(|(n, _)| n == l)
            .map(|x| x.1)
            .unwrap_or(0)
    };
    assert_eq!(
        st.forward,
        region("forward(f0)")
            + region("forward(g0)")
            + region("forward(f0+f1)")
            + region("forward(g0+g1)")
    );
    assert_eq!(st.inverse, region("inverse(P0)") + region("inverse(P1)"));
    assert_eq!(st.residue_product, region("residual f1*g1"));
    let model = r.model.as_ref().expect("model");
    let row = model
        .rows
        .iter()
        .find(|x| x.component == "residual product f1·g1")
        .expect("residual row");
    assert_eq!(row.counted_instructions, Some(st.residue_product));
}

#[test]
fn hqc3_two_moduli() {
    no_kat_dir();
    // the planner's HQC-3 rank-2 plan: 2^16 (+) 2^13
    let p = export_two_moduli("hqc3-two-moduli", 35_851, 11, 0x0011_2c53, 8, 0x0093_b187);
    let r = run(&args(&p, &Flavour::ALL, 2));
    assert!(
        r.passed,
        "HQC-3 two-moduli board run failed:\n{}",
        failures(&r)
    );
    for name in [
        "firmware: test_mul: two moduli: F2(W) table = forward2(W)",
        "firmware: test_mul: two moduli: all-ones product = schoolbook",
        "firmware: test_mul: CRT product = schoolbook product",
        "firmware: test_mul: ring product = schoolbook mod x^n - 1",
        "firmware: board and host print the same product hashes",
    ] {
        assert!(check(&r, name).passed, "{name}");
    }
    assert_eq!(r.kat.len(), 2);
    for k in &r.kat {
        assert_eq!(
            (k.passed, k.run, k.qemu_exit),
            (2, 2, Some(0)),
            "{}",
            k.flavour
        );
    }
    assert_eq!(r.params.second.as_ref().map(|s| s.l), Some(8));
    let stages = r.counts.stages.as_ref().expect("stages");
    let st = &stages.instructions;
    let region = |l: &str| {
        stages
            .regions
            .iter()
            .find(|(n, _)| n == l)
            .map(|x| x.1)
            .unwrap_or(0)
    };
    // two forwards at N1 and three at N2, one inverse each, the reductions, the reconstruction
    assert_eq!(
        st.forward,
        region("forward(f)")
            + region("forward(g)")
            + region("forward2(f mod M2)")
            + region("forward2(g mod M2)")
            + region("forward2(h1 mod M2)")
    );
    assert_eq!(st.inverse, region("inverse") + region("inverse2(u)"));
    assert_eq!(
        st.residue_product,
        region("twomod: f mod M2") + region("twomod: g mod M2")
    );
    assert!(region("twomod: h1 + M1*u") > 0 && st.reconstruction > region("twomod: h1 + M1*u"));
    let model = r.model.as_ref().expect("model");
    let row = model
        .rows
        .iter()
        .find(|x| x.component == "reductions f, g mod M2")
        .expect("reductions row");
    assert_eq!(row.counted_instructions, Some(st.residue_product));
}

/// An edit of a params.json value.
type Edit = dyn Fn(&mut serde_json::Value);

#[test]
fn invalid_second_is_an_error() {
    no_kat_dir();
    let good = export_two_moduli(
        "hqc3-two-moduli-src",
        35_851,
        11,
        0x0011_2c53,
        8,
        0x0093_b187,
    );
    let root = exports_root().join("invalid-second");
    let _ = std::fs::remove_dir_all(&root);
    let src = good.parent().expect("dir");
    let text = std::fs::read_to_string(&good).expect("read");
    let orig: serde_json::Value = serde_json::from_str(&text).expect("json");
    let cases: [(&str, &Edit, &str); 3] = [
        (
            "l7",
            &|v| v["second"]["l"] = serde_json::json!(7),
            "N1 + N2 = 65536 + 4096",
        ),
        (
            "l4",
            &|v| v["second"]["l"] = serde_json::json!(4),
            "outside 5..=11",
        ),
        (
            "c",
            &|v| v["c"] = serde_json::json!(6912),
            "no residue ring",
        ),
    ];
    for (tag, edit, needle) in cases {
        let d = root.join(tag);
        copy_tree(src, &d);
        let mut v = orig.clone();
        edit(&mut v);
        fafft_config::spec::restamp(&mut v);
        std::fs::write(d.join("params.json"), v.to_string()).expect("write");
        let a = BoardArgs::new(d.join("params.json"));
        expect_err(&a, "field `second`");
        expect_err(&a, needle);
    }
}

#[test]
fn invalid_split_is_an_error() {
    no_kat_dir();
    let good = export_split("hqc1-split-src", 17_669, 10, 0x0001_2f9a, 16_160, 48);
    let root = exports_root().join("invalid-split");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("mkdir");
    let src = good.parent().expect("dir");
    for (k, w, needle) in [
        (16_161u64, 48u64, "not a multiple of 32"),
        (16_416, 48, "2k = 32832 > N = 32768"),
        (8_832, 300, "n - k = 8837 > k"),
        (16_160, 40, "shorter than n - k"),
    ] {
        let d = root.join(format!("k{k}-w{w}"));
        std::fs::create_dir_all(&d).expect("mkdir");
        for e in std::fs::read_dir(src).expect("dir") {
            let e = e.expect("entry");
            std::fs::copy(e.path(), d.join(e.file_name())).expect("copy");
        }
        let text = std::fs::read_to_string(&good).expect("read");
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
        v["split"] = serde_json::json!({"k": k, "residual_words": w});
        fafft_config::spec::restamp(&mut v);
        std::fs::write(d.join("params.json"), v.to_string()).expect("write");
        let a = BoardArgs::new(d.join("params.json"));
        expect_err(&a, "field `split`");
        expect_err(&a, needle);
    }
}

/// Changes one exponent of M in a copy of the HQC-1 headers (both forms of
/// minpoly_mods_defs.h); returns (old exponent, new exponent).
fn alter_one_exponent(dir: &Path) -> (u64, u64) {
    let path = dir.join("minpoly_mods_defs.h");
    let text = std::fs::read_to_string(&path).expect("read minpoly_mods_defs.h");
    // class r = 1: its first listed entry a (e = 32a + 1) becomes a + 1 if that is free
    let grab = |name: &str| -> (usize, usize) {
        let at = text.find(&format!("{name}[")).expect("array present");
        let open = at + text[at..].find('{').expect("{");
        let close = open + text[open..].find('}').expect("}");
        (open + 1, close)
    };
    let (o, c) = grab("minpoly_mod_1");
    let class1: Vec<u64> = text[o..c]
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let big_n: u64 = std::fs::read_to_string(dir.join("fafft_params.h"))
        .expect("read fafft_params.h")
        .lines()
        .find_map(|l| {
            l.strip_prefix("#define FAFFT_N ")
                .and_then(|v| v.trim().parse().ok())
        })
        .expect("FAFFT_N");
    let a = *class1
        .iter()
        .find(|&&a| !class1.contains(&(a + 1)) && 32 * (a + 1) + 1 < big_n)
        .expect("a movable class-1 exponent");
    let (old, new) = (32 * a + 1, 32 * (a + 1) + 1);
    // replace the first occurrence of `a` inside minpoly_mod_1 and inside minpoly_flat's class-1 part
    let replace_first = |t: &str, range: (usize, usize), skip: usize| -> String {
        let body = &t[range.0..range.1];
        let mut out = String::new();
        let mut idx = 0usize;
        let mut done = false;
        for (i, tok) in body.split(',').enumerate() {
            if i > 0 {
                out.push(',');
            }
            if !done && tok.trim().parse::<u64>().ok() == Some(a) && idx >= skip {
                out.push_str(&tok.replace(&a.to_string(), &(a + 1).to_string()));
                done = true;
            } else {
                out.push_str(tok);
            }
            if tok.trim().parse::<u64>().is_ok() {
                idx += 1;
            }
        }
        assert!(done, "exponent entry not found");
        format!("{}{}{}", &t[..range.0], out, &t[range.1..])
    };
    let t1 = replace_first(&text, (o, c), 0);
    // minpoly_flat: class 1 starts at minpoly_offsets[1] = number of class-0 entries
    let at0 = t1.find("minpoly_mod_0[").expect("class 0");
    let n0: usize = t1[at0 + 14..]
        .split(']')
        .next()
        .expect("dim")
        .trim()
        .parse()
        .expect("class-0 length");
    let at = t1.find("minpoly_flat[").expect("flat");
    let open = at + t1[at..].find('{').expect("{");
    let close = open + t1[open..].find('}').expect("}");
    let t2 = replace_first(&t1, (open + 1, close), n0);
    std::fs::write(&path, t2).expect("write altered header");
    (old, new)
}

#[test]
fn altered_modulus_exponent_fails() {
    let src = exports()[0].parent().expect("dir").to_path_buf();
    let dir = exports_root().join("hqc1-altered-exponent");
    // copy only when the source changed, so the build is reused between runs
    let files: Vec<(String, String)> = std::fs::read_dir(&src)
        .expect("read export")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("read"),
            )
        })
        .collect();
    let mut tmp = dir.clone();
    tmp.set_file_name("hqc1-altered-exponent.tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    sync_dir(&tmp, &files);
    let (old, new) = alter_one_exponent(&tmp);
    let altered = std::fs::read_to_string(tmp.join("minpoly_mods_defs.h")).expect("read");
    let _ = std::fs::remove_dir_all(&tmp);
    let files: Vec<(String, String)> = files
        .into_iter()
        .map(|(n, t)| {
            if n == "minpoly_mods_defs.h" {
                (n, altered.clone())
            } else {
                (n, t)
            }
        })
        .collect();
    sync_dir(&dir, &files);

    // the reader refuses the folder: the header is not the one params.json names
    let a = args(&dir.join("params.json"), &[Flavour::V2026_02], 1);
    expect_err(&a, "minpoly_mods_defs.h");
    // the firmware built from the altered header as it is: the on-board checks catch it
    let (checks, _) = match board::firmware_checks(&dir, &a) {
        Ok(x) => x,
        Err(e) => panic!("the firmware steps could not run: {e}"),
    };
    let find = |prefix: &str| {
        checks
            .iter()
            .find(|c| c.name.starts_with(prefix))
            .unwrap_or_else(|| panic!("no check named {prefix}…; checks: {checks:#?}"))
    };
    assert!(
        find("firmware: build").passed,
        "{}",
        find("firmware: build").detail
    );
    // the on-board black-box extraction names the mismatch and the first differing exponent
    let ex = find("firmware: test_mul: extracted modulus");
    assert!(
        !ex.passed,
        "on-board modulus extraction must fail: {}",
        ex.detail
    );
    let first = old.min(new);
    assert!(
        ex.detail
            .contains(&format!("first differing exponent {first}")),
        "detail should name exponent {first}: {}",
        ex.detail
    );
    // the products through the wrong reconstruction fail too
    assert!(!find("firmware: test_mul: CRT product = schoolbook product").passed);
    assert!(!find("firmware: test_mul exit status").passed);
}

fn expect_err(a: &BoardArgs, needle: &str) {
    match board::execute(a) {
        Ok(r) => panic!(
            "expected an error containing {needle:?}, got a report (passed = {})",
            r.passed
        ),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains(needle),
                "error {msg:?} should contain {needle:?}"
            );
        }
    }
}

#[test]
fn invalid_params_are_errors() {
    let good = &exports()[0];
    let root = exports_root().join("invalid");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("mkdir");

    expect_err(&BoardArgs::new(root.join("nope.json")), "does not exist");

    let bad = root.join("bad.json");
    std::fs::write(&bad, "{ not json").expect("write");
    expect_err(&BoardArgs::new(&bad), "is not a valid JSON object");

    let mut a = BoardArgs::new(good);
    a.level = Some(Level::Hqc3);
    expect_err(&a, "--level 3 does not match");

    // a hand edit breaks the checksum
    let text = std::fs::read_to_string(good).expect("read");
    let edited_dir = root.join("edited");
    std::fs::create_dir_all(&edited_dir).expect("mkdir");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["c"] = serde_json::json!(4096);
    std::fs::write(edited_dir.join("params.json"), v.to_string()).expect("write");
    expect_err(
        &BoardArgs::new(edited_dir.join("params.json")),
        "checksum mismatch",
    );

    // headers missing next to a valid params.json
    std::fs::write(edited_dir.join("params.json"), &text).expect("write");
    expect_err(
        &BoardArgs::new(edited_dir.join("params.json")),
        "is missing (expected next to params.json)",
    );

    // a valid export for a ring size that is not HQC's: the board names it
    let odd = export("not-hqc-n", 12_345, 10, 0, 0x0010_3674, Chain::Default);
    expect_err(&BoardArgs::new(&odd), "n = 12345 is not an HQC ring size");

    // a KAT folder named explicitly must exist
    let mut a = BoardArgs::new(good);
    a.kat_dir = Some(root.join("no-such-kat-folder"));
    expect_err(&a, "does not exist");
}
