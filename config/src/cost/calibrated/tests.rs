//! Tests of the calibrated model: the padded layout below l = 10 and the firmware counts
//! (split, reduction, Taylor words, Karatsuba) by hand.

use super::*;

/// For l < 10 the firmware stores one whole block of 32 groups (`FAFFT_NGSTORE`): layers
/// 5..1 pair 16 groups each; layers l..6 pair the NG groups of layout A, and the pointwise
/// product runs on NG packed groups. From l = 10 on nothing changes.
#[test]
fn padded_layout_below_l10() {
    assert_eq!(stored_groups(8), 32);
    assert_eq!(stored_groups(10), 32);
    assert_eq!(stored_groups(11), 64);
    let tc = |l: u32| TransformConsts {
        m: 32,
        l,
        gamma_xor: (1..=u64::from(l)).map(|j| 100 + j).collect(),
        encode_xor: 300,
        encode_trunc_xor: 150,
        decode_xor: 300,
    };
    let term = |c: &CalComponent, name: &str| {
        c.terms
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.count)
            .expect("term")
    };
    let b8 = calibrated_cost(&tc(8), 8192, None, 1, None).expect("cost");
    // l = 8: NG = 8; layers 8..6 with 4 pairs, layers 5..1 with 16 pairs
    assert_eq!(
        term(&b8.forward, "butterflies (group pairs)"),
        (3 * 4 + 5 * 16) as f64
    );
    assert_eq!(term(&b8.pointwise, "groups"), 8.0);
    assert_eq!(term(&b8.forward, "Encode/Decode groups"), 8.0);
    let rc = RoutineCycles::predicted(&tc(8));
    let want: f64 =
        rc.gamma[..3].iter().sum::<f64>() * 4.0 + rc.gamma[3..].iter().sum::<f64>() * 16.0;
    assert!((term(&b8.forward, "gamma routine cycles") - want).abs() < 1e-6);
    let b11 = calibrated_cost(&tc(11), 35851, None, 1, None).expect("cost");
    assert_eq!(
        term(&b11.forward, "butterflies (group pairs)"),
        (11 * 32) as f64
    );
    assert_eq!(term(&b11.pointwise, "groups"), 64.0);
}

/// The 2-Karatsuba driver's counts (`split_product`) on hand-worked cases.
#[test]
fn split_counts_by_hand() {
    // kara_full on 12 words: 12 -> 6 -> 3, so 9 kara3 leaves, 1 + 3 + 9 calls
    assert_eq!(kara3_leaves(12), 9);
    assert_eq!(kara_full_calls(12), 13);
    assert_eq!(kara_full(12).clmul, 9 * 6);
    // 8 words end in three 4-word Thumb-2 leaves called directly (no kara3): one call of
    // kara_full; 16 words: 1 + 3; odd sizes are one schoolbook call
    assert_eq!(kara3_leaves(8), 0);
    assert_eq!(kara_full_calls(8), 1);
    assert_eq!(kara_full_calls(16), 4);
    assert_eq!((kara_full(8).kara4, kara_full(8).kara2), (3, 0));
    assert_eq!((kara_full(2).kara4, kara_full(2).kara2), (0, 1));
    assert_eq!(kara_full(16).clmul_outside_leaves(), 0);
    assert_eq!((kara3_leaves(5), kara_full_calls(5)), (0, 1));
    // kara_low(4): kara_full(2) (a 2-word leaf) and two schoolbook low halves of 2 words
    let lo4 = kara_low(4);
    assert_eq!((lo4.kara4, lo4.kara2), (0, 1));
    assert_eq!(lo4.clmul_outside_leaves(), 3 + 2);
    // n = 17669 bits (553 words), k = 16160 (505 words): r1 = 48 words; N = 2^15 (1024
    // words): h is cleared from word 1024 to 2·553 = 1106
    let q = split_count(17669, 16160, 48, 1 << 15, 2);
    // kara_full(48): 48 -> 24 -> 12 -> 6 -> 3, 81 kara3 leaves of 6 products and 18 words;
    // 4n words per halving node: 192 + 3·96 + 9·48 + 27·24 = 1560, plus 81·18
    assert_eq!(
        q.residual,
        KaraCount {
            clmul: 486,
            clmul_lo: 0,
            words: 1560 + 1458,
            kara4: 0,
            kara2: 0,
        }
    );
    assert_eq!((q.residual_kara3, q.residual_calls), (81, 121));
    assert_eq!(q.residual_copy_words, 96);
    assert_eq!(q.xor_words, 2 * 48 + 2 * (553 + 2 * 48));
    assert_eq!(q.copy_words, 2 * (505 - 48) + (1106 - 1024));
    // with the product inside N nothing is cleared: 2 · (16 − 16) words
    assert_eq!(split_count(1000, 512, 16, 4096, 2).copy_words, 0);
}

