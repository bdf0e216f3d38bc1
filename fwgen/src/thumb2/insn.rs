//! The Thumb-2 instruction subset the backend emits, its GNU-as text and its static counts.

use std::fmt::Write as _;

use crate::m4timing::{cost, sequence_cycles, Kind, Step, TimingRules};

/// A general-purpose register number: 0..=12 are r0-r12, 13 is sp, 14 is lr, 15 is pc.
pub type Reg = u8;

/// The stack pointer.
pub const SP: Reg = 13;
/// The link register (allocatable after it is pushed).
pub const LR: Reg = 14;
/// The program counter (only in the final `pop`).
pub const PC: Reg = 15;

/// The 14 registers the allocator hands out, in preference order.
pub const ALLOCATABLE: [Reg; 14] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 0, 1];

/// One emitted instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Insn {
    /// `push {list}`.
    Push(Vec<Reg>),
    /// `pop {list}` (the list ends with pc: this is the return).
    Pop(Vec<Reg>),
    /// `vpush {s16-s31}` (d8-d15, callee-saved under AAPCS).
    VPush,
    /// `vpop {s16-s31}`.
    VPop,
    /// `ldr rt, [base, #off]`.
    Ldr { rt: Reg, base: Reg, off: u32 },
    /// `ldrd rt, rt2, [base, #off]` (rt from off, rt2 from off + 4).
    Ldrd {
        rt: Reg,
        rt2: Reg,
        base: Reg,
        off: u32,
    },
    /// `str rt, [base, #off]`.
    Str { rt: Reg, base: Reg, off: u32 },
    /// `strd rt, rt2, [base, #off]`.
    Strd {
        rt: Reg,
        rt2: Reg,
        base: Reg,
        off: u32,
    },
    /// `eor rd, rn, rm`.
    Eor { rd: Reg, rn: Reg, rm: Reg },
    /// `vmov sN, rt` (spill).
    VmovToS { s: u8, rt: Reg },
    /// `vmov rt, sN` (restore).
    VmovToR { rt: Reg, s: u8 },
    /// `vmov sN, sN+1, rt, rt2` (two spills in one instruction).
    Vmov2ToS { s: u8, rt: Reg, rt2: Reg },
    /// `vmov rt, rt2, sN, sN+1` (two restores in one instruction; rt != rt2).
    Vmov2ToR { rt: Reg, rt2: Reg, s: u8 },
    /// `ldm base, {regs}` (no writeback): `regs[k]` from `base + 4k`; the list ascends and
    /// may hold `base` itself (docs/thumb2.md, "Input preload").
    Ldm { base: Reg, regs: Vec<Reg> },
    /// `add rd, rn, #imm` (the base of a preload that does not start at `in[0]`).
    AddImm { rd: Reg, rn: Reg, imm: u32 },
    /// `mov rd, #0` (a zero output word).
    MovZero { rd: Reg },
    /// `sub sp, sp, #n` (stack spill words, only when s0-s31 are full).
    SubSp(u32),
    /// `add sp, sp, #n`.
    AddSp(u32),
    /// `bx lr` (return when nothing was pushed; not used by the allocator's prologue).
    BxLr,
}

/// Name of a general-purpose register in GNU-as syntax.
pub fn reg_name(r: Reg) -> String {
    match r {
        SP => "sp".into(),
        LR => "lr".into(),
        PC => "pc".into(),
        _ => format!("r{r}"),
    }
}

