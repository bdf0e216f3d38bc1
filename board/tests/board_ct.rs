//! The exact constant-time check on the emulated Cortex-M4 (`hqc-verify board --ct-check`,
//! docs/board.md §13), at HQC-1, HQC-3 and HQC-5.
//!
//! The configurations are the committed exports `results/export/{hqc1-published,
//! hqc3-published,hqc5-canonical}` (what `hqc-verify board` builds from). Per level and
//! flavour 8 KAT entries whose keygen sampler rejects no candidate (plus one that does) run
//! KeyGen, Encaps, Decaps of the valid and of a tampered ciphertext with the plugin in trace
//! mode (hashes of the instruction and memory-address streams).
//!
//! Asserted, for every level and flavour:
//! * every case decapsulates its ciphertext and rejects the tampered one;
//! * the **instruction streams** of KeyGen, Encaps and Decaps are identical across cases
//!   (Decaps over the cases whose y sampler rejects no candidate, see `ct::EXCLUSIONS`);
//! * the **memory-address streams** are identical too (the C multiplier has no secret-indexed
//!   table since its BasisCvt_4 and S^{-1} steps became shift/mask arithmetic, docs/fafft.md
//!   §5.4 and §9.9); a differing stream fails the test, naming the differing sites;
//! * so every counted region's verdict is "identical" and the report passes;
//! * the seed whose sampler rejects or repeats candidates *does* give a different KeyGen
//!   instruction stream, and the first differing instruction is named: the check sees real
//!   differences.
//!
//! The unit tests at the end check that different address streams hash differently and that
//! the divergence finder names the right index.

use std::path::PathBuf;

use hqc_board::ct::{self, CtOptions, CtReport, MemAccess};
use hqc_board::{BoardArgs, FlavourSel};
use hqc_verify::core::params::{Flavour, Level};

/// The committed export of `level` (the same headers `hqc-verify board` builds from).
fn export_of(level: Level) -> PathBuf {
    let name = match level {
        Level::Hqc1 => "hqc1-published",
        Level::Hqc3 => "hqc3-published",
        Level::Hqc5 => "hqc5-canonical",
    };
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../results/export")
        .join(name)
        .join("params.json")
}

fn run(level: Level) -> CtReport {
    let params = export_of(level);
    let mut a = BoardArgs::new(&params);
    a.flavour = FlavourSel(Flavour::ALL.to_vec());
    a.ct_check = true;
    let t0 = std::time::Instant::now();
    let r = match ct::check(&a, CtOptions::default()) {
        Ok(r) => r,
        Err(e) => panic!(
            "the constant-time check could not run for {} (toolchain missing?): {e:#}",
            params.display()
        ),
    };
    eprintln!(
        "{}\n({level}: {:.1} s)",
        ct::render_text(&r),
        t0.elapsed().as_secs_f64()
    );
    r
}

fn holds(level: Level) {
    let r = run(level);
    assert_eq!(r.params.level, level.name());
    assert_eq!(r.flavours.len(), 2);
    assert!(!r.excluded.is_empty(), "exclusions are stated");
    for f in &r.flavours {
        let what = format!("{level} {}", f.flavour);
        assert_eq!(f.qemu_exit, Some(0), "{what}: driver exit");
        assert_eq!(
            f.cases.len(),
            ct::CASES + 1,
            "{what}: 8 clean cases and a rejecting one"
        );
        for c in &f.cases {
            assert!(c.valid && c.rejected, "{what}: case {c:?}");
        }
        let names: Vec<&str> = f.regions.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            names,
            ["keygen", "encaps", "decaps", "keygen-rejecting"],
            "{what}"
        );
        for g in f.regions.iter().filter(|g| g.counted) {
            assert!(g.instances >= ct::CASES, "{what} {}", g.name);
            assert!(
                g.instructions_identical,
                "{what}: the instruction streams of {} differ: {:#?}",
                g.name, g.first_difference
            );
            assert!(
                g.note
                    .as_deref()
                    .is_none_or(|n| !n.contains("did not reproduce")),
                "{what} {}: {:?}",
                g.name,
                g.note
            );
            assert!(
                g.memory_identical,
                "{what}: the memory-address streams of {} differ (secret-dependent addresses): \
                 first difference {:#?}, sites {:#?}",
                g.name, g.first_difference, g.differing_sites
            );
            assert_eq!(g.verdict, "identical", "{what} {}", g.name);
            assert!(g.first_difference.is_none() && g.differing_sites.is_empty());
        }
        let rej = &f.regions[3];
        assert!(!rej.counted);
        assert!(
            !rej.instructions_identical,
            "{what}: a seed with sampler rejections must run a different KeyGen"
        );
        let d = rej
            .first_difference
            .as_ref()
            .expect("first difference named");
        assert_eq!(d.stream, "instructions");
        assert!(
            d.symbol.iter().all(|s| !s.is_empty()) && d.previous.is_some(),
            "{what}: {d:#?}"
        );
    }
    assert!(r.passed, "{level}: {:?}", r.failed);
    assert!(r.failed.is_empty());
    // params.json is named as given (here the test's own path), not re-resolved
    assert_eq!(r.params_given, export_of(level).display().to_string());
    assert!(r.command.contains(&r.params_given), "{}", r.command);
    assert!(ct::render_text(&r).contains("PASS: every counted region is identical"));
}

#[test]
fn hqc1_traces() {
    holds(Level::Hqc1);
}

#[test]
fn hqc3_traces() {
    holds(Level::Hqc3);
}

#[test]
fn hqc5_traces() {
    holds(Level::Hqc5);
}

// ----- the check can fail ------------------------------------------------------------------

#[test]
fn different_address_streams_hash_differently() {
    let a: Vec<u32> = (0..1000u32).map(|i| 0x1000 + 2 * (i % 37)).collect();
    let mut b = a.clone();
    b[613] += 2;
    assert_ne!(ct::hash_insns(&a), ct::hash_insns(&b));
    assert_eq!(ct::hash_insns(&a), ct::hash_insns(&a.clone()));
    // a swap of two addresses keeps the multiset but not the sequence
    let mut c = a.clone();
    c.swap(10, 11);
    assert_ne!(a[10], a[11]);
    assert_ne!(ct::hash_insns(&a), ct::hash_insns(&c));
    let m: Vec<MemAccess> = (0..500u32)
        .map(|i| MemAccess {
            pc: 0x2000 + 4 * (i % 9),
            addr: 0x2000_0000 + 4 * i,
            info: 2,
        })
        .collect();
    let mut n = m.clone();
    n[321].addr += 4;
    let mut o = m.clone();
    o[5].info |= 0x80;
    assert_ne!(ct::hash_mems(&m), ct::hash_mems(&n));
    assert_ne!(ct::hash_mems(&m), ct::hash_mems(&o));
}

#[test]
fn divergence_finder_names_the_right_index() {
    let a: Vec<u32> = (0..100).collect();
    let mut b = a.clone();
    assert_eq!(ct::first_divergence(&a, &b), None);
    b[42] = 7;
    b[77] = 9;
    assert_eq!(ct::first_divergence(&a, &b), Some(42));
    assert_eq!(ct::first_divergence(&a, &a[..60]), Some(60));
    assert_eq!(ct::first_divergence(&a[..0], &a), Some(0));
    let m = [
        MemAccess {
            pc: 1,
            addr: 2,
            info: 0,
        },
        MemAccess {
            pc: 3,
            addr: 4,
            info: 0,
        },
    ];
    let mut n = m;
    n[1].addr = 5;
    assert_eq!(ct::first_divergence(&m, &n), Some(1));
}
