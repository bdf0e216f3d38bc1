//! A post-pass on an allocated routine body: pairs of VMOVs become one two-register VMOV
//! (docs/thumb2.md, "VMOV pairs").
//!
//! `vmov sM, sM+1, rA, rB` spills two core registers and `vmov rA, rB, sM, sM+1` restores two
//! (one instruction each, as the emulator counts; 2 cycles, the same as two single VMOVs). The
//! allocator spills and restores one value at a time, so the pass
//!
//! 1. gives every spilled value its own *virtual slot* (a spill to s-register s starts one; a
//!    restore from s reads the latest one), and drops spills that are never restored;
//! 2. repeatedly merges two spills (or two restores) of different virtual slots and different
//!    core registers that can be moved next to each other: a spill of rA may move anywhere
//!    between the last write of rA before it and the next write of rA or first restore of its
//!    slot after it; a restore into rA anywhere between the last access of rA (or the spill of
//!    its slot) before it and the next access of rA after it. A merged spill goes as late as
//!    its window allows, a merged restore as early (shorter slot lifetimes). Each virtual slot
//!    is paired with at most one other one (all merges of the two use the same register pair);
//! 3. assigns the s-registers again (interval colouring by start, low registers first; a pair
//!    takes sM and sM+1) and keeps a merge only when this colouring succeeds within the
//!    registers the body used before (s0-s15, or s0-s31 when it already saved d8-d15).
//!
//! The result computes the same values (the tests run every routine in the simulator).

use super::insn::{Insn, Reg};

#[derive(Clone, Debug, PartialEq, Eq)]
enum It {
    Other(Insn),
    Spill { v: usize, r: Reg },
    Restore { r: Reg, v: usize },
    Spill2 { v: [usize; 2], r: [Reg; 2] },
    Restore2 { r: [Reg; 2], v: [usize; 2] },
}

/// Core registers an instruction reads and writes (bit masks).
fn rw(i: &It) -> (u32, u32) {
    let b = |r: Reg| 1u32 << r;
    match i {
        It::Spill { r, .. } => (b(*r), 0),
        It::Restore { r, .. } => (0, b(*r)),
        It::Spill2 { r, .. } => (b(r[0]) | b(r[1]), 0),
        It::Restore2 { r, .. } => (0, b(r[0]) | b(r[1])),
        It::Other(x) => match x {
            Insn::Ldr { rt, base, .. } => (b(*base), b(*rt)),
            Insn::Ldrd { rt, rt2, base, .. } => (b(*base), b(*rt) | b(*rt2)),
            Insn::Str { rt, base, .. } => (b(*rt) | b(*base), 0),
            Insn::Strd { rt, rt2, base, .. } => (b(*rt) | b(*rt2) | b(*base), 0),
            Insn::Eor { rd, rn, rm } => (b(*rn) | b(*rm), b(*rd)),
            Insn::MovZero { rd } => (0, b(*rd)),
            Insn::AddImm { rd, rn, .. } => (b(*rn), b(*rd)),
            Insn::Ldm { base, regs } => (b(*base), regs.iter().fold(0, |m, &r| m | b(r))),
            Insn::VmovToS { rt, .. } => (b(*rt), 0),
            Insn::VmovToR { rt, .. } => (0, b(*rt)),
            Insn::Vmov2ToS { rt, rt2, .. } => (b(*rt) | b(*rt2), 0),
            Insn::Vmov2ToR { rt, rt2, .. } => (0, b(*rt) | b(*rt2)),
            // anything else touches every register (never moved across)
            _ => (u32::MAX, u32::MAX),
        },
    }
}

/// Virtual slots an item writes (spills) and reads (restores).
fn slots(i: &It) -> (&[usize], &[usize]) {
    match i {
        It::Spill { v, .. } => (std::slice::from_ref(v), &[]),
        It::Spill2 { v, .. } => (v, &[]),
        It::Restore { v, .. } => (&[], std::slice::from_ref(v)),
        It::Restore2 { v, .. } => (&[], v),
        It::Other(_) => (&[], &[]),
    }
}

/// Merges refused by the colouring before the pass stops (each refusal costs a full scan for
/// the next nearest merge; without a bound a routine with many spills took minutes).
pub const MAX_REFUSED: usize = 256;

