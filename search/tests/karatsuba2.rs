//! The 2-Karatsuba split (docs/fafft.md §9.11): its algebra on the host (with an exact product
//! routine and with the FAFFT of size N) and its plans in `search crt` (validity and the cost
//! decomposition against components computed by hand from the model).

use algebra::cantor::CantorBasis;
use algebra::fafft::FafftPlan;
use algebra::fafft_fast::{Evals32, Fafft32};
use algebra::field::Tower;
use algebra::gf2x::Poly;
use fafft_config::cost::{self, calibrated_cost, coef};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::crt_plan::{
    modulus_info, plan, split_k_range, Plan, PlanConfig, PlanKind, PlanReport, ScanCache,
};

const N1: usize = 17_669;
const ARTIFACT_BETA: u32 = 0x0010_3674;

fn random_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    Poly::from_words(words).truncate(bits)
}

/// `(f mod x^k, f div x^k)`.
fn split_at(f: &Poly, k: usize) -> (Poly, Poly) {
    let hi: Vec<usize> = f
        .exponents()
        .into_iter()
        .filter(|&e| e >= k)
        .map(|e| e - k)
        .collect();
    (f.truncate(k), Poly::from_exponents(&hi))
}

/// `h mod (x^n − 1)`, bit by bit.
fn fold(h: &Poly, n: usize) -> Poly {
    let mut r = Poly::zero();
    for e in h.exponents() {
        r.flip_bit(e % n);
    }
    r
}

/// The split with an arbitrary routine for the two k-bit products and the crate's exact
/// product for the residual f1·g1.
fn karatsuba2(f: &Poly, g: &Poly, n: usize, k: usize, half: &dyn Fn(&Poly, &Poly) -> Poly) -> Poly {
    let (f0, f1) = split_at(f, k);
    let (g0, g1) = split_at(g, k);
    let p0 = half(&f0, &g0);
    let p1 = half(&f0.add(&f1), &g0.add(&g1));
    let p2 = f1.mul(&g1);
    let mid = p1.add(&p0).add(&p2);
    fold(&p0.add(&mid.shl(k)).add(&p2.shl(2 * k)), n)
}

/// The same with the FAFFT of size N done transform by transform: four forward transforms,
/// two pointwise products, and two inverses (of A0·B0 and, by linearity, of A0·B0 + A'·B' =
/// the transform of P0 + P1).
fn karatsuba2_fafft(f: &Poly, g: &Poly, n: usize, k: usize, e: &Fafft32) -> Poly {
    let (f0, f1) = split_at(f, k);
    let (g0, g1) = split_at(g, k);
    let a0 = e.forward(&f0).expect("k-bit operand");
    let b0 = e.forward(&g0).expect("k-bit operand");
    let a1 = e.forward(&f0.add(&f1)).expect("k-bit operand");
    let b1 = e.forward(&g0.add(&g1)).expect("k-bit operand");
    let q0 = e.pointwise(&a0, &b0);
    let q1 = e.pointwise(&a1, &b1);
    let s = Evals32 {
        values: q0
            .values
            .iter()
            .zip(&q1.values)
            .map(|(x, y)| x ^ y)
            .collect(),
    };
    let p0 = e.inverse(&q0).expect("inverse");
    let p0_plus_p1 = e.inverse(&s).expect("inverse");
    let p2 = f1.mul(&g1);
    let mid = p0_plus_p1.add(&p2);
    fold(&p0.add(&mid.shl(k)).add(&p2.shl(2 * k)), n)
}

fn engine(l: u32, beta: u32) -> Fafft32 {
    let basis = CantorBasis::tower32();
    let p = FafftPlan::new(&basis, l, Tower::<32>(beta)).expect("admissible β");
    Fafft32::from_plan(&p).expect("m = 32 engine")
}

