//! The ranking of the plans: ascending total modelled cycles (ties: kind, l, c, β), the ranks
//! of the published configurations and of the best plan of each kind, and the summary that
//! says why the preferred plan wins.

use super::{Plan, PlanKind, PublishedRank};

/// Sort the plans by total cycles (ties: kind, l, c, β) and number them 1, 2, ...
pub(super) fn rank(plans: &mut [Plan]) {
    plans.sort_by(|a, b| {
        a.cost
            .total_cycles
            .total_cmp(&b.cost.total_cycles)
            .then(a.kind.cmp(&b.kind))
            .then(a.transforms[0].l.cmp(&b.transforms[0].l))
            .then(a.c.cmp(&b.c))
            .then(a.transforms[0].beta.cmp(&b.transforms[0].beta))
    });
    for (i, p) in plans.iter_mut().enumerate() {
        p.rank = i + 1;
    }
}

/// The ranks and totals of the plans that reproduce a published configuration.
pub(super) fn published_ranks(plans: &[Plan]) -> Vec<PublishedRank> {
    plans
        .iter()
        .filter_map(|p| {
            p.published.as_ref().map(|s| PublishedRank {
                label: s.clone(),
                rank: p.rank,
                total_cycles: p.cost.total_cycles,
            })
        })
        .collect()
}

/// The rank of the first (best) plan of a kind, if any.
pub(super) fn best_rank_of(plans: &[Plan], kind: PlanKind) -> Option<usize> {
    plans.iter().find(|p| p.kind == kind).map(|p| p.rank)
}

/// Why the preferred plan wins, in words.
pub(super) fn summarize(plans: &[Plan]) -> String {
    let Some(best) = plans.first() else {
        return "no plan".into();
    };
    let comp = best
        .cost
        .parts()
        .iter()
        .filter(|(_, c)| *c > 0.0)
        .map(|(n, c)| format!("{n} {c:.0}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut s = format!(
        "preferred: {} with β = {} ({:.0} cycles: {comp})",
        best.label, best.transforms[0].beta, best.cost.total_cycles
    );
    for (kind, name) in [
        (PlanKind::Single, "single FAFFT"),
        (PlanKind::Residue, "residue plan"),
        (PlanKind::TwoModuli, "two-moduli plan"),
        (PlanKind::Karatsuba2, "2-Karatsuba split"),
    ] {
        let Some(p) = plans.iter().find(|p| p.kind == kind) else {
            continue;
        };
        if p.rank == best.rank {
            continue;
        }
        // The component that grows most relative to the preferred plan explains the gap.
        let (dn, dv) = p
            .cost
            .parts()
            .iter()
            .zip(best.cost.parts().iter())
            .map(|((n, a), (_, b))| (*n, a - b))
            .fold(("", f64::MIN), |acc, x| if x.1 > acc.1 { x } else { acc });
        s += &format!(
            "; best {name} {} (rank {}) costs {:.2}×, mostly {dn} (+{dv:.0} cycles)",
            p.label,
            p.rank,
            p.cost.total_cycles / best.cost.total_cycles
        );
    }
    s
}