fn reg_list(list: &[Reg]) -> String {
    list.iter()
        .map(|&r| reg_name(r))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mem(base: Reg, off: u32) -> String {
    if off == 0 {
        format!("[{}]", reg_name(base))
    } else {
        format!("[{}, #{off}]", reg_name(base))
    }
}

impl Insn {
    /// GNU-as text (unified syntax), without indentation.
    pub fn text(&self) -> String {
        match self {
            Insn::Push(l) => format!("push {{{}}}", reg_list(l)),
            Insn::Pop(l) => format!("pop {{{}}}", reg_list(l)),
            Insn::VPush => "vpush {s16-s31}".into(),
            Insn::VPop => "vpop {s16-s31}".into(),
            Insn::Ldr { rt, base, off } => format!("ldr {}, {}", reg_name(*rt), mem(*base, *off)),
            Insn::Ldrd { rt, rt2, base, off } => format!(
                "ldrd {}, {}, {}",
                reg_name(*rt),
                reg_name(*rt2),
                mem(*base, *off)
            ),
            Insn::Str { rt, base, off } => format!("str {}, {}", reg_name(*rt), mem(*base, *off)),
            Insn::Strd { rt, rt2, base, off } => format!(
                "strd {}, {}, {}",
                reg_name(*rt),
                reg_name(*rt2),
                mem(*base, *off)
            ),
            Insn::Eor { rd, rn, rm } => format!(
                "eor {}, {}, {}",
                reg_name(*rd),
                reg_name(*rn),
                reg_name(*rm)
            ),
            Insn::VmovToS { s, rt } => format!("vmov s{s}, {}", reg_name(*rt)),
            Insn::VmovToR { rt, s } => format!("vmov {}, s{s}", reg_name(*rt)),
            Insn::Vmov2ToS { s, rt, rt2 } => format!(
                "vmov s{s}, s{}, {}, {}",
                s + 1,
                reg_name(*rt),
                reg_name(*rt2)
            ),
            Insn::Vmov2ToR { rt, rt2, s } => format!(
                "vmov {}, {}, s{s}, s{}",
                reg_name(*rt),
                reg_name(*rt2),
                s + 1
            ),
            Insn::Ldm { base, regs } => format!("ldm {}, {{{}}}", reg_name(*base), reg_list(regs)),
            Insn::AddImm { rd, rn, imm } => {
                format!("add {}, {}, #{imm}", reg_name(*rd), reg_name(*rn))
            }
            Insn::MovZero { rd } => format!("mov {}, #0", reg_name(*rd)),
            Insn::SubSp(n) => format!("sub sp, sp, #{n}"),
            Insn::AddSp(n) => format!("add sp, sp, #{n}"),
            Insn::BxLr => "bx lr".into(),
        }
    }
}

/// Static instruction counts of a routine (straight-line code: each instruction runs once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// EOR instructions (one per XOR of the program).
    pub eor: usize,
    /// VMOV instructions (spills to and restores from s0-s31; a two-register VMOV counts once).
    pub vmov: usize,
    /// LDR, LDRD and LDM instructions (input loads, reloads, pointer reloads).
    pub load: usize,
    /// STR and STRD instructions (output stores).
    pub store: usize,
    /// PUSH, POP, VPUSH and VPOP instructions (the final POP is also the return).
    pub push_pop: usize,
    /// Everything else (MOV of a zero word, the ADD of a preload base, the stack frame's
    /// SUB/ADD, BX).
    pub other: usize,
    /// All instructions.
    pub total: usize,
}

impl Stats {
    /// Counts of an instruction list.
    pub fn of(insns: &[Insn]) -> Stats {
        let mut s = Stats::default();
        for i in insns {
            match i {
                Insn::Eor { .. } => s.eor += 1,
                Insn::VmovToS { .. }
                | Insn::VmovToR { .. }
                | Insn::Vmov2ToS { .. }
                | Insn::Vmov2ToR { .. } => s.vmov += 1,
                Insn::Ldr { .. } | Insn::Ldrd { .. } | Insn::Ldm { .. } => s.load += 1,
                Insn::Str { .. } | Insn::Strd { .. } => s.store += 1,
                Insn::Push(_) | Insn::Pop(_) | Insn::VPush | Insn::VPop => s.push_pop += 1,
                Insn::MovZero { .. }
                | Insn::AddImm { .. }
                | Insn::SubSp(_)
                | Insn::AddSp(_)
                | Insn::BxLr => s.other += 1,
            }
        }
        s.total = insns.len();
        s
    }

    /// Component-wise sum.
    pub fn add(&self, o: &Stats) -> Stats {
        Stats {
            eor: self.eor + o.eor,
            vmov: self.vmov + o.vmov,
            load: self.load + o.load,
            store: self.store + o.store,
            push_pop: self.push_pop + o.push_pop,
            other: self.other + o.other,
            total: self.total + o.total,
        }
    }
}

/// The rules the generator prices with: [`TimingRules::V1`], the point estimate before the
/// address rules. The scheduler's score and the search's cost model read these cycles, so
/// moving them to [`TimingRules::TRM`] changes the emitted routines (docs/m4-timing.md, §2).
pub const RULES: TimingRules = TimingRules::V1;

/// Pipeline refill P of a taken branch ([`RULES`]`.refill`).
pub const REFILL_P: u64 = RULES.refill;

/// Registers as a mask for [`Step`] (pc excluded).
fn mask(regs: &[Reg]) -> u16 {
    regs.iter()
        .filter(|&&r| r < PC)
        .fold(0u16, |m, &r| m | (1u16 << r))
}

