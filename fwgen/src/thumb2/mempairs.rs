//! A post-pass on an allocated routine body: two single-word loads (stores) of adjacent words
//! through the same pointer become one LDRD (STRD) (docs/thumb2.md, "Load and store pairs").
//!
//! The allocator pairs a load only when both words are wanted at once and a second register is
//! free, and a store only when both outputs are in registers together. Afterwards many single
//! loads of `in[q]` and `in[q + 1]` (or stores of `out[i]` and `out[i + 1]`) can be moved next to
//! each other: a load into rA may move anywhere between the last access of rA (or write of its
//! base register) before it and the next one after it; a store of rA between the last write of
//! rA or of its base before it and the next one after it. Loads from and stores to the same
//! word of `out` never cross (an output is re-loaded only after it is stored); `in` is
//! read-only. The two nearest mergeable ones are merged first (a load as early as its window
//! allows, a store as late), until no pair is left.

use super::insn::{Insn, Reg, SP};

/// Stack offsets (raw, before [`super::alloc`] lays out the frame) of the two saved pointers.
const OUT_SLOT: u32 = 0;
const IN_SLOT: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ptr {
    In,
    Out,
}

/// Registers read and written (masks) and the `out` words touched (mask over 64 words;
/// `u64::MAX` when unknown).
fn effects(i: &Insn, ptr: &[Option<Ptr>; 16]) -> (u32, u32, u64) {
    let b = |r: Reg| 1u32 << r;
    let words = |base: Reg, off: u32, n: u32| -> u64 {
        match ptr[base as usize] {
            Some(Ptr::Out) if off / 4 + n <= 64 => ((1u64 << n) - 1) << (off / 4),
            Some(Ptr::Out) => u64::MAX,
            _ => 0,
        }
    };
    match *i {
        Insn::Ldr { rt, base, off } => (b(base), b(rt), words(base, off, 1)),
        Insn::Ldrd { rt, rt2, base, off } => (b(base), b(rt) | b(rt2), words(base, off, 2)),
        Insn::Str { rt, base, off } => (b(rt) | b(base), 0, words(base, off, 1)),
        Insn::Strd { rt, rt2, base, off } => (b(rt) | b(rt2) | b(base), 0, words(base, off, 2)),
        Insn::Eor { rd, rn, rm } => (b(rn) | b(rm), b(rd), 0),
        Insn::MovZero { rd } => (0, b(rd), 0),
        Insn::AddImm { rd, rn, .. } => (b(rn), b(rd), 0),
        Insn::Ldm { base, ref regs } => (
            b(base),
            regs.iter().fold(0, |m, &r| m | b(r)),
            words(base, 0, regs.len() as u32),
        ),
        Insn::VmovToS { rt, .. } => (b(rt), 0, 0),
        Insn::VmovToR { rt, .. } => (0, b(rt), 0),
        Insn::Vmov2ToS { rt, rt2, .. } => (b(rt) | b(rt2), 0, 0),
        Insn::Vmov2ToR { rt, rt2, .. } => (0, b(rt) | b(rt2), 0),
        _ => (u32::MAX, u32::MAX, u64::MAX),
    }
}

/// The pointer each register holds before every instruction.
fn pointers(body: &[Insn]) -> Vec<[Option<Ptr>; 16]> {
    let mut cur: [Option<Ptr>; 16] = [None; 16];
    cur[0] = Some(Ptr::Out);
    cur[1] = Some(Ptr::In);
    let mut all = Vec::with_capacity(body.len());
    for i in body {
        all.push(cur);
        let (_, w, _) = effects(i, &cur);
        let loaded = match *i {
            Insn::Ldr {
                rt,
                base: SP,
                off: OUT_SLOT,
            } => Some((rt, Ptr::Out)),
            Insn::Ldr {
                rt,
                base: SP,
                off: IN_SLOT,
            } => Some((rt, Ptr::In)),
            _ => None,
        };
        for (r, c) in cur.iter_mut().enumerate() {
            if w >> r & 1 == 1 {
                *c = None;
            }
        }
        if let Some((r, p)) = loaded {
            cur[r as usize] = Some(p);
        }
    }
    all
}