/// The pass (see the module docs). Bodies with stack spill words or paired VMOVs already are
/// returned unchanged, as are bodies where nothing can be merged. It stops after
/// [`MAX_REFUSED`] refused merges.
pub fn pair_vmovs(body: &[Insn]) -> Vec<Insn> {
    let Some((mut items, n_v, high)) = virtual_slots(body) else {
        return body.to_vec();
    };
    // spills never restored are dropped
    let mut restored = vec![false; n_v];
    for i in &items {
        for &v in slots(i).1 {
            restored[v] = true;
        }
    }
    items.retain(|i| !matches!(i, It::Spill { v, .. } if !restored[*v]));
    let limit = if high { 32 } else { 16 };
    let Some(colours) = colour(&items, n_v, &[], limit) else {
        return body.to_vec();
    };
    let (items, colours) = merge_pairs(items, colours, n_v, limit);
    render(items, &colours)
}

/// The body with every spill and restore on its own virtual slot (a new one per spill), the
/// number of slots and whether s16-s31 are used; None when the pass leaves the body unchanged
/// (paired VMOVs, VPUSH/VPOP, stack spill words, a restore of a slot never spilled).
fn virtual_slots(body: &[Insn]) -> Option<(Vec<It>, usize, bool)> {
    let mut items = Vec::with_capacity(body.len());
    let mut cur: [Option<usize>; 32] = [None; 32];
    let mut n_v = 0usize;
    let mut high = false;
    for x in body {
        match *x {
            Insn::VmovToS { s, rt } => {
                let v = n_v;
                n_v += 1;
                cur[s as usize] = Some(v);
                high |= s >= 16;
                items.push(It::Spill { v, r: rt });
            }
            Insn::VmovToR { rt, s } => {
                let v = cur[s as usize]?;
                items.push(It::Restore { r: rt, v });
            }
            Insn::Vmov2ToS { .. } | Insn::Vmov2ToR { .. } | Insn::VPush | Insn::VPop => {
                return None
            }
            Insn::Ldr {
                base: super::insn::SP,
                off,
                ..
            }
            | Insn::Str {
                base: super::insn::SP,
                off,
                ..
            } if off >= 8 => return None,
            ref o => items.push(It::Other(o.clone())),
        }
    }
    Some((items, n_v, high))
}

/// Merges the nearest single spills or restores into pairs while the slots stay colourable
/// (at most [`MAX_REFUSED`] refusals); the items and their colouring.
fn merge_pairs(
    mut items: Vec<It>,
    mut colours: Vec<u8>,
    n_v: usize,
    limit: usize,
) -> (Vec<It>, Vec<u8>) {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n_v];
    let mut bonds: Vec<(usize, usize)> = Vec::new();
    let mut refused: std::collections::HashSet<(usize, usize)> = Default::default();
    let mut n_refused = 0usize;
    while let Some((next, bond)) = best_merge(&items, &adj, &refused) {
        if n_refused >= MAX_REFUSED {
            break;
        }
        let new_bond = !adj[bond.0].contains(&bond.1);
        let mut trial_bonds = bonds.clone();
        if new_bond {
            trial_bonds.push(bond);
        }
        match colour(&next, n_v, &trial_bonds, limit) {
            Some(c) => {
                items = next;
                colours = c;
                if new_bond {
                    adj[bond.0].push(bond.1);
                    adj[bond.1].push(bond.0);
                    bonds = trial_bonds;
                }
            }
            None => {
                refused.insert(bond);
                n_refused += 1;
            }
        }
    }
    (items, colours)
}

