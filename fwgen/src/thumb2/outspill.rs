//! A post-pass on an allocated routine body: a spilled temporary rides along with an output
//! store into the neighbouring output word (docs/thumb2.md, "Spills into output words").
//!
//! An output word that is not yet written is free memory until its own store, and `out` words
//! may be read back once written. So a single `str rA, [out, #4q]` and a single spill
//! `vmov sK, rB` whose value is restored only by single `vmov rC, sK` become
//!
//! * one `strd` of rA and rB to `out[q]` and `out[q ± 1]` (the neighbour word q' = q ± 1 must be
//!   accessed by nothing before the last restore: it is then unwritten, and its own store comes
//!   later), placed where both the store and the spill may move (the store's window as in
//!   [`super::mempairs`]; the spill anywhere rB is not written, before its first restore);
//! * each restore becomes `ldr rC, [rP, #4q']`, where rP is a register holding `out` at that
//!   point (the candidate is skipped when none does).
//!
//! One instruction shorter per merge (the spill's VMOV goes; a restore costs one instruction
//! either way). The nearest store and spill are merged first, until none is left. The result
//! computes the same outputs (the tests run every routine in the simulator).

use super::insn::{Insn, Reg};
use super::mempairs::{effects, pointers, window, Ptr};

/// A single spill to an s-register and the single restores that read it.
struct Spill {
    at: usize,
    rt: Reg,
    restores: Vec<usize>,
}

fn touches(s: u8, first: u8, n: u8) -> bool {
    s >= first && s < first + n
}

/// Spills whose value is restored only by single VMOVs (at least once).
fn spills(body: &[Insn]) -> Vec<Spill> {
    let mut v = Vec::new();
    for (i, ins) in body.iter().enumerate() {
        let Insn::VmovToS { s, rt } = *ins else {
            continue;
        };
        let mut restores = Vec::new();
        let mut ok = true;
        for (j, later) in body.iter().enumerate().skip(i + 1) {
            match *later {
                Insn::VmovToR { s: s2, .. } if s2 == s => restores.push(j),
                Insn::Vmov2ToR { s: s2, .. } if touches(s, s2, 2) => {
                    ok = false;
                    break;
                }
                Insn::VmovToS { s: s2, .. } if s2 == s => break,
                Insn::Vmov2ToS { s: s2, .. } if touches(s, s2, 2) => break,
                Insn::VPush | Insn::VPop => {
                    ok = false;
                    break;
                }
                _ => {}
            }
        }
        if ok && !restores.is_empty() {
            v.push(Spill { at: i, rt, restores });
        }
    }
    v
}

/// One merge: the two items it removes (the store and the spill), the STRD that replaces
/// them and where it goes, and the restores that become loads (position, register,
/// `out` register, word offset).
struct Merge {
    gone: [usize; 2],
    strd: Insn,
    at: usize,
    restores: Vec<(usize, Reg, Reg, u32)>,
}

/// A register holding `out` before each restore of `s`.
fn out_regs(s: &Spill, ptrs: &[[Option<Ptr>; 16]]) -> Option<Vec<(usize, Reg)>> {
    s.restores
        .iter()
        .map(|&t| {
            (0..16u8)
                .find(|&r| ptrs[t][r as usize] == Some(Ptr::Out))
                .map(|r| (t, r))
        })
        .collect()
}

fn loads_of(body: &[Insn], regs: &[(usize, Reg)], off: u32) -> Vec<(usize, Reg, Reg, u32)> {
    regs.iter()
        .map(|&(t, base)| {
            let Insn::VmovToR { rt, .. } = body[t] else {
                unreachable!("restores are single VMOVs")
            };
            (t, rt, base, off)
        })
        .collect()
}

