//! Shared helpers of `tests/board.rs`: the exports the tests run, the board run and the
//! checks every passing run must satisfy.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fafft_config::derive::Config;
use fafft_config::export::{command_of, render};
use fafft_config::spec::Provenance;
use fafft_config::transform::Chain;

use hqc_board::{self as board, BoardArgs, BoardReport, FlavourSel};
use hqc_verify::core::params::{Flavour, Level};

pub fn exports_root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("board-exports")
}

/// No outside KAT folder: the pins alone must judge the board.
pub fn no_kat_dir() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| std::env::remove_var("HQC_KAT_DIR"));
}

/// Writes `files` into `dir`, touching only files whose contents differ.
pub fn sync_dir(dir: &Path, files: &[(String, String)]) {
    std::fs::create_dir_all(dir).expect("create export dir");
    for (name, text) in files {
        let p = dir.join(name);
        if std::fs::read_to_string(&p).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&p, text).expect("write export file");
        }
    }
}

pub fn export(name: &str, n: u64, l: u32, c: u64, beta: u32, chain: Chain) -> PathBuf {
    let dir = exports_root().join(name);
    let cfg = Config::new(32, l, beta, chain, c, n);
    let d = cfg
        .derive_with(&fafft_config::artefacts::Baseline)
        .expect("the configuration derives");
    let prov = Provenance {
        command: command_of(&cfg, &dir),
        tool_version: fafft_config::spec::TOOL_VERSION.into(),
    };
    sync_dir(&dir, &render(&d, &prov).files);
    dir.join("params.json")
}

/// The three exports, made once per test process.
/// A 2-Karatsuba split export (docs/fafft.md §9.11): c = 0, split point k, residual of w words.
pub fn export_split(name: &str, n: u64, l: u32, beta: u32, k: u64, w: u64) -> PathBuf {
    let dir = exports_root().join(name);
    let cfg = Config::new(32, l, beta, Chain::Default, 0, n).with_split(Some(
        fafft_config::rules::Split {
            k,
            residual_words: w,
        },
    ));
    let d = cfg
        .derive_with(&fafft_config::artefacts::Baseline)
        .expect("the split configuration derives");
    let prov = Provenance {
        command: command_of(&cfg, &dir),
        tool_version: fafft_config::spec::TOOL_VERSION.into(),
    };
    sync_dir(&dir, &render(&d, &prov).files);
    dir.join("params.json")
}

/// A two-moduli export (docs/fafft.md §9.8): c = 0, the second modulus (l2, β2).
pub fn export_two_moduli(name: &str, n: u64, l: u32, beta: u32, l2: u32, beta2: u32) -> PathBuf {
    let dir = exports_root().join(name);
    let cfg = Config::new(32, l, beta, Chain::Default, 0, n)
        .with_second(Some(fafft_config::rules::Second { l: l2, beta: beta2 }));
    let d = cfg
        .derive_with(&fafft_config::artefacts::Baseline)
        .expect("the two-moduli configuration derives");
    let prov = Provenance {
        command: command_of(&cfg, &dir),
        tool_version: fafft_config::spec::TOOL_VERSION.into(),
    };
    std::fs::create_dir_all(dir.join(fafft_config::spec::SECOND_DIR)).expect("mkdir second");
    sync_dir(&dir, &render(&d, &prov).files);
    dir.join("params.json")
}

/// Copies an export folder (with its second/ folder).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("dir") {
        let e = e.expect("entry");
        if e.path().is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

pub fn exports() -> &'static [PathBuf; 3] {
    static E: OnceLock<[PathBuf; 3]> = OnceLock::new();
    E.get_or_init(|| {
        no_kat_dir();
        [
            export(
                "hqc1-published",
                17_669,
                10,
                3072,
                0x0010_3674,
                Chain::Artifact,
            ),
            export(
                "hqc3-published",
                35_851,
                11,
                8192,
                0x0010_3674,
                Chain::Artifact,
            ),
            export("hqc5-canonical", 57_637, 12, 0, 0x0001_2f9a, Chain::Default),
        ]
    })
}