/// The instructions of `items` with every virtual slot on its s-register.
fn render(items: Vec<It>, colours: &[u8]) -> Vec<Insn> {
    items
        .into_iter()
        .map(|i| match i {
            It::Other(x) => x,
            It::Spill { v, r } => Insn::VmovToS {
                s: colours[v],
                rt: r,
            },
            It::Restore { r, v } => Insn::VmovToR {
                rt: r,
                s: colours[v],
            },
            It::Spill2 { v, r } => {
                let (lo, hi) = if colours[v[0]] < colours[v[1]] {
                    (0, 1)
                } else {
                    (1, 0)
                };
                Insn::Vmov2ToS {
                    s: colours[v[lo]],
                    rt: r[lo],
                    rt2: r[hi],
                }
            }
            It::Restore2 { r, v } => {
                let (lo, hi) = if colours[v[0]] < colours[v[1]] {
                    (0, 1)
                } else {
                    (1, 0)
                };
                Insn::Vmov2ToR {
                    rt: r[lo],
                    rt2: r[hi],
                    s: colours[v[lo]],
                }
            }
        })
        .collect()
}

/// The window of a single spill or restore at `i`: it may be placed right after item `lo`
/// (or at the start when `None`) up to right before item `hi` (or the end).
fn window(items: &[It], i: usize) -> (Option<usize>, usize) {
    let (reads, writes) = rw(&items[i]);
    let (sw, sr) = slots(&items[i]);
    let spill = !sw.is_empty();
    // spill: blocked by writes of its register (before and after) and reads of its slot after
    // restore: blocked by any access of its register, and by the write of its slot before
    let reg = reads | writes;
    let mut lo = None;
    for j in (0..i).rev() {
        let (r, w) = rw(&items[j]);
        let hit = if spill {
            w & reg != 0
        } else {
            (r | w) & reg != 0 || slots(&items[j]).0.iter().any(|v| sr.contains(v))
        };
        if hit {
            lo = Some(j);
            break;
        }
    }
    let mut hi = items.len();
    for (j, it) in items.iter().enumerate().skip(i + 1) {
        let (r, w) = rw(it);
        let hit = if spill {
            w & reg != 0 || slots(it).1.iter().any(|v| sw.contains(v))
        } else {
            (r | w) & reg != 0
        };
        if hit {
            hi = j;
            break;
        }
    }
    (lo, hi)
}

/// The merge of the two nearest compatible single VMOVs (same direction), as the new item
/// list and the bond (smaller slot first) it uses.
fn best_merge(
    items: &[It],
    adj: &[Vec<usize>],
    refused: &std::collections::HashSet<(usize, usize)>,
) -> Option<(Vec<It>, (usize, usize))> {
    let singles: Vec<usize> = (0..items.len())
        .filter(|&i| matches!(items[i], It::Spill { .. } | It::Restore { .. }))
        .collect();
    let wins: Vec<(Option<usize>, usize)> = singles.iter().map(|&i| window(items, i)).collect();
    let mut best: Option<(usize, usize, usize)> = None; // (distance, a, b) indices into singles
    for x in 0..singles.len() {
        for y in x + 1..singles.len() {
            let (i, j) = (singles[x], singles[y]);
            let (kind_i, vi, ri) = key(&items[i]);
            let (kind_j, vj, rj) = key(&items[j]);
            if kind_i != kind_j || vi == vj || ri == rj {
                continue;
            }
            let bond = (vi.min(vj), vi.max(vj));
            // a refused bond is never proposed again, even when it already exists (the
            // colouring refused a merge on it): otherwise that merge would be picked forever,
            // with the refusal count never growing
            let ok_bond = !refused.contains(&bond)
                && (adj[vi].contains(&vj)
                    || (adj[vi].len() < 2 && adj[vj].len() < 2 && !connected(adj, vi, vj)));
            if !ok_bond {
                continue;
            }
            let (lo1, hi1) = wins[x];
            let (lo2, hi2) = wins[y];
            let lo = lo1.max(lo2); // Option ordering: None < Some
            let hi = hi1.min(hi2);
            let first = lo.map_or(0, |l| l + 1);
            if first > hi {
                continue;
            }
            let d = j - i;
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, x, y));
            }
        }
    }
    let (_, x, y) = best?;
    let (i, j) = (singles[x], singles[y]);
    let (lo1, hi1) = wins[x];
    let (lo2, hi2) = wins[y];
    let lo = lo1.max(lo2);
    let hi = hi1.min(hi2);
    let (kind, vi, ri) = key(&items[i]);
    let (_, vj, rj) = key(&items[j]);
    let merged = if kind == 0 {
        It::Spill2 {
            v: [vi, vj],
            r: [ri, rj],
        }
    } else {
        It::Restore2 {
            r: [ri, rj],
            v: [vi, vj],
        }
    };
    // position in the original indexing: before item `hi` (spills) or after item `lo`
    let at = if kind == 0 {
        hi
    } else {
        lo.map_or(0, |l| l + 1)
    };
    let mut out = Vec::with_capacity(items.len() - 1);
    for (k, it) in items.iter().enumerate() {
        if k == at {
            out.push(merged.clone());
        }
        if k != i && k != j {
            out.push(it.clone());
        }
    }
    if at >= items.len() {
        out.push(merged);
    }
    Some((out, (vi.min(vj), vi.max(vj))))
}