impl Insn {
    /// The instruction as the timing rules see it (crate::m4timing).
    pub fn step(&self) -> Step {
        let st = |kind: Kind, wr: &[Reg], addr: &[Reg]| Step {
            kind,
            wr: mask(wr),
            addr: mask(addr),
            is16: false,
            refill: false,
        };
        let n = |r: &[Reg]| r.len() as u64;
        match self {
            Insn::Push(r) => st(Kind::Memory(cost::multiple(n(r))), &[], &[SP]),
            Insn::Pop(r) => Step {
                refill: r.contains(&PC),
                ..st(Kind::Memory(cost::multiple(n(r))), &[], &[SP])
            },
            Insn::VPush | Insn::VPop => st(Kind::Memory(cost::multiple(16)), &[], &[SP]),
            Insn::Ldr { rt, base, .. } => st(Kind::Load { literal: false }, &[*rt], &[*base]),
            Insn::Ldrd { base, .. } | Insn::Strd { base, .. } => {
                st(Kind::Memory(cost::DUAL), &[], &[*base])
            }
            Insn::Str { base, .. } => st(Kind::Store { reg_offset: false }, &[], &[*base]),
            Insn::Ldm { base, regs } => st(Kind::Memory(cost::multiple(n(regs))), &[], &[*base]),
            Insn::Eor { rd, .. } | Insn::AddImm { rd, .. } | Insn::MovZero { rd } => {
                st(Kind::Alu, &[*rd], &[])
            }
            Insn::SubSp(_) | Insn::AddSp(_) => st(Kind::Alu, &[SP], &[]),
            Insn::VmovToS { .. } => st(Kind::Alu, &[], &[]),
            Insn::VmovToR { rt, .. } => st(Kind::Alu, &[*rt], &[]),
            Insn::Vmov2ToS { .. } => st(Kind::Other(cost::VMOV2), &[], &[]),
            Insn::Vmov2ToR { rt, rt2, .. } => st(Kind::Other(cost::VMOV2), &[*rt, *rt2], &[]),
            Insn::BxLr => Step {
                refill: true,
                ..st(Kind::Alu, &[], &[])
            },
        }
    }
}

/// Cortex-M4 cycles of one straight-line routine body by the rules of crate::m4timing with
/// [`RULES`] (`m4-trm-r0p1-v1`, P = [`REFILL_P`]): each instruction runs once, so the static
/// count is what the board's estimate of that version gives for one call. LDR 2, or 1 right
/// after another LDR; LDRD/STRD 3; STR 1; LDM 1 + N; PUSH/POP 1 + N (+ P when POP loads pc);
/// VPUSH/VPOP {s16-s31} 1 + 16; EOR, VMOV, MOV, SUB/ADD sp 1; a two-register VMOV 2; BX lr 1 + P.
pub fn cycles(insns: &[Insn]) -> u64 {
    cycles_with(insns, &RULES)
}

/// [`cycles`] under other rules, e.g. [`TimingRules::TRM`] (the board's current estimate).
pub fn cycles_with(insns: &[Insn], rules: &TimingRules) -> u64 {
    let steps: Vec<Step> = insns.iter().map(Insn::step).collect();
    sequence_cycles(&steps, rules)
}