/// `reduce_m2` on a hand-worked case: M2 = x^256 + x^33 + 1 (W2 = 8 words, deg L = 33, so
/// chunks of at most 8 − 1 − 1 = 6 words), an operand of 20 words: chunks [14, 20) and
/// [8, 14), each XORed by the term 1 (6 words) and by x^33 (6 words and a carry word).
#[test]
fn reduction_counts_by_hand() {
    let q = reduce_count(20, 256, &[0, 33, 256]);
    assert_eq!(
        q,
        ReduceCount {
            words: 2 * (6 + 7),
            copy_words: 20 + 12,
            term_loops: 4,
            calls: 1
        }
    );
    // an operand no longer than N2 is its own residue: the call only
    assert_eq!(
        reduce_count(8, 256, &[0, 33, 256]),
        ReduceCount {
            calls: 1,
            ..Default::default()
        }
    );
    // the two-moduli counts: n = 640 bits (20 words) at N1 = 1024, N2 = 256 (l2 = 3: one
    // padded block of 32 stored groups), M1 = x^1024 + x^40 + 1
    let t = twomod_count(640, 1024, 256, 3, &[0, 40, 1024], &[0, 33, 256]);
    assert_eq!(t.reduce_fg.words, 2 * q.words);
    assert_eq!(t.reduce_fg.calls, 2);
    assert_eq!(t.reduce_h1, reduce_count(32, 256, &[0, 33, 256]));
    assert_eq!(t.vector_words, 32 * 32 + 8);
    // class 8 (e = 40) is the one occupied class r != 0: one shifted copy of 9 words
    assert_eq!(t.shift_words, 9);
    assert_eq!(t.xor_words, 8 + 9 + 8);
    assert_eq!(packing_words(9), 3 * 1024);
    assert_eq!(packing_words(10), 0);
}

#[test]
fn firmware_counts() {
    // ebc on 2^7 elements (L = 15): 3·64 + 16·ebc(3) + 8·ebc(4) = 192 + 128 + 256.
    assert_eq!(ebc_ops(2), 2);
    assert_eq!(ebc_ops(3), 8);
    assert_eq!(ebc_ops(4), 32);
    assert_eq!(ebc_ops(7), 576);
    // kara3 has 6 products.
    let k = kara_full(3);
    assert_eq!(k.clmul, 6);
    assert_eq!(kara_full(6).clmul, 18);
    let lo = kara_low(96);
    // 96 = 3·32: kara_low3 runs two truncated 32-word products (32 low halves each)
    assert!(lo.clmul > 0 && lo.clmul_lo == 2 * 32);
    // A modulus 1 + x^33 + x^64 (N = 64) with c = 64: e = 33 gives two terms per word.
    let q = recon_count(&[0, 33, 64], 64);
    assert_eq!(q.solve_terms, 2 * 2);
    assert_eq!(q.shift_words, 3);
    // c/32 = 4 (the Thumb-2 path): class 0 holds 256, 224, 192, 160 (unclipped: a ≥ 4) and
    // 0 (below c: no word); one group of three (4 words each), the fourth by xor_into
    let q = recon_count(&[0, 160, 192, 224, 256], 128);
    assert_eq!((q.xor3_words, q.xor_words), (3 * 4, 4));
    // clipped terms only (a = 3, 2, 1 < 4: 3, 2 and 1 words at and above word 4)
    let q = recon_count(&[0, 96, 64, 32], 128);
    assert_eq!((q.xor3_words, q.xor_words), (0, 3 + 2 + 1));
    // c/32 = 3: no Thumb-2 path
    let q = recon_count(&[0, 160, 192, 224, 256], 96);
    assert_eq!((q.xor3_words, q.xor_words), (0, 4 * 3));
}