pub fn args(params: &Path, flavours: &[Flavour], count: u16) -> BoardArgs {
    let mut a = BoardArgs::new(params);
    a.flavour = FlavourSel(flavours.to_vec());
    a.count = count;
    a
}

pub fn run(a: &BoardArgs) -> BoardReport {
    match board::execute(a) {
        Ok(r) => r,
        Err(e) => panic!(
            "hqc-verify board could not run for {} (toolchain or KAT files missing?): {e:#}",
            a.params.display()
        ),
    }
}

pub fn failures(r: &BoardReport) -> String {
    r.checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| format!("{}: {}", c.name, c.detail))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn check<'a>(r: &'a BoardReport, prefix: &str) -> &'a board::Check {
    r.checks
        .iter()
        .find(|c| c.name.starts_with(prefix))
        .unwrap_or_else(|| panic!("no check named {prefix}…; checks: {:#?}", r.checks))
}

/// The published/canonical configuration passes every check: on-board modulus extraction,
/// random products against the on-board schoolbook product, 10 KAT entries per flavour, and
/// the counts are there.
pub fn passes(params: &Path, level: Level) -> BoardReport {
    let r = run(&args(params, &Flavour::ALL, 10));
    assert!(r.passed, "{level} board run failed:\n{}", failures(&r));
    assert_eq!(r.params.level, level.name());
    for name in [
        "firmware: test_mul: extracted modulus",
        "firmware: test_mul: CRT product = schoolbook product",
        "firmware: test_mul: ring product = schoolbook mod x^n - 1",
        "firmware: test_field: inverse(forward(f)) = f",
        "firmware: board and host print the same product hashes",
    ] {
        assert!(check(&r, name).passed, "{name}");
    }
    assert_eq!(r.kat.len(), 2);
    let kat_checks: Vec<&board::Check> = r
        .checks
        .iter()
        .filter(|c| c.name.starts_with("kem: ") && c.name.contains("KAT entries"))
        .collect();
    assert_eq!(kat_checks.len(), 2);
    for c in kat_checks {
        assert!(
            c.detail
                .contains("the committed pins hqc-verify/kat/entries/"),
            "judged by the committed pins: {}",
            c.detail
        );
    }
    for k in &r.kat {
        assert_eq!(
            (k.passed, k.run, k.qemu_exit),
            (10, 10, Some(0)),
            "{level} {}",
            k.flavour
        );
        assert!(k.keygen.is_some() && k.encaps.is_some() && k.decaps.is_some());
    }
    let stages = r.counts.stages.as_ref().expect("stage counts");
    let st = &stages.instructions;
    let prod = r.counts.ring_product.expect("ring product count");
    assert!(st.forward > 0 && st.inverse > 0 && st.pointwise > 0 && st.butterflies > 0);
    assert!(
        st.instrumented_total >= prod,
        "stage markers only add instructions"
    );
    cycles_everywhere(&r);
    let m = r.model.as_ref().expect("cost model");
    let last = m.rows.last().expect("product row");
    assert!(last.counted_instructions.is_some() && last.ratio_to_ops.is_some());
    r
}

