//! The export's effort (`fafft_config::emit::effort::Effort`, docs/thumb2.md "Export effort"):
//! with one seed it is the default export's source, with several it exports the program whose
//! routine is shortest, and the command line names only what differs from the default.

use fafft_config::artefacts::{Artefacts, Baseline, Optimise};
use fafft_config::derive::Config;
use fafft_config::emit::effort::Effort;
use fafft_config::export::{command_of_effort, command_of_layout, Layout};
use fafft_config::routines::Matrix;
use fafft_config::transform::{element, mul_matrix, Chain};
use fafft_config::xorprog::{rows_of, XorProgram};
use std::path::Path;

/// Multiplication by a fixed field element, as the γ routines compute it (32 x 32).
fn gamma_rows() -> Vec<u64> {
    rows_of(&mul_matrix(32, element(0x0123_4567)), 32, 32)
}

#[test]
fn one_seed_is_the_default_source() {
    let rows = gamma_rows();
    let e = Effort::default();
    assert!(e.is_default());
    let a = e.program("gamma_3", &rows, 32).expect("effort program");
    let b = Optimise
        .program("gamma_3", &rows, 32)
        .expect("default program");
    assert_eq!(a.slp(), b.slp());
    assert_eq!(e.method(), Optimise.method());
    assert_eq!(e.budget(), Optimise.budget());
    // the same routine as the default source (a cheap job: the emission is memoised)
    let jobs = vec![(Matrix::Gamma(3), a.slp().clone())];
    let ra = e.routines(&jobs).expect("effort routine");
    let rb = Optimise.routines(&jobs).expect("default routine");
    assert_eq!(ra[0].routine, rb[0].routine);
    // one seed at other moves: still the default program, at those moves
    let m = Effort {
        seeds: 1,
        moves: 300,
        progress: false,
        quick: false,
    };
    assert!(!m.is_default());
    assert_eq!(
        m.program("gamma_3", &rows, 32).expect("program").slp(),
        b.slp()
    );
    assert_eq!(m.budget().polish, 300);
}

#[test]
fn several_seeds_export_the_program_with_the_shortest_routine() {
    let rows = gamma_rows();
    let e = Effort {
        seeds: 3,
        moves: 300,
        progress: false,
        quick: false,
    };
    assert!(!e.is_default());
    assert_eq!(e.budget().polish, 300);
    let chosen = e.program("gamma_3", &rows, 32).expect("effort program");
    chosen
        .slp()
        .verify_masks(&rows)
        .expect("the chosen program computes the matrix");
    let jobs = |p: &XorProgram| vec![(Matrix::Gamma(3), p.slp().clone())];
    let mine = &e.routines(&jobs(&chosen)).expect("routine")[0].routine;
    let mut seen_other = false;
    for seed in 0..3u64 {
        let p = XorProgram::optimised_seed(&rows, 32, seed).expect("program of a seed");
        seen_other |= p.slp() != chosen.slp();
        let r = &e.routines(&jobs(&p)).expect("routine")[0].routine;
        assert!(
            mine.stats.total <= r.stats.total,
            "seed {seed}: {} instructions, the chosen program's routine {}",
            r.stats.total,
            mine.stats.total
        );
    }
    assert!(seen_other, "the three seeds gave one program only");
    // no routine: the default program (the artifact layout re-derives it that way)
    let trunc = e
        .program("truncated Encode", &rows[..16], 32)
        .expect("program without a routine");
    let default = XorProgram::optimised(&rows[..16], 32).expect("default program");
    assert_eq!(trunc.slp(), default.slp());
    assert!(e.method().contains("seeds 0..=2"), "{}", e.method());
}

#[test]
fn the_command_names_the_effort_only_when_not_the_default() {
    let cfg = Config::new(32, 10, 0x0010_3674, Chain::Artifact, 3072, 17669);
    let out = Path::new("DIR");
    let d = command_of_effort(&cfg, out, Layout::Artifact, &Effort::default());
    assert_eq!(d, command_of_layout(&cfg, out, Layout::Artifact));
    assert!(!d.contains("--seeds") && !d.contains("--moves"), "{d}");
    let e = Effort {
        seeds: 8,
        moves: 100_000,
        progress: true,
        quick: false,
    };
    let c = command_of_effort(&cfg, out, Layout::Artifact, &e);
    assert!(
        c.ends_with("--layout artifact --seeds 8 --moves 100000 --out DIR"),
        "{c}"
    );
    let q = command_of_effort(&cfg, out, Layout::Project, &Effort::quick());
    assert!(q.ends_with("--chain artifact --quick --out DIR"), "{q}");
}

/// `--quick` is the cheap source: Baseline's programs, routines, method and budget.
#[test]
fn quick_is_the_baseline_source() {
    let rows = gamma_rows();
    let q = Effort::quick();
    assert!(!q.is_default());
    let a = q.program("gamma_3", &rows, 32).expect("quick program");
    let b = Baseline.program("gamma_3", &rows, 32).expect("baseline");
    assert_eq!(a.slp(), b.slp());
    assert_ne!(
        a.slp(),
        Optimise.program("gamma_3", &rows, 32).expect("opt").slp()
    );
    let jobs = vec![(Matrix::Gamma(3), a.slp().clone())];
    assert_eq!(
        q.routines(&jobs).expect("quick routine")[0].routine,
        Baseline.routines(&jobs).expect("baseline routine")[0].routine
    );
    assert_eq!(q.method(), Baseline.method());
    assert_eq!(q.budget(), Baseline.budget());
}

/// An export at an effort, in both layouts, verifies from its own files (the stored programs
/// and routines are proven, and what the artifact layout does not store is re-derived). A
/// small configuration (l = 5, 7 matrices with routines) keeps the optimiser's runs short.
#[test]
#[ignore = "extended suite (scripts/test-extended.sh): about 45 s of optimiser runs"]
fn an_export_at_an_effort_verifies_in_both_layouts() {
    use fafft_config::export::render_layout;
    use fafft_config::spec::{load, Provenance, PARAMS_FILE, TOOL_VERSION};
    let cfg = Config::new(32, 5, 0x0010_3674, Chain::Default, 0, 512);
    let e = Effort {
        seeds: 2,
        moves: 200,
        progress: false,
        quick: false,
    };
    let d = cfg.derive_with(&e).expect("derive at an effort");
    assert_eq!(d.routine_budget.polish, 200);
    for layout in [Layout::Project, Layout::Artifact] {
        let dir = std::env::temp_dir().join(format!(
            "fafft-config-effort-{}-{}",
            std::process::id(),
            layout.name()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let prov = Provenance {
            command: command_of_effort(&cfg, &dir, layout, &e),
            tool_version: TOOL_VERSION.into(),
        };
        let rendered = match render_layout(&d, &prov, layout) {
            Ok(r) => r,
            // a layout this configuration cannot take is not what this test is about
            Err(err) => panic!("{}: {err}", layout.name()),
        };
        for (name, text) in rendered.files {
            let path = dir.join(&name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("folder");
            }
            std::fs::write(&path, text).expect("write");
        }
        let v = load(&dir.join(PARAMS_FILE))
            .expect("load")
            .verify()
            .unwrap_or_else(|err| panic!("{}: {err}", layout.name()));
        assert_eq!(v.derived.programs_method, e.method());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