#[test]
fn split_algebra_matches_the_ring_product_hqc1() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x2b);
    let range = split_k_range(N1 as u64, 1 << 15).expect("HQC-1 splits at N = 2^15");
    assert_eq!(range, 8864..=16384);
    let exact = |a: &Poly, b: &Poly| a.mul(b);
    for beta in [0x0028_b51f, ARTIFACT_BETA] {
        let e = engine(10, beta);
        let modm = |a: &Poly, b: &Poly| e.mul(a, b).expect("operands < N");
        for k in [16384usize, 16160, 8864] {
            let f = random_poly(&mut rng, N1);
            let g = random_poly(&mut rng, N1);
            let want = fold(&f.mul_schoolbook(&g), N1);
            assert_eq!(karatsuba2(&f, &g, N1, k, &exact), want, "exact, k = {k}");
            assert_eq!(
                karatsuba2(&f, &g, N1, k, &modm),
                want,
                "FAFFT mul, k = {k}, β = {beta:#x}"
            );
            assert_eq!(
                karatsuba2_fafft(&f, &g, N1, k, &e),
                want,
                "FAFFT stages, k = {k}, β = {beta:#x}"
            );
        }
        // Outside the rule the FAFFT products are reduced modulo M and the result is wrong:
        // k > N/2 (f0·g0 has more than N bits) and n − k > N/2 (the sums have more than N/2
        // bits). The exact routine does not care (the identity is algebraic).
        let f = random_poly(&mut rng, N1);
        let g = random_poly(&mut rng, N1);
        let want = fold(&f.mul(&g), N1);
        for k in [16416usize, 1024] {
            assert!(!range.contains(&(k as u64)));
            assert_eq!(karatsuba2(&f, &g, N1, k, &exact), want);
            assert_ne!(karatsuba2(&f, &g, N1, k, &modm), want, "k = {k} must fail");
        }
    }
}

#[test]
fn split_range_rule() {
    // HQC-3 and HQC-5 split at N = 2^16; a size below n or holding the product has no split.
    assert_eq!(split_k_range(35_851, 1 << 16), Some(17_952..=32_768));
    assert_eq!(split_k_range(57_637, 1 << 16), Some(28_832..=32_768));
    assert_eq!(split_k_range(57_637, 1 << 15), None);
    assert_eq!(split_k_range(17_669, 1 << 14), None);
    assert_eq!(split_k_range(17_669, 1 << 16), None);
    assert_eq!(split_k_range(35_851, 1 << 17), None);
    // N/2 not word aligned below 32 bits: no split.
    assert_eq!(split_k_range(40, 32), None);
    for (n, big_n) in [(1000u64, 1024u64), (17_669, 1 << 15), (100, 128)] {
        if let Some(r) = split_k_range(n, big_n) {
            for k in r {
                if k % 32 == 0 {
                    assert!(n - k <= k && 2 * k <= big_n && k < n, "n = {n}, k = {k}");
                }
            }
        }
    }
}

fn cfg_with(betas: &[(u32, u32)]) -> PlanConfig {
    let mut cfg = PlanConfig::new(32);
    for &(l, b) in betas {
        let md = modulus_info(32, l, b).expect("admissible");
        cfg.given
            .entry(l)
            .or_insert_with(|| (Vec::new(), "--beta".into()))
            .0
            .push(md);
    }
    cfg
}

/// The additions by hand, as the split driver does them (docs/fafft.md §9.11): per operand sum
/// r1 XORed words and K − r1 copied; T = P0 + P1 + P2 on ⌈n/32⌉ + 2·r1 XORed words, the
/// combination as many; h cleared from N/32 to 2⌈n/32⌉ (copied/cleared words), priced by the
/// calibrated coefficients of XORed and of copied words.
fn additions_by_hand(n: u64, k: u64, big_n: u64, sums: u64) -> f64 {
    let kw = (k / 32) as f64;
    let r1 = (n - k).div_ceil(32) as f64;
    let w = n.div_ceil(32);
    let cleared = ((2 * w).max(big_n / 32) - big_n / 32) as f64;
    let xor = sums as f64 * r1 + 2.0 * (w as f64 + 2.0 * r1);
    let copy = sums as f64 * (kw - r1) + cleared;
    xor * coef::SPLIT_XOR_WORD + copy * coef::SPLIT_COPY_WORD
}