/// (0 = spill / 1 = restore, virtual slot, core register) of a single VMOV.
fn key(i: &It) -> (u8, usize, Reg) {
    match *i {
        It::Spill { v, r } => (0, v, r),
        It::Restore { r, v } => (1, v, r),
        _ => (2, usize::MAX, 0),
    }
}

/// Whether `a` and `b` are in the same bond path.
fn connected(adj: &[Vec<usize>], a: usize, b: usize) -> bool {
    // walk both directions of the path from a
    for &first in adj[a].iter() {
        let (mut prev, mut at) = (a, first);
        loop {
            if at == b {
                return true;
            }
            let Some(&n) = adj[at].iter().find(|&&n| n != prev) else {
                break;
            };
            prev = at;
            at = n;
        }
    }
    false
}

/// S-register of every virtual slot: intervals (first write .. last read) coloured in order of
/// start, lowest register first; the slots of a bond path (each bond: one two-register VMOV)
/// take consecutive registers in path order. `None` when more than `limit` registers would be
/// needed.
fn colour(items: &[It], n_v: usize, bonds: &[(usize, usize)], limit: usize) -> Option<Vec<u8>> {
    let mut start = vec![usize::MAX; n_v];
    let mut end = vec![0usize; n_v];
    for (k, it) in items.iter().enumerate() {
        let (w, r) = slots(it);
        for &v in w {
            start[v] = start[v].min(k);
            end[v] = end[v].max(k);
        }
        for &v in r {
            end[v] = end[v].max(k);
        }
    }
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n_v];
    for &(a, b) in bonds {
        adj[a].push(b);
        adj[b].push(a);
    }
    // bond paths, in order of their earliest start
    let mut seen = vec![false; n_v];
    let mut paths: Vec<(usize, Vec<usize>)> = Vec::new();
    for v in 0..n_v {
        if seen[v] || start[v] == usize::MAX || adj[v].len() > 1 {
            continue;
        }
        let mut path = vec![v];
        seen[v] = true;
        let mut at = v;
        while let Some(&n) = adj[at].iter().find(|&&n| !seen[n]) {
            seen[n] = true;
            path.push(n);
            at = n;
        }
        let first = path.iter().map(|&x| start[x]).min().unwrap_or(usize::MAX);
        paths.push((first, path));
    }
    if (0..n_v).any(|v| start[v] != usize::MAX && !seen[v]) {
        return None; // a cycle (never built by the pass)
    }
    paths.sort();
    let mut busy: Vec<Vec<(usize, usize)>> = vec![Vec::new(); limit];
    let free = |busy: &Vec<Vec<(usize, usize)>>, s: usize, v: usize| {
        busy[s].iter().all(|&(a, b)| b < start[v] || end[v] < a)
    };
    let mut col: Vec<u8> = vec![0; n_v];
    for (_, path) in paths {
        let k = path.len();
        if k > limit {
            return None;
        }
        let mut got = None;
        'base: for m in 0..=limit - k {
            for rev in [false, true] {
                let at = |i: usize| if rev { m + k - 1 - i } else { m + i };
                if path.iter().enumerate().all(|(i, &v)| free(&busy, at(i), v)) {
                    got = Some((m, rev));
                    break 'base;
                }
            }
        }
        let (m, rev) = got?;
        for (i, &v) in path.iter().enumerate() {
            let s = if rev { m + k - 1 - i } else { m + i };
            busy[s].push((start[v], end[v]));
            col[v] = s as u8;
        }
    }
    Some(col)
}
