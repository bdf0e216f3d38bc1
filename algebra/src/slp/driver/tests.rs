use super::lns::{random_topo, without_window};
use super::*;
use crate::slp::rng::SplitMix64;

/// Random row masks with edge shapes: no rows, one row, duplicate, zero and unit rows,
/// 64 columns.
fn matrix(g: &mut SplitMix64, case: usize) -> (Vec<u64>, usize) {
    let cols = if case.is_multiple_of(4) {
        64
    } else {
        1 + g.below(20)
    };
    let n_rows = match case % 5 {
        0 => 0,
        1 => 1,
        _ => 2 + g.below(20),
    };
    let mask = if cols == 64 {
        u64::MAX
    } else {
        (1u64 << cols) - 1
    };
    let mut rows: Vec<u64> = (0..n_rows).map(|_| g.next_u64() & mask).collect();
    if rows.len() >= 3 {
        rows[1] = rows[0];
        rows[2] = 0;
    }
    if rows.len() >= 4 {
        rows[3] = 1u64 << (cols - 1);
    }
    (rows, cols)
}

#[test]
fn local_search_chains_verify_and_never_grow() {
    let mut g = SplitMix64::new(0x11_5eed);
    let variants = [
        Tuning::default(),
        Tuning {
            lns_shuffle_share: 0,
            ..Tuning::default()
        },
        Tuning {
            lns_window_share: 50,
            lns_uphill: 30,
            lns_nonorm_share: 50,
            lns_resynth: true,
            ..Tuning::default()
        },
    ];
    let mut shorter = 0;
    for case in 0..60 {
        let (rows, cols) = matrix(&mut g, case);
        let start = Run::Rnbp(case as u32).exec(&rows, cols, 7);
        start.verify_masks(&rows).expect("start verifies");
        if start.ops.is_empty() {
            continue;
        }
        for (v, t) in variants.iter().enumerate() {
            for chain in 0..2 {
                let p = lns_chain(&rows, cols, &start, case as u64, chain, 6, t);
                p.verify_masks(&rows).expect("chain verifies");
                assert!(
                    p.xor_count() <= start.xor_count(),
                    "case {case}, variant {v}, chain {chain}: {} > {}",
                    p.xor_count(),
                    start.xor_count()
                );
                shorter += usize::from(p.xor_count() < start.xor_count());
            }
        }
    }
    // The search does find something on random matrices (so the test can tell).
    assert!(shorter > 0);
}

#[test]
fn random_output_order_keeps_the_program() {
    let mut g = SplitMix64::new(3);
    for case in 0..60 {
        let (rows, cols) = matrix(&mut g, case);
        let p = Run::Rnbp(case as u32).exec(&rows, cols, 1);
        let q = random_topo(&p, &mut g);
        q.verify_masks(&rows).expect("reordered verifies");
        assert_eq!(q.xor_count(), p.xor_count());
        let w = without_window(&p, p.ops.len() / 3, p.ops.len() / 2);
        assert!(w.len() <= p.ops.len());
    }
}