/// The residual f1·g1 by hand: kara_full on w words, its 3-word leaves (C) and 4-word leaves
/// (Thumb-2, called directly from the 8-word nodes) priced as units, the other word products
/// and words and every call of kara_full, and the 2w words of its operand buffers.
fn residual_by_hand(w: u64) -> f64 {
    let kf = cost::kara_full(w);
    // leaves: halve while even and above 4 (a 4-word operand is itself a leaf)
    let (mut leaf, mut levels) = (w, 0u32);
    while leaf > 4 && leaf % 2 == 0 {
        leaf /= 2;
        levels += 1;
    }
    if leaf == 4 && levels == 0 {
        return coef::RES_KARA4 + coef::RES_FULL_CALL + 8.0 * coef::RED_COPY_WORD;
    }
    let k3 = if leaf == 3 { 3u64.pow(levels) } else { 0 };
    let k4 = if leaf == 4 { 3u64.pow(levels) } else { 0 };
    // nodes above the leaves; a 3-word leaf is a call of kara_full, a 4-word one is not
    let calls = if leaf == 4 {
        (3u64.pow(levels) - 1) / 2
    } else {
        (3u64.pow(levels + 1) - 1) / 2
    };
    (kf.clmul - 6 * k3 - 9 * k4) as f64 * coef::RES_CLMUL
        + k3 as f64 * coef::RES_KARA3
        + k4 as f64 * coef::RES_KARA4
        + (kf.words - 18 * k3 - 40 * k4) as f64 * coef::RES_FULL_WORD
        + calls as f64 * coef::RES_FULL_CALL
        + (2 * w) as f64 * coef::RED_COPY_WORD
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn hqc1_split_plan_cost_decomposition() {
    let cache = ScanCache::new();
    for cached in [false, true] {
        let mut cfg = cfg_with(&[(10, ARTIFACT_BETA), (10, 0x0028_b51f), (7, 0x0001_2d42)]);
        cfg.cached_operand = cached;
        let fc = if cached { 1 } else { 2 };
        let r = plan(N1 as u64, &cfg, &cache).expect("plan");
        let splits: Vec<_> = r
            .plans
            .iter()
            .filter(|p| p.kind == PlanKind::Karatsuba2)
            .collect();
        assert_eq!(splits.len(), 1, "one split plan (N = 2^15)");
        let p = splits[0];
        assert_eq!(r.best_karatsuba2_rank, Some(p.rank));
        let s = p.split.as_ref().expect("split info");
        let t = &p.transforms[0];
        let n = N1 as u64;
        assert_eq!(t.n_bits, 1 << 15);
        assert!(t.truncated_encode);
        assert!(s.k % 32 == 0 && n - s.k <= s.k && 2 * s.k <= t.n_bits);
        assert_eq!(s.residual_bits, n - s.k);
        assert_eq!(p.c, 32 * s.residual_words);
        assert!(32 * s.residual_words >= s.residual_bits);
        assert_eq!(s.forward_transforms, 2 * fc as u32);
        assert_eq!((s.pointwise_products, s.inverse_transforms), (2, 2));
        // The residual: 1285 bits at k = 16384; the chosen split takes the smallest k whose
        // high half fits the residual's words.
        assert_eq!(s.k, (n - 32 * s.residual_words).div_ceil(32) * 32);
        // Components by hand from the calibrated model.
        let tc = &t.xor_programs;
        let a = calibrated_cost(tc, s.k, None, 2 * fc, None).expect("cost");
        assert!(close(p.cost.forward.cycles, a.forward.cycles));
        let one = calibrated_cost(tc, s.k, None, 1, None).expect("cost");
        assert!(close(p.cost.pointwise.cycles, 2.0 * coef::PW_GROUP * 32.0));
        assert!(close(p.cost.pointwise.cycles, 2.0 * one.pointwise.cycles));
        assert!(close(p.cost.inverse.cycles, 2.0 * one.inverse.cycles));
        let kf = cost::kara_full(s.residual_words);
        assert_eq!(kf, s.residual_kara);
        assert!(close(
            p.cost.residue.cycles,
            residual_by_hand(s.residual_words)
        ));
        assert!(close(
            p.cost.reconstruction.cycles,
            additions_by_hand(n, s.k, t.n_bits, fc)
        ));
        let sum: f64 = p.cost.parts().iter().map(|x| x.1).sum();
        assert!(close(p.cost.total_cycles, sum));
        // 48 words (1536 bits, k = 16160): kara_full 48 → 24 → 12 → 6 → 3, 81 kara3 of 6
        // products; the 41 exact words would be a 41×41 schoolbook (1681 products).
        assert_eq!(s.residual_words, 48);
        assert_eq!(s.k, 16160);
        assert_eq!(kf.clmul, 81 * 6);
        assert_eq!(cost::kara_full(41).clmul, 41 * 41);
        // No other valid k with this residual size is cheaper (a larger k adds input words to
        // the forward transforms and words to the additions).
        let range = split_k_range(n, t.n_bits).expect("range");
        let total_at = |k: u64| {
            let a = calibrated_cost(tc, k, None, 2 * fc, None).expect("cost");
            a.forward.cycles
                + p.cost.pointwise.cycles
                + p.cost.inverse.cycles
                + p.cost.residue.cycles
                + additions_by_hand(n, k, t.n_bits, fc)
        };
        for k in (s.k..=*range.end()).step_by(32) {
            assert!(total_at(k) >= p.cost.total_cycles - 1e-6, "k = {k}");
        }
        check_split_json_and_board(&r, p, n);
    }
}

/// The split plan as JSON, as the board builds it (and refuses an edited split), and where the
/// text output says it ranks.
fn check_split_json_and_board(r: &PlanReport, p: &Plan, n: u64) {
    let s = p.split.as_ref().expect("split info");
    // JSON: the kind is `karatsuba2`, the split is recorded.
    let v = serde_json::to_value(p).expect("json");
    assert_eq!(v["kind"], "karatsuba2");
    assert_eq!(v["split"]["k"], s.k);
    // The board builds it (the firmware's split driver, exported with c = 0 and the split)
    assert_eq!(search::measure::not_buildable(p, 32), None);
    assert_eq!(search::measure::export_c(p), 0);
    assert_eq!(
        search::measure::export_split(p),
        Some(fafft_config::rules::Split {
            k: 16160,
            residual_words: 48
        })
    );
    // ... but not with a split the rule refuses (named in the reason)
    let mut bad = p.clone();
    if let Some(s) = bad.split.as_mut() {
        s.k = 16161;
        s.residual_bits = n - 16161;
    }
    let why = search::measure::not_buildable(&bad, 32).expect("invalid split");
    assert!(why.contains("not a multiple of 32"), "{why}");
    let mut bad = p.clone();
    if let Some(s) = bad.split.as_mut() {
        s.residual_words = 40;
    }
    let why = search::measure::not_buildable(&bad, 32).expect("short residual");
    assert!(why.contains("shorter than n - k"), "{why}");
    // The text output says where it ranks.
    let text = search::crt_plan::render_text(r);
    assert!(text.contains(&format!("at rank {} of {}", p.rank, r.plans.len())));
}

#[test]
fn split_plans_are_valid_at_every_level() {
    let cache = ScanCache::new();
    for (n, betas, split_l) in [
        (
            17_669u64,
            vec![(10, ARTIFACT_BETA), (10, 0x0028_b51f), (7, 0x0001_2d42)],
            10u32,
        ),
        (35_851, vec![(11, ARTIFACT_BETA), (8, 0x0093_b187)], 11),
        (57_637, vec![(11, 0x0011_2cc1), (11, 0x0011_2c53)], 11),
    ] {
        let r = plan(n, &cfg_with(&betas), &cache).expect("plan");
        let splits: Vec<_> = r
            .plans
            .iter()
            .filter(|p| p.kind == PlanKind::Karatsuba2)
            .collect();
        assert_eq!(splits.len(), 1, "n = {n}");
        for p in splits {
            let s = p.split.as_ref().expect("split");
            let big_n = p.transforms[0].n_bits;
            assert_eq!(p.transforms[0].l, split_l);
            assert!(s.k % 32 == 0, "n = {n}");
            assert!(n - s.k <= s.k, "n = {n}: k < n − k");
            assert!(2 * s.k <= big_n, "n = {n}: 2k > N");
            assert!(
                big_n < 2 * n - 1,
                "n = {n}: the single FAFFT of size N would hold it"
            );
            assert!(32 * s.residual_words >= n - s.k);
            assert!(split_k_range(n, big_n).is_some_and(|r| r.contains(&s.k)));
        }
        // ranks stay consecutive and sorted with the new kind
        for (i, p) in r.plans.iter().enumerate() {
            assert_eq!(p.rank, i + 1);
        }
    }
}