fn best_merge(body: &[Insn]) -> Option<Merge> {
    let ptrs = pointers(body);
    let n = body.len();
    // first access of every out word (words of unknown address block everything)
    let mut first = [usize::MAX; 64];
    let mut n_out = 0usize;
    for (j, ins) in body.iter().enumerate() {
        let (_, _, words) = effects(ins, &ptrs[j]);
        for (w, f) in first.iter_mut().enumerate() {
            if words >> w & 1 == 1 && *f == usize::MAX {
                *f = j;
            }
        }
        if words != u64::MAX && matches!(ins, Insn::Str { .. } | Insn::Strd { .. }) && words != 0
        {
            n_out = n_out.max(64 - words.leading_zeros() as usize);
        }
    }
    let n_out = n_out.min(64);
    let writes = |k: usize, r: Reg| effects(&body[k], &ptrs[k]).1 >> r & 1 == 1;
    let sp = spills(body);
    // where each spill may sit (after item lo, before item hi), and its out registers
    let sw: Vec<(Option<usize>, usize, Option<Vec<(usize, Reg)>>)> = sp
        .iter()
        .map(|s| {
            let lo = (0..s.at).rev().find(|&k| writes(k, s.rt));
            let hi = (s.at + 1..n)
                .find(|&k| writes(k, s.rt))
                .unwrap_or(n)
                .min(s.restores[0]);
            (lo, hi, out_regs(s, &ptrs))
        })
        .collect();
    let mut best: Option<(usize, Merge)> = None;
    for (j, ins) in body.iter().enumerate() {
        let Insn::Str { rt: ra, base, off } = *ins else {
            continue;
        };
        if ptrs[j][base as usize] != Some(Ptr::Out) || off % 4 != 0 {
            continue;
        }
        let q = (off / 4) as usize;
        if q >= 64 {
            continue;
        }
        let (lo_s, hi_s) = window(body, &ptrs, j, (true, ra, base, off));
        for (s, (lo_v, hi_v, regs)) in sp.iter().zip(&sw) {
            let dist = s.at.abs_diff(j);
            if best.as_ref().is_some_and(|b| b.0 <= dist) {
                continue;
            }
            let Some(regs) = regs else { continue };
            let last = *s.restores.last().expect("non-empty");
            let lo = lo_s.max(*lo_v);
            let hi = hi_s.min(*hi_v);
            if lo.map_or(0, |l| l + 1) > hi {
                continue;
            }
            for q2 in [q.wrapping_sub(1), q + 1] {
                if q2 >= n_out || first[q2] <= last {
                    continue;
                }
                let (lo_reg, hi_reg, wlo) = if q2 > q { (ra, s.rt, q) } else { (s.rt, ra, q2) };
                let strd = Insn::Strd {
                    rt: lo_reg,
                    rt2: hi_reg,
                    base,
                    off: 4 * wlo as u32,
                };
                best = Some((
                    dist,
                    Merge {
                        gone: [j, s.at],
                        strd,
                        at: hi,
                        restores: loads_of(body, regs, 4 * q2 as u32),
                    },
                ));
                break;
            }
        }
    }
    best.map(|b| b.1)
}

/// The pass (see the module docs). Bodies are taken before the prologue is added (pointer
/// stack slots at their raw offsets, as [`super::mempairs`] expects).
pub fn spill_into_outputs(body: &[Insn]) -> Vec<Insn> {
    let mut cur = body.to_vec();
    while let Some(m) = best_merge(&cur) {
        let mut out = Vec::with_capacity(cur.len());
        for (k, it) in cur.iter().enumerate() {
            if k == m.at {
                out.push(m.strd.clone());
            }
            if m.gone.contains(&k) {
                continue;
            }
            if let Some(&(_, rt, base, off)) = m.restores.iter().find(|r| r.0 == k) {
                out.push(Insn::Ldr { rt, base, off });
            } else {
                out.push(it.clone());
            }
        }
        if m.at >= cur.len() {
            out.push(m.strd);
        }
        cur = out;
    }
    cur
}