/// Every region of the report has estimated cycles, and at least one cycle per instruction
/// (every rule of docs/m4-timing.md costs an instruction at least 1 cycle); the report and
/// its text name the timing rules, and, without a KAT folder, say that the pins judged.
pub fn cycles_everywhere(r: &BoardReport) {
    let at_least = |what: &str, ins: Option<u64>, cyc: Option<u64>| match (ins, cyc) {
        (Some(i), Some(c)) => assert!(
            c >= i && i > 0,
            "{what}: {c} estimated cycles < {i} instructions"
        ),
        _ => panic!("{what}: instructions {ins:?}, estimated cycles {cyc:?}"),
    };
    at_least(
        "ring product",
        r.counts.ring_product,
        r.counts.ring_product_cycles,
    );
    let stages = r.counts.stages.as_ref().expect("stage counts");
    assert_eq!(stages.regions.len(), stages.region_cycles.len());
    assert!(!stages.regions.is_empty());
    for ((label, i), (label_c, c)) in stages.regions.iter().zip(&stages.region_cycles) {
        assert_eq!(label, label_c, "region_cycles in the order of regions");
        at_least(label, Some(*i), Some(*c));
    }
    let (i, c) = (&stages.instructions, &stages.cycles);
    at_least(
        "instrumented product",
        Some(i.instrumented_total),
        Some(c.instrumented_total),
    );
    for (name, iv, cv) in [
        ("forward", i.forward, c.forward),
        ("pointwise", i.pointwise, c.pointwise),
        ("inverse", i.inverse, c.inverse),
        ("fold", i.fold, c.fold),
        ("butterflies", i.butterflies, c.butterflies),
        ("basis conversion", i.basis_cvt, c.basis_cvt),
        ("residue product", i.residue_product, c.residue_product),
        ("reconstruction", i.reconstruction, c.reconstruction),
    ] {
        assert!(cv >= iv, "{name}: {cv} cycles < {iv} instructions");
        assert_eq!(iv == 0, cv == 0, "{name}: cycles without instructions");
    }
    assert_eq!(r.counts.kem.len(), r.kat.len());
    for (f, k) in &r.counts.kem {
        at_least(&format!("{f} KeyGen"), k.keygen, k.keygen_cycles);
        at_least(&format!("{f} Encaps"), k.encaps, k.encaps_cycles);
        at_least(&format!("{f} Decaps"), k.decaps, k.decaps_cycles);
    }
    let m = r.model.as_ref().expect("cost model");
    for row in &m.rows {
        assert!(
            row.estimated_cycles.is_some() && row.model_to_estimated.is_some(),
            "model row {} without estimated cycles",
            row.component
        );
        at_least(
            &row.component,
            row.counted_instructions,
            row.estimated_cycles,
        );
    }
    calibrated_rows_add_up(r);
    names_rules_and_pins(r);
}

/// The calibrated model (what `search crt` ranks by) beside the same stages: its components
/// add up to the product, and every row has estimated cycles.
pub fn calibrated_rows_add_up(r: &BoardReport) {
    let cal = r.calibrated.as_ref().expect("calibrated model");
    assert_eq!(
        cal.model_version,
        fafft_config::cost::CALIBRATED_MODEL_VERSION
    );
    assert_eq!(cal.estimator, r.timing.version);
    let (parts, product) = cal.rows.split_at(cal.rows.len() - 1);
    assert_eq!(parts.len(), 5);
    let sum: f64 = parts.iter().map(|row| row.modelled_cycles).sum();
    assert!(
        (sum - product[0].modelled_cycles).abs() < 1e-3 * sum.max(1.0),
        "components {sum} vs product {}",
        product[0].modelled_cycles
    );
    for row in &cal.rows {
        let est = row
            .estimated_cycles
            .expect("estimated cycles of every calibrated row");
        assert_eq!(
            row.modelled_cycles == 0.0,
            est == 0,
            "{}: modelled {} vs board {est}",
            row.component,
            row.modelled_cycles
        );
        assert_eq!(
            row.model_to_estimated.is_some(),
            est > 0,
            "{}",
            row.component
        );
    }
}

/// The report and its text name the timing rules and, without a KAT folder, that the pins
/// judged.
pub fn names_rules_and_pins(r: &BoardReport) {
    assert_eq!(r.timing.version, hqc_board::m4cycles::TIMING_VERSION);
    assert_eq!(
        r.kat_note.as_deref(),
        Some(hqc_verify::kat::locate::PINS_ONLY_NOTE)
    );
    let text = board::render_text(r);
    for needle in [
        hqc_board::m4cycles::TIMING_VERSION,
        "zero wait states",
        "docs/m4-timing.md",
        "est. cycles",
        "model/est",
        fafft_config::cost::CALIBRATED_MODEL_VERSION,
        hqc_verify::kat::locate::PINS_ONLY_NOTE,
    ] {
        assert!(
            text.contains(needle),
            "text report lacks {needle:?}:\n{text}"
        );
    }
}