/// The GNU-as source of one function `name` with body `insns`.
pub fn render(name: &str, header: &str, insns: &[Insn], stats: &Stats) -> String {
    let mut s = String::new();
    for line in header.lines() {
        let _ = writeln!(s, "@ {line}");
    }
    let _ = writeln!(
        s,
        "@ static counts: eor {} vmov {} load {} store {} push/pop {} other {} total {}",
        stats.eor, stats.vmov, stats.load, stats.store, stats.push_pop, stats.other, stats.total
    );
    s.push_str("    .syntax unified\n    .thumb\n    .cpu cortex-m4\n    .fpu fpv4-sp-d16\n");
    s.push_str("    .text\n    .align 2\n");
    let _ = writeln!(s, "    .global {name}");
    let _ = writeln!(s, "    .type {name}, %function");
    let _ = writeln!(s, "    .thumb_func");
    let _ = writeln!(s, "{name}:");
    for i in insns {
        let _ = writeln!(s, "    {}", i.text());
    }
    let _ = writeln!(s, "    .size {name}, .-{name}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_follow_the_timing_rules() {
        // push 11 regs: 12; two loads in a row: 2 + 1; eor: 1; ldrd: 3; strd: 3; str: 1;
        // vmov single and pair: 1 + 2; a load after a non-load: 2; vpush/vpop: 17 each;
        // pop with pc (11 regs): 12 + P
        let body = vec![
            Insn::Push(vec![0, 1, 4, 5, 6, 7, 8, 9, 10, 11, LR]),
            Insn::VPush,
            Insn::Ldr {
                rt: 2,
                base: 1,
                off: 0,
            },
            Insn::Ldr {
                rt: 3,
                base: 1,
                off: 4,
            },
            Insn::Eor {
                rd: 2,
                rn: 2,
                rm: 3,
            },
            Insn::Ldrd {
                rt: 4,
                rt2: 5,
                base: 1,
                off: 8,
            },
            Insn::Strd {
                rt: 4,
                rt2: 5,
                base: 0,
                off: 0,
            },
            Insn::Str {
                rt: 2,
                base: 0,
                off: 8,
            },
            Insn::VmovToS { s: 0, rt: 2 },
            Insn::Vmov2ToR {
                rt: 6,
                rt2: 7,
                s: 0,
            },
            Insn::Ldr {
                rt: 3,
                base: 1,
                off: 12,
            },
            Insn::VPop,
            Insn::Pop(vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 11, PC]),
        ];
        let want = 12 + 17 + 2 + 1 + 1 + 3 + 3 + 1 + 1 + 2 + 2 + 17 + 12 + REFILL_P;
        assert_eq!(cycles(&body), want);
        assert_eq!(cycles(&[Insn::BxLr]), 1 + REFILL_P);
        // under the board's rules: ADD r2, r1, #16; LDM r2 stalls (the address was just
        // written); the loads and stores of `body` use bases no previous instruction wrote
        let pre = [
            Insn::AddImm {
                rd: 2,
                rn: 1,
                imm: 16,
            },
            Insn::Ldm {
                base: 2,
                regs: vec![3, 4],
            },
        ];
        assert_eq!(cycles(&pre), 1 + 3);
        assert_eq!(cycles_with(&pre, &TimingRules::TRM), 1 + 3 + 1);
        assert_eq!(cycles_with(&body, &TimingRules::TRM), want);
    }

    /// The static model before it priced through crate::m4timing, written out: the reference
    /// that keeps the generator's cycles (and so its routines) unchanged.
    fn v1_reference(insns: &[Insn]) -> u64 {
        let mut cyc = 0u64;
        let mut prev_ldr = false;
        for i in insns {
            let (c, is_ldr) = match i {
                Insn::Ldr { .. } => (if prev_ldr { 1 } else { 2 }, true),
                Insn::Ldrd { .. } | Insn::Strd { .. } => (3, false),
                Insn::Str { .. } => (1, false),
                Insn::Push(r) | Insn::Ldm { regs: r, .. } => (1 + r.len() as u64, false),
                Insn::Pop(r) => (
                    1 + r.len() as u64 + if r.contains(&PC) { 2 } else { 0 },
                    false,
                ),
                Insn::VPush | Insn::VPop => (17, false),
                Insn::BxLr => (3, false),
                Insn::Vmov2ToS { .. } | Insn::Vmov2ToR { .. } => (2, false),
                _ => (1, false),
            };
            cyc += c;
            prev_ldr = is_ldr;
        }
        cyc
    }

    #[test]
    fn static_model_is_the_v1_reference() {
        // seeded xorshift: 2,000 random bodies of up to 40 instructions over every variant
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for _ in 0..2000 {
            let len = next(40) as usize;
            let mut body = Vec::with_capacity(len);
            for _ in 0..len {
                let r = |v: u64| (v % 13) as Reg;
                let (a, b, c) = (r(next(13)), r(next(13)), r(next(13)));
                body.push(match next(16) {
                    0 => Insn::Push(vec![a, LR]),
                    1 => Insn::Pop(if next(2) == 0 {
                        vec![a, PC]
                    } else {
                        vec![a, b]
                    }),
                    2 => Insn::VPush,
                    3 => Insn::VPop,
                    4 | 5 => Insn::Ldr {
                        rt: a,
                        base: b,
                        off: 4,
                    },
                    6 => Insn::Ldrd {
                        rt: a,
                        rt2: c,
                        base: b,
                        off: 0,
                    },
                    7 => Insn::Str {
                        rt: a,
                        base: b,
                        off: 0,
                    },
                    8 => Insn::Strd {
                        rt: a,
                        rt2: c,
                        base: b,
                        off: 8,
                    },
                    9 => Insn::Eor {
                        rd: a,
                        rn: b,
                        rm: c,
                    },
                    10 => Insn::VmovToS { s: 1, rt: a },
                    11 => Insn::VmovToR { rt: a, s: 1 },
                    12 => Insn::Vmov2ToR {
                        rt: a,
                        rt2: c,
                        s: 2,
                    },
                    13 => Insn::Ldm {
                        base: a,
                        regs: vec![b, c],
                    },
                    14 => Insn::AddImm {
                        rd: a,
                        rn: b,
                        imm: 4,
                    },
                    _ => Insn::BxLr,
                });
            }
            assert_eq!(cycles(&body), v1_reference(&body), "{body:?}");
            assert!(
                cycles_with(&body, &TimingRules::TRM) >= cycles(&body),
                "{body:?}"
            );
        }
    }
}
