use super::*;
use crate::core::params::{Hqc1, Hqc3, Hqc5};

fn check_barrett<P: ParamSet>() {
    let n = P::N as u32;
    for c in (0..(1u32 << 24)).step_by(7) {
        assert_eq!(barrett_reduce(c, n, P::BARRETT_MU), c % n, "c = {c}");
    }
    for c in (1u32 << 24) - 4096..(1u32 << 24) {
        assert_eq!(barrett_reduce(c, n, P::BARRETT_MU), c % n, "c = {c}");
    }
}

#[test]
fn barrett_equals_mod() {
    check_barrett::<Hqc1>();
    check_barrett::<Hqc3>();
    check_barrett::<Hqc5>();
}

#[test]
fn any_equal_is_membership() {
    let list = [0u32, 5, u32::MAX, 1 << 31, 17_668, 0x7FFF_FFFF];
    for x in [
        0u32,
        1,
        4,
        5,
        6,
        u32::MAX,
        u32::MAX - 1,
        1 << 31,
        (1 << 31) + 1,
        17_668,
        0x7FFF_FFFF,
    ] {
        let want = if list.contains(&x) { u32::MAX } else { 0 };
        assert_eq!(any_equal(x, &list), want, "x = {x:#x}");
    }
    assert_eq!(any_equal(3, &[]), 0);
}

fn keygen_sampler_equals_reference<P: ParamSet>() {
    for f in [Flavour::V2026_02, Flavour::V5_0_0] {
        for k in 0..40u8 {
            let seed = [k.wrapping_mul(37) ^ 0x5A; 32];
            let mut a = Xof::new(&seed, f);
            let mut b = Xof::new(&seed, f);
            for w in [P::W, P::W, 1, 2, 3, MAX_WEIGHT] {
                let mut x = [0u32; MAX_WEIGHT];
                let mut y = [0u32; MAX_WEIGHT];
                sample_keygen::<P>(&mut a, f, &mut x[..w]);
                sample_keygen_reference::<P>(&mut b, f, &mut y[..w]);
                assert_eq!(x[..w], y[..w], "{f:?} seed {k} w {w}");
            }
        }
    }
}

#[test]
fn lane_membership() {
    // positions fit a 16-bit lane with 0xFFFF free at every level
    const _: () = assert!(Hqc1::N < 0xFFFF && Hqc3::N < 0xFFFF && Hqc5::N < 0xFFFF);
    let vals = [
        0u32, 1, 2, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0x0101, 17_668, 57_636,
    ];
    for &a in &vals {
        for &b in &vals {
            let slots = [a | b << 16, u32::MAX];
            for &x in &vals {
                let want = if x == a || x == b { u32::MAX } else { 0 };
                assert_eq!(any_lane_equal(x, &slots), want, "{a:#x} {b:#x} {x:#x}");
            }
        }
    }
}

#[test]
fn lane_test_equals_the_reference() {
    // the UQSUB16 model on every pair of edge lanes, then seeded words and positions
    let edges = [0u32, 1, 2, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF];
    for &a in &edges {
        for &b in &edges {
            for &c in &edges {
                for &d in &edges {
                    let want = a.saturating_sub(b) | c.saturating_sub(d) << 16;
                    assert_eq!(
                        uqsub16_model(a | c << 16, b | d << 16),
                        want,
                        "{a} {b} {c} {d}"
                    );
                }
            }
        }
    }
    let mut x = 0xC0FF_EE11u32;
    for len in 0..40usize {
        for _ in 0..50 {
            let mut slots = [0u32; 40];
            for s in slots.iter_mut().take(len) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *s = x & 0x00FF_00FF; // small lanes, so that equal ones occur
            }
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let pos = x & 0xFF;
            assert_eq!(
                any_lane_equal(pos, &slots[..len]),
                any_lane_equal_reference(pos, &slots[..len]),
                "len {len} pos {pos}"
            );
        }
    }
}

