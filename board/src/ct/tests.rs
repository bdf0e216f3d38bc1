//! Unit tests of the constant-time check.

use super::driver::parse_cases;
use super::*;
use hqc_verify::core::params::{Flavour, Hqc1, Level, ParamSet};
use hqc_verify::core::xof::Xof;

#[test]
fn fnv_matches_the_published_vectors() {
    let mut h = Fnv1a64::default();
    h.update(b"");
    assert_eq!(h.0, 0xcbf2_9ce4_8422_2325);
    let mut h = Fnv1a64::default();
    h.update(b"a");
    assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
    let mut h = Fnv1a64::default();
    h.update(b"foobar");
    assert_eq!(h.0, 0x8594_4171_f739_67e8);
}

#[test]
fn trace_lines_parse_and_bad_ones_are_errors() {
    let log = "region main #0 5\ntrace main #0 insns=5 ihash=00000000000000ff mems=2 mhash=0123456789abcdef\n\
               trace other #0 insns=1 ihash=1 mems=1 mhash=1\n";
    let t = parse_traces(log, "main").expect("parses");
    assert_eq!(
        t,
        vec![TraceLine {
            k: 0,
            insns: 5,
            ihash: 0xff,
            mems: 2,
            mhash: 0x0123_4567_89ab_cdef
        }]
    );
    assert!(parse_traces("trace main #0 insns=x ihash=1 mems=1 mhash=1\n", "main").is_err());
    assert!(parse_traces("trace main 0 insns=1 ihash=1 mems=1 mhash=1\n", "main").is_err());
}

#[test]
fn cases_parse() {
    let c = parse_cases("ct: x\nct case=3 entry=7 kind=v-bit valid=1 rejected=0\n");
    assert_eq!(c.get(&3), Some(&("v-bit".to_string(), true, false)));
    assert_eq!(c.len(), 1);
}

#[test]
fn sampler_oracle_equals_the_core_sampler() {
    use hqc_verify::core::sampling::keygen_supports;
    for f in Flavour::ALL {
        for entry in 0..6 {
            let (seed_kem, _, _) = entry_randomness(entry, Hqc1::K);
            let mut seed = [0u8; 32];
            seed.copy_from_slice(&seed_kem);
            let mut y = vec![0u32; Hqc1::W];
            let mut x = vec![0u32; Hqc1::W];
            keygen_supports::<Hqc1>(&seed, f, &mut y, &mut x);
            let mut xof = Xof::new(&seed, f);
            let (ya, yd) = sampler_draws::<Hqc1>(&mut xof, f, Hqc1::W);
            let (xa, xd) = sampler_draws::<Hqc1>(&mut xof, f, Hqc1::W);
            assert_eq!((ya, xa), (y, x), "{f:?} entry {entry}");
            assert!(yd >= Hqc1::W && xd >= Hqc1::W);
        }
    }
}

#[test]
fn some_seeds_reject_and_most_do_not() {
    let c = choose_cases(Level::Hqc1, Flavour::V2026_02, 8).expect("enough entries");
    assert_eq!(c.iter().filter(|c| c.no_rejection).count(), 8);
    assert!(c.iter().any(|c| !c.no_rejection));
    assert!(c
        .iter()
        .all(|c| c.no_rejection == (c.keygen_draws == [Hqc1::W, Hqc1::W])));
}
