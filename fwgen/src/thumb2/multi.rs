//! A post-pass on an allocated routine body, after [`super::mempairs`]: loads (stores) of a run
//! of three or more consecutive words through one pointer register, single or paired, become
//! one LDM (STM) (docs/thumb2.md, "Multiple transfers").
//!
//! An LDM/STM moves words `[base, base + 4k)` (IA) or `[base - 4k, base)` (DB) to or from k
//! registers in ascending order, the lowest register at the lowest address; with writeback
//! the base register moves past the words. The pass works in two phases.
//!
//! 1. **Grouping** (offsets relative to the pointer as loaded). Two accesses of adjacent word
//!    runs through the same pointer register, of the same kind (loads or stores), whose
//!    registers are ascending with the address across both, are merged when they can be moved
//!    next to each other (windows as in [`super::mempairs`]); the nearest pair first, until
//!    none is left. A group of loads sits as early as its window allows, one of stores as late.
//! 2. **Addressing.** A forward walk tracks how far each pointer register has moved from the
//!    pointer it was loaded with (zero at the start and after each re-load from the stack). A
//!    group whose first word is where the pointer points becomes `ldmia`/`stmia`, one whose last
//!    word ends there `ldmdb`/`stmdb`, with or without writeback; otherwise, when it replaces at
//!    least three instructions, `add`/`sub` moves the pointer to its first word first; else it is
//!    split back into its members. Every later single access through a moved pointer gets its
//!    offset adjusted (LDR/STR in -255..4095, LDRD/STRD in -1020..1020; a pointer is moved back
//!    first when an offset would not fit). Writeback and `add`/`sub` are used only on a pointer
//!    register that is read by nothing but memory accesses until it is overwritten. The walk is
//!    run with writeback always and never, with and without `add`/`sub`; the shortest body is
//!    kept, and the original when none is shorter.

use super::insn::{Insn, Reg, SP};

/// Stack offsets (raw, before [`super::alloc`] lays out the frame) of the two saved pointers.
const OUT_SLOT: i32 = 0;
const IN_SLOT: i32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ptr {
    In,
    Out,
}

/// One instruction of the body, or a group being formed.
#[derive(Clone, Debug)]
enum Node {
    Plain(Insn),
    Group {
        store: bool,
        base: Reg,
        /// First word (offset / 4, relative to the pointer as loaded).
        word: i32,
        /// Registers in address order (ascending).
        regs: Vec<Reg>,
        /// The original instructions, in body order.
        members: Vec<Insn>,
    },
}

/// A load or store through a pointer register: (is a store, base, first word, registers in
/// address order).
type Access = (bool, Reg, i32, Vec<Reg>);

fn bit(r: Reg) -> u32 {
    1u32 << r
}

/// Registers read and written (masks) and the `out` words touched (mask over 64 words;
/// `u64::MAX` when unknown) of a plain instruction.
fn effects(i: &Insn, ptr: &[Option<Ptr>; 16]) -> (u32, u32, u64) {
    let words = |base: Reg, off: i32, n: i32| -> u64 {
        match ptr[base as usize] {
            Some(Ptr::Out) if off >= 0 && off / 4 + n <= 64 => ((1u64 << n) - 1) << (off / 4),
            Some(Ptr::Out) => u64::MAX,
            _ => 0,
        }
    };
    let b = bit;
    match *i {
        Insn::Ldr { rt, base, off } => (b(base), b(rt), words(base, off, 1)),
        Insn::Ldrd { rt, rt2, base, off } => (b(base), b(rt) | b(rt2), words(base, off, 2)),
        Insn::Str { rt, base, off } => (b(rt) | b(base), 0, words(base, off, 1)),
        Insn::Strd { rt, rt2, base, off } => (b(rt) | b(rt2) | b(base), 0, words(base, off, 2)),
        Insn::Eor { rd, rn, rm } => (b(rn) | b(rm), b(rd), 0),
        Insn::MovZero { rd } => (0, b(rd), 0),
        Insn::VmovToS { rt, .. } => (b(rt), 0, 0),
        Insn::VmovToR { rt, .. } => (0, b(rt), 0),
        Insn::Vmov2ToS { rt, rt2, .. } => (b(rt) | b(rt2), 0, 0),
        Insn::Vmov2ToR { rt, rt2, .. } => (0, b(rt) | b(rt2), 0),
        _ => (u32::MAX, u32::MAX, u64::MAX),
    }
}