/// A single load or store that may be merged: (is a store, register, base, offset).
fn single(i: &Insn, ptr: &[Option<Ptr>; 16]) -> Option<(bool, Reg, Reg, u32)> {
    match *i {
        Insn::Ldr { rt, base, off } if base != SP && ptr[base as usize].is_some() => {
            Some((false, rt, base, off))
        }
        Insn::Str { rt, base, off } if ptr[base as usize] == Some(Ptr::Out) => {
            Some((true, rt, base, off))
        }
        _ => None,
    }
}

/// The window of the single load or store at `i`: it may sit right after item `lo` (or at the
/// start) up to right before item `hi` (or the end).
fn window(
    body: &[Insn],
    ptrs: &[[Option<Ptr>; 16]],
    i: usize,
    (store, rt, base, _): (bool, Reg, Reg, u32),
) -> (Option<usize>, usize) {
    let (_, _, mine) = effects(&body[i], &ptrs[i]);
    let blocks = |j: usize| {
        let (r, w, words) = effects(&body[j], &ptrs[j]);
        let reg = if store {
            w & (1 << rt) != 0
        } else {
            (r | w) & (1 << rt) != 0
        };
        reg || w & (1 << base) != 0 || words & mine != 0
    };
    let lo = (0..i).rev().find(|&j| blocks(j));
    let hi = (i + 1..body.len())
        .find(|&j| blocks(j))
        .unwrap_or(body.len());
    (lo, hi)
}

/// The pass (see the module docs).
pub fn pair_memory(body: &[Insn]) -> Vec<Insn> {
    let mut cur = body.to_vec();
    loop {
        let ptrs = pointers(&cur);
        let singles: Vec<(usize, (bool, Reg, Reg, u32))> = (0..cur.len())
            .filter_map(|i| single(&cur[i], &ptrs[i]).map(|s| (i, s)))
            .collect();
        let wins: Vec<_> = singles
            .iter()
            .map(|&(i, s)| window(&cur, &ptrs, i, s))
            .collect();
        let mut best: Option<(usize, usize, usize)> = None;
        for x in 0..singles.len() {
            let (i, (st1, r1, b1, o1)) = singles[x];
            for y in x + 1..singles.len() {
                let (j, (st2, r2, b2, o2)) = singles[y];
                if st1 != st2 || b1 != b2 || (o1 + 4 != o2 && o2 + 4 != o1) {
                    continue;
                }
                if !st1 && r1 == r2 {
                    continue;
                }
                if ptrs[i][b1 as usize] != ptrs[j][b2 as usize] {
                    continue;
                }
                let lo = wins[x].0.max(wins[y].0);
                let hi = wins[x].1.min(wins[y].1);
                if lo.map_or(0, |l| l + 1) > hi {
                    continue;
                }
                if best.is_none_or(|b| j - i < b.0) {
                    best = Some((j - i, x, y));
                }
            }
        }
        let Some((_, x, y)) = best else {
            return cur;
        };
        let (i, (store, r1, base, o1)) = singles[x];
        let (j, (_, r2, _, o2)) = singles[y];
        let lo = wins[x].0.max(wins[y].0);
        let hi = wins[x].1.min(wins[y].1);
        let (r_lo, r_hi, off) = if o1 < o2 { (r1, r2, o1) } else { (r2, r1, o2) };
        let merged = if store {
            Insn::Strd {
                rt: r_lo,
                rt2: r_hi,
                base,
                off,
            }
        } else {
            Insn::Ldrd {
                rt: r_lo,
                rt2: r_hi,
                base,
                off,
            }
        };
        let at = if store { hi } else { lo.map_or(0, |l| l + 1) };
        let mut out = Vec::with_capacity(cur.len() - 1);
        for (k, it) in cur.iter().enumerate() {
            if k == at {
                out.push(merged.clone());
            }
            if k != i && k != j {
                out.push(it.clone());
            }
        }
        if at >= cur.len() {
            out.push(merged);
        }
        cur = out;
    }
}