#[test]
fn dropping_free_slots_equals_filtering() {
    // seeded lane arrays with free slots (0xFFFF) here and there, one pass per free slot
    let mut x = 0x1234_5678u32;
    for len in 0..24usize {
        for _ in 0..20 {
            let mut lanes = [0xFFFFu32; 24];
            for l in lanes.iter_mut().take(len) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *l = if x.is_multiple_of(4) { 0xFFFF } else { x >> 20 };
            }
            let mut packed = [u32::MAX; 12];
            for (j, &l) in lanes.iter().enumerate() {
                set_lane(&mut packed, j, l);
            }
            let free = lanes[..len].iter().filter(|&&l| l == 0xFFFF).count();
            for _ in 0..free {
                drop_first_free(&mut packed, len);
            }
            let want: Vec<u32> = lanes[..len]
                .iter()
                .copied()
                .filter(|&l| l != 0xFFFF)
                .collect();
            let got: Vec<u32> = (0..len).map(|j| lane(&packed, j)).collect();
            assert_eq!(got[..want.len()], want[..], "len {len}");
            assert!(got[want.len()..].iter().all(|&l| l == 0xFFFF), "len {len}");
        }
    }
}

/// The fallback of a full candidate buffer against the reference: small buffers.
fn keygen_fallback_equals_reference<P: ParamSet>() {
    for f in [Flavour::V2026_02, Flavour::V5_0_0] {
        for k in 0..8u8 {
            let seed = [k.wrapping_mul(53) ^ 0x3C; 32];
            for cap in [0, 1, 2, 7, P::W / 2, P::W, P::W + 1] {
                let mut a = Xof::new(&seed, f);
                let mut b = Xof::new(&seed, f);
                for w in [P::W, MAX_WEIGHT, 3] {
                    let mut x = [0u32; MAX_WEIGHT];
                    let mut y = [0u32; MAX_WEIGHT];
                    sample_keygen_in::<P>(&mut a, f, &mut x[..w], cap);
                    sample_keygen_reference::<P>(&mut b, f, &mut y[..w]);
                    assert_eq!(x[..w], y[..w], "{f:?} seed {k} cap {cap} w {w}");
                }
            }
        }
    }
}

#[test]
fn keygen_fallback_equals_the_reference() {
    keygen_fallback_equals_reference::<Hqc1>();
    keygen_fallback_equals_reference::<Hqc3>();
    keygen_fallback_equals_reference::<Hqc5>();
}

#[test]
fn keygen_sampler_equals_the_reference() {
    keygen_sampler_equals_reference::<Hqc1>();
    keygen_sampler_equals_reference::<Hqc3>();
    keygen_sampler_equals_reference::<Hqc5>();
}

fn encrypt_sampler_equals_reference<P: ParamSet>() {
    for f in [Flavour::V2026_02, Flavour::V5_0_0] {
        for k in 0..40u8 {
            let seed = [k.wrapping_mul(29) ^ 0xA5; 32];
            let mut a = Xof::new(&seed, f);
            let mut b = Xof::new(&seed, f);
            for w in [P::WR, P::WR, P::W, 0, 1, 2, 3, MAX_WEIGHT] {
                let mut x = [0u32; MAX_WEIGHT];
                let mut y = [0u32; MAX_WEIGHT];
                sample_encrypt::<P>(&mut a, &mut x[..w]);
                sample_encrypt_reference::<P>(&mut b, &mut y[..w]);
                assert_eq!(x[..w], y[..w], "{f:?} seed {k} w {w}");
            }
        }
    }
}

#[test]
fn encrypt_sampler_equals_the_reference() {
    encrypt_sampler_equals_reference::<Hqc1>();
    encrypt_sampler_equals_reference::<Hqc3>();
    encrypt_sampler_equals_reference::<Hqc5>();
}

#[test]
fn encrypt_sampler_gives_distinct_positions() {
    let mut xof = Xof::new(&[3u8; 32], Flavour::V2026_02);
    for _ in 0..50 {
        let mut s = [0u32; 149];
        sample_encrypt::<Hqc5>(&mut xof, &mut s);
        let mut sorted = s;
        sorted.sort_unstable();
        assert!(sorted.windows(2).all(|w| w[0] < w[1]));
        assert!(sorted.iter().all(|&p| (p as usize) < Hqc5::N));
    }
}