fn node_effects(n: &Node, ptr: &[Option<Ptr>; 16]) -> (u32, u32, u64) {
    match n {
        Node::Plain(i) => effects(i, ptr),
        Node::Group { members, .. } => members.iter().fold((0, 0, 0), |acc, m| {
            let e = effects(m, ptr);
            (acc.0 | e.0, acc.1 | e.1, acc.2 | e.2)
        }),
    }
}

/// The pointer each register holds before every node (pointers are never moved in phase 1).
fn pointers(body: &[Node]) -> Vec<[Option<Ptr>; 16]> {
    let mut cur: [Option<Ptr>; 16] = [None; 16];
    cur[0] = Some(Ptr::Out);
    cur[1] = Some(Ptr::In);
    let mut all = Vec::with_capacity(body.len());
    for n in body {
        all.push(cur);
        let (_, w, _) = node_effects(n, &cur);
        let loaded = match n {
            Node::Plain(Insn::Ldr {
                rt,
                base: SP,
                off: OUT_SLOT,
            }) => Some((*rt, Ptr::Out)),
            Node::Plain(Insn::Ldr {
                rt,
                base: SP,
                off: IN_SLOT,
            }) => Some((*rt, Ptr::In)),
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

fn access(n: &Node, ptr: &[Option<Ptr>; 16]) -> Option<Access> {
    let is_ptr = |b: Reg| b != SP && ptr[b as usize].is_some();
    let is_out = |b: Reg| b != SP && ptr[b as usize] == Some(Ptr::Out);
    match n {
        Node::Plain(Insn::Ldr { rt, base, off }) if is_ptr(*base) && off % 4 == 0 => {
            Some((false, *base, off / 4, vec![*rt]))
        }
        Node::Plain(Insn::Ldrd { rt, rt2, base, off }) if is_ptr(*base) && off % 4 == 0 => {
            Some((false, *base, off / 4, vec![*rt, *rt2]))
        }
        Node::Plain(Insn::Str { rt, base, off }) if is_out(*base) && off % 4 == 0 => {
            Some((true, *base, off / 4, vec![*rt]))
        }
        Node::Plain(Insn::Strd { rt, rt2, base, off }) if is_out(*base) && off % 4 == 0 => {
            Some((true, *base, off / 4, vec![*rt, *rt2]))
        }
        Node::Group {
            store,
            base,
            word,
            regs,
            ..
        } => Some((*store, *base, *word, regs.clone())),
        _ => None,
    }
}

/// The window of the access at `i`: it may sit right after node `lo` (or at the start) up to
/// right before node `hi` (or the end).
fn window(
    body: &[Node],
    ptrs: &[[Option<Ptr>; 16]],
    i: usize,
    acc: &Access,
) -> (Option<usize>, usize) {
    let (store, base, _, regs) = acc;
    let mask = regs.iter().fold(0u32, |m, &r| m | bit(r));
    let (_, _, mine) = node_effects(&body[i], &ptrs[i]);
    let blocks = |j: usize| {
        let (r, w, words) = node_effects(&body[j], &ptrs[j]);
        let reg = if *store {
            w & mask != 0
        } else {
            (r | w) & mask != 0
        };
        reg || w & bit(*base) != 0 || words & mine != 0
    };
    let lo = (0..i).rev().find(|&j| blocks(j));
    let hi = (i + 1..body.len())
        .find(|&j| blocks(j))
        .unwrap_or(body.len());
    (lo, hi)
}

fn members_of(n: &Node) -> Vec<Insn> {
    match n {
        Node::Plain(i) => vec![i.clone()],
        Node::Group { members, .. } => members.clone(),
    }
}

/// Phase 1: the body with groups formed.
fn group(body: &[Insn]) -> Vec<Node> {
    let mut cur: Vec<Node> = body.iter().cloned().map(Node::Plain).collect();
    loop {
        let ptrs = pointers(&cur);
        let accs: Vec<(usize, Access)> = (0..cur.len())
            .filter_map(|i| access(&cur[i], &ptrs[i]).map(|a| (i, a)))
            .collect();
        let wins: Vec<_> = accs
            .iter()
            .map(|(i, a)| window(&cur, &ptrs, *i, a))
            .collect();
        let mut best: Option<(usize, usize, usize)> = None;
        for x in 0..accs.len() {
            let (i, (st1, b1, w1, r1)) = &accs[x];
            for y in x + 1..accs.len() {
                let (j, (st2, b2, w2, r2)) = &accs[y];
                if st1 != st2 || b1 != b2 || ptrs[*i][*b1 as usize] != ptrs[*j][*b2 as usize] {
                    continue;
                }
                // (lower run, upper run)
                let (lo_r, hi_r) = if w1 + r1.len() as i32 == *w2 {
                    (r1, r2)
                } else if w2 + r2.len() as i32 == *w1 {
                    (r2, r1)
                } else {
                    continue;
                };
                let ascending = lo_r.windows(2).all(|p| p[0] < p[1])
                    && hi_r.windows(2).all(|p| p[0] < p[1])
                    && lo_r.last() < hi_r.first();
                if !ascending || lo_r.contains(b1) || hi_r.contains(b1) {
                    continue;
                }
                if lo_r.iter().chain(hi_r.iter()).any(|&r| r == SP || r > 14) {
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
        let (i, (store, base, w1, r1)) = accs[x].clone();
        let (j, (_, _, w2, r2)) = accs[y].clone();
        let lo = wins[x].0.max(wins[y].0);
        let hi = wins[x].1.min(wins[y].1);
        let (word, regs) = if w1 < w2 {
            (w1, [r1, r2].concat())
        } else {
            (w2, [r2, r1].concat())
        };
        let mut members = members_of(&cur[i]);
        members.extend(members_of(&cur[j]));
        let merged = Node::Group {
            store,
            base,
            word,
            regs,
            members,
        };
        let at = if store { hi } else { lo.map_or(0, |l| l + 1) };
        let mut out = Vec::with_capacity(cur.len() - 1);
        let mut merged = Some(merged);
        for (k, it) in cur.iter().enumerate() {
            if k == at {
                if let Some(m) = merged.take() {
                    out.push(m);
                }
            }
            if k != i && k != j {
                out.push(it.clone());
            }
        }
        if let Some(m) = merged {
            out.push(m);
        }
        cur = out;
    }
}

/// For each node and register: the register holds a pointer that is read only as the base of
/// memory accesses from its load until it is overwritten (so it may be moved).
fn movable(body: &[Node]) -> Vec<u32> {
    // instance of each register before each node: index of its defining node + 1 (0 = entry)
    let mut inst = [usize::MAX; 16];
    inst[0] = 0;
    inst[1] = 0;
    let ptrs = pointers(body);
    let mut at: Vec<[usize; 16]> = Vec::with_capacity(body.len());
    let mut bad: std::collections::HashSet<(u8, usize)> = std::collections::HashSet::new();
    for (k, n) in body.iter().enumerate() {
        at.push(inst);
        let (r, w, _) = node_effects(n, &ptrs[k]);
        // reads other than as a base
        let base_only = match n {
            Node::Plain(Insn::Ldr { base, .. } | Insn::Ldrd { base, .. }) => bit(*base),
            Node::Plain(Insn::Str { rt, base, .. }) if rt != base => bit(*base),
            Node::Plain(Insn::Strd { rt, rt2, base, .. }) if rt != base && rt2 != base => {
                bit(*base)
            }
            Node::Group { base, .. } => bit(*base),
            _ => 0,
        };
        for x in 0..16u8 {
            if r >> x & 1 == 1 && base_only >> x & 1 == 0 && inst[x as usize] != usize::MAX {
                bad.insert((x, inst[x as usize]));
            }
        }
        for (x, c) in inst.iter_mut().enumerate() {
            if w >> x & 1 == 1 {
                *c = usize::MAX;
            }
        }
        if let Node::Plain(Insn::Ldr {
            rt,
            base: SP,
            off: OUT_SLOT | IN_SLOT,
        }) = n
        {
            inst[*rt as usize] = k + 1;
        }
    }
    at.iter()
        .map(|a| {
            (0..16u8).fold(0u32, |m, x| {
                let i = a[x as usize];
                if i != usize::MAX && !bad.contains(&(x, i)) {
                    m | bit(x)
                } else {
                    m
                }
            })
        })
        .collect()
}

fn fits(i: &Insn) -> bool {
    match *i {
        Insn::Ldr { off, .. } | Insn::Str { off, .. } => (-255..=4095).contains(&off),
        Insn::Ldrd { off, .. } | Insn::Strd { off, .. } => {
            off % 4 == 0 && (-1020..=1020).contains(&off)
        }
        _ => true,
    }
}

/// Phase 2 with one choice per group (in body order; missing ones count as 0): 0 splits the
/// group into its members, 1 emits it with writeback, 2 without (moving the pointer to its
/// first word first with `add`/`sub` when it points neither there nor past its last word).
/// None when an offset cannot be made to fit.
fn address(body: &[Node], choice: &[u8]) -> Option<Vec<Insn>> {
    let mut g = 0usize;
    let ptrs = pointers(body);
    let mov = movable(body);
    // words each register has moved from its pointer
    let mut delta = [0i32; 16];
    let mut out = Vec::with_capacity(body.len());
    for (k, n) in body.iter().enumerate() {
        let p = &ptrs[k];
        let adjust = |i: &Insn, d: i32| -> Insn {
            let mut i = i.clone();
            if let Insn::Ldr { off, .. }
            | Insn::Ldrd { off, .. }
            | Insn::Str { off, .. }
            | Insn::Strd { off, .. } = &mut i
            {
                *off -= 4 * d;
            }
            i
        };
        let emit_plain = |i: &Insn, delta: &mut [i32; 16], out: &mut Vec<Insn>| -> bool {
            let base = match *i {
                Insn::Ldr { base, .. }
                | Insn::Ldrd { base, .. }
                | Insn::Str { base, .. }
                | Insn::Strd { base, .. } => Some(base),
                _ => None,
            };
            match base {
                Some(b) if b != SP && p[b as usize].is_some() && delta[b as usize] != 0 => {
                    let a = adjust(i, delta[b as usize]);
                    if fits(&a) {
                        out.push(a);
                    } else {
                        out.push(Insn::AddImm {
                            rd: b,
                            imm: -4 * delta[b as usize],
                        });
                        delta[b as usize] = 0;
                        if !fits(i) {
                            return false;
                        }
                        out.push(i.clone());
                    }
                }
                _ => out.push(i.clone()),
            }
            true
        };
        match n {
            Node::Plain(i) => {
                if !emit_plain(i, &mut delta, &mut out) {
                    return None;
                }
                let (_, w, _) = effects(i, p);
                for (x, d) in delta.iter_mut().enumerate() {
                    if w >> x & 1 == 1 {
                        *d = 0;
                    }
                }
            }
            Node::Group {
                store,
                base,
                word,
                regs,
                members,
            } => {
                let b = *base as usize;
                let d = delta[b];
                let nw = regs.len() as i32;
                let free = mov[k] >> b & 1 == 1;
                let c = choice.get(g).copied().unwrap_or(0);
                g += 1;
                let wb = c == 1 && free;
                let multi = |ia: bool, wb: bool| {
                    if *store {
                        Insn::Stm {
                            base: *base,
                            regs: regs.clone(),
                            wb,
                            db: !ia,
                        }
                    } else {
                        Insn::Ldm {
                            base: *base,
                            regs: regs.clone(),
                            wb,
                            db: !ia,
                        }
                    }
                };
                if c == 0 {
                    for m in members {
                        if !emit_plain(m, &mut delta, &mut out) {
                            return None;
                        }
                    }
                } else if d == *word {
                    out.push(multi(true, wb));
                    if wb {
                        delta[b] = word + nw;
                    }
                } else if d == word + nw {
                    out.push(multi(false, wb));
                    if wb {
                        delta[b] = *word;
                    }
                } else if free {
                    out.push(Insn::AddImm {
                        rd: *base,
                        imm: 4 * (word - d),
                    });
                    out.push(multi(true, wb));
                    delta[b] = if wb { word + nw } else { *word };
                } else {
                    for m in members {
                        if !emit_plain(m, &mut delta, &mut out) {
                            return None;
                        }
                    }
                }
                if !*store {
                    for &r in regs {
                        delta[r as usize] = 0;
                    }
                }
            }
        }
    }
    Some(out)
}

/// Up to this many groups every combination of choices is tried in phase 2.
const EXHAUSTIVE: usize = 6;

/// The pass (see the module docs).
pub fn merge(body: &[Insn]) -> Vec<Insn> {
    let grouped = group(body);
    if !grouped.iter().any(|n| matches!(n, Node::Group { .. })) {
        return body.to_vec();
    }
    let n = grouped
        .iter()
        .filter(|n| matches!(n, Node::Group { .. }))
        .count();
    let mut best = body.to_vec();
    let mut consider = |choice: &[u8]| {
        if let Some(b) = address(&grouped, choice) {
            if b.len() < best.len() {
                best = b;
            }
        }
    };
    if n <= EXHAUSTIVE {
        // every choice vector
        let mut choice = vec![0u8; n];
        loop {
            consider(&choice);
            let Some(p) = choice.iter().position(|&c| c < 2) else {
                break;
            };
            choice[p] += 1;
            for c in &mut choice[..p] {
                *c = 0;
            }
        }
    } else {
        // the same choice for every group, and each group alone
        for c in 1..=2u8 {
            consider(&vec![c; n]);
            for k in 0..n {
                let mut v = vec![0u8; n];
                v[k] = c;
                consider(&v);
            }
        }
    }
    best
}
