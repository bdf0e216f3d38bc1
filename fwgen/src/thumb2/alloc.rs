//! Register allocation of one fixed instruction order (docs/thumb2.md, "Allocator").
//!
//! Given a topological order of the XORs of a [`Slp`], this walks the order once and assigns the
//! 14 general-purpose registers (r0-r12, lr), with a dirty-aware farthest-first eviction: when a
//! register is needed and none is free, the value whose next use is farthest goes, and a value
//! that is *clean* (an input re-loadable from `in`, an output already stored to `out`, a
//! temporary already copied to an s-register, or one of the two pointers, which live on the
//! stack) gets `clean_bonus` extra positions of distance, so that it is preferred over a dirty
//! one (whose eviction costs a VMOV now and a VMOV back). Spill slots are s0-s15 first, then
//! s16-s31 (which makes the routine save d8-d15 with VPUSH/VPOP).
//!
//! Pointers: the prologue pushes r0 (`out`) and r1 (`in`) with the callee-saved registers, so a
//! pointer that was evicted is re-loaded from the stack with one LDR.
//!
//! Outputs are stored as soon as they are final when `out` is in a register (or, with
//! `defer_stores`, when registers run out or at the end), so pairs of adjacent outputs can go
//! out with one STRD; adjacent inputs are loaded with one LDRD when a second register is free.

use super::insn::{Insn, Reg, LR};
use crate::FwgenError;
use algebra::slp::Slp;

mod flush;
mod load;
mod regs;
mod spill;

/// Tunable choices of one allocation run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocParams {
    /// Extra next-use distance credited to clean values when choosing whom to evict.
    pub clean_bonus: usize,
    /// Load two adjacent input words with LDRD when a second register is free.
    pub pair_loads: bool,
    /// Store two adjacent output words with STRD when both are ready.
    pub pair_stores: bool,
    /// Keep final outputs in registers until registers run out (more STRD pairs) instead of
    /// storing each as soon as `out` is in a register.
    pub defer_stores: bool,
    /// Merge pairs of VMOVs into two-register VMOVs afterwards ([`super::pairs`]).
    pub pair_vmovs: bool,
    /// Merge single loads (stores) of adjacent words into LDRD (STRD) afterwards
    /// ([`super::mempairs`]).
    pub pair_memory: bool,
    /// Re-create a spilled temporary `a ^ b` with one EOR when both operands are in registers
    /// (instead of a VMOV back); a spill whose value is then never restored is dropped. Off by
    /// default: the export verifier (`fafft_config::stored`) rejects a routine with more EORs
    /// than its header's XOR count.
    pub recompute: bool,
    /// Start with one LDM of the input words `a .. a + 13` (fewer at the end of `in`) into
    /// r0, r2-r12 and lr ([`PRELOAD_REGS`]; `add r0, r1, #4a` first when a > 0), held as
    /// clean values (docs/thumb2.md, "Input preload").
    pub preload: Option<u8>,
}

/// The registers of the preload LDM, in list order (r1 holds `in`; `out` is on the stack).
pub const PRELOAD_REGS: [Reg; 13] = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, LR];

/// Fewest words a preload loads (below this one LDM is no shorter than LDRDs).
pub const PRELOAD_MIN: usize = 4;

impl Default for AllocParams {
    fn default() -> Self {
        AllocParams {
            clean_bonus: 4,
            pair_loads: true,
            pair_stores: true,
            defer_stores: false,
            pair_vmovs: true,
            pair_memory: true,
            recompute: false,
            preload: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Sig(usize),
    OutPtr,
    InPtr,
    Reserved,
}

const NONE: usize = usize::MAX;
/// Stack offsets of the saved pointers (before a VPUSH, which shifts them by 64).
const OUT_SLOT: u32 = 0;
const IN_SLOT: u32 = 4;
/// Spill words on the stack once s0-s31 are full. Until [`St::finish`] lays out the frame,
/// stack spill slot k is written with the raw offset `SPILL_RAW + 4k` (the pointers use 0 and 4).
const MAX_STACK_SLOTS: usize = 256;
const SPILL_RAW: u32 = 8;

/// The result of allocating one order.
pub struct Allocated {
    /// The whole function body, prologue to return.
    pub insns: Vec<Insn>,
}

struct St<'a> {
    slp: &'a Slp,
    order: &'a [usize],
    p: AllocParams,
    pos: usize,
    reg: [Option<Val>; 16],
    sig_reg: Vec<Option<Reg>>,
    sig_slot: Vec<Option<u16>>,
    sig_stored: Vec<Option<usize>>,
    pending: Vec<Vec<usize>>,
    uses: Vec<Vec<usize>>,
    use_idx: Vec<usize>,
    outputs_of: Vec<Vec<usize>>,
    out_reg: Option<Reg>,
    in_reg: Option<Reg>,
    slot_busy: Vec<bool>,
    stack_slots: usize,
    high_slots: bool,
    locks: u32,
    flushing: bool,
    loading_out: bool,
    out_done: Vec<bool>,
    next_out_def: Vec<usize>,
    insns: Vec<Insn>,
    /// Per signal: index in `insns` of its spill and how many restores read it since.
    spill_at: Vec<Option<(usize, usize)>>,
}

/// Allocate registers for `order` (a topological order of the *live* ops of `slp`, given as op
/// indices; dead ops may be left out).
pub fn allocate(slp: &Slp, order: &[usize], p: AllocParams) -> Result<Allocated, FwgenError> {
    let n = slp.n_signals();
    let mut uses = vec![Vec::new(); n];
    for (t, &k) in order.iter().enumerate() {
        let (a, b) = slp.ops[k];
        uses[a].push(t);
        uses[b].push(t);
    }
    let mut outputs_of = vec![Vec::new(); n];
    for (i, o) in slp.outputs.iter().enumerate() {
        if let Some(s) = *o {
            outputs_of[s].push(i);
        }
    }
    let mut next_out_def = vec![NONE; order.len() + 1];
    for t in (0..order.len()).rev() {
        next_out_def[t] = if outputs_of[slp.n_in + order[t]].is_empty() {
            next_out_def[t + 1]
        } else {
            t
        };
    }
    let mut st = St {
        slp,
        order,
        p,
        pos: 0,
        reg: [None; 16],
        sig_reg: vec![None; n],
        sig_slot: vec![None; n],
        sig_stored: vec![None; n],
        pending: vec![Vec::new(); n],
        uses,
        use_idx: vec![0; n],
        outputs_of,
        out_reg: Some(0),
        in_reg: Some(1),
        slot_busy: vec![false; 32 + MAX_STACK_SLOTS],
        stack_slots: 0,
        high_slots: false,
        locks: 0,
        flushing: false,
        loading_out: false,
        out_done: vec![false; slp.outputs.len()],
        next_out_def,
        insns: Vec::new(),
        spill_at: vec![None; n],
    };
    st.reg[0] = Some(Val::OutPtr);
    st.reg[1] = Some(Val::InPtr);
    st.run()?;
    st.drop_unread_spills();
    if p.pair_vmovs && st.stack_slots == 0 {
        st.insns = super::pairs::pair_vmovs(&st.insns);
        st.high_slots = st.insns.iter().any(|i| match *i {
            Insn::VmovToS { s, .. } | Insn::VmovToR { s, .. } => s >= 16,
            Insn::Vmov2ToS { s, .. } | Insn::Vmov2ToR { s, .. } => s + 1 >= 16,
            _ => false,
        });
    }
    if p.pair_memory {
        st.insns = super::mempairs::pair_memory(&st.insns);
    }
    Ok(Allocated { insns: st.finish() })
}

impl St<'_> {
    fn run(&mut self) -> Result<(), FwgenError> {
        self.prologue_copies()?;
        if let Some(a) = self.p.preload {
            self.preload(usize::from(a))?;
        }
        for t in 0..self.order.len() {
            self.pos = t;
            let k = self.order[t];
            let (a, b) = self.slp.ops[k];
            let ra = self.ensure(a)?;
            self.lock(ra);
            let rb = self.ensure(b)?;
            self.unlock(ra);
            // consume the uses at this position
            for s in [a, b] {
                while self.use_idx[s] < self.uses[s].len() && self.uses[s][self.use_idx[s]] <= t {
                    self.use_idx[s] += 1;
                }
            }
            let d = self.slp.n_in + k;
            let rd = if !self.live(a) {
                self.kill(a);
                ra
            } else if !self.live(b) {
                self.kill(b);
                rb
            } else {
                self.lock(ra);
                self.lock(rb);
                let r = self.get_reg()?;
                self.unlock(ra);
                self.unlock(rb);
                r
            };
            if !self.live(b) && self.sig_reg[b].is_some() {
                self.kill(b);
            }
            self.insns.push(Insn::Eor { rd, rn: ra, rm: rb });
            self.place(d, rd);
            self.defined(d)?;
        }
        self.pos = self.order.len();
        while self.pending.iter().any(|p| !p.is_empty()) {
            self.flush()?;
        }
        Ok(())
    }

    /// Zero outputs, and outputs that are inputs no XOR reads, are stored first: `out` is in r0.
    fn prologue_copies(&mut self) -> Result<(), FwgenError> {
        let zeros: Vec<usize> = (0..self.slp.outputs.len())
            .filter(|&i| self.slp.outputs[i].is_none())
            .collect();
        if !zeros.is_empty() {
            let r = self.get_reg()?;
            self.reg[r as usize] = Some(Val::Reserved);
            self.insns.push(Insn::MovZero { rd: r });
            let outp = self.ptr_reg(Val::OutPtr)?;
            let mut i = 0;
            while i < zeros.len() {
                let o = zeros[i];
                if self.p.pair_stores && zeros.get(i + 1) == Some(&(o + 1)) {
                    self.insns.push(Insn::Strd {
                        rt: r,
                        rt2: r,
                        base: outp,
                        off: 4 * o as u32,
                    });
                    i += 2;
                } else {
                    self.insns.push(Insn::Str {
                        rt: r,
                        base: outp,
                        off: 4 * o as u32,
                    });
                    i += 1;
                }
            }
            self.reg[r as usize] = None;
            for &o in &zeros {
                self.out_done[o] = true;
            }
        }
        for q in 0..self.slp.n_in {
            if !self.outputs_of[q].is_empty() && self.uses[q].is_empty() {
                let r = self.ensure(q)?;
                self.lock(r);
                self.flush()?;
                self.unlock(r);
            }
        }
        Ok(())
    }

    /// The preload of [`AllocParams::preload`]: skipped (the body unchanged) when the window
    /// holds fewer than [`PRELOAD_MIN`] words or a register of the list is taken.
    fn preload(&mut self, a: usize) -> Result<(), FwgenError> {
        let n_in = self.slp.n_in;
        let len = PRELOAD_REGS.len().min(n_in.saturating_sub(a));
        if len < PRELOAD_MIN || self.in_reg != Some(1) || self.locks != 0 {
            return Ok(());
        }
        let regs = &PRELOAD_REGS[..len];
        // free: nothing, `out` in r0 (it is on the stack), or an input word with no output
        // waiting (re-loadable; the prologue's copies may leave one)
        let taken = regs.iter().any(|&r| match self.reg[r as usize] {
            None => false,
            Some(Val::OutPtr) => r != 0,
            Some(Val::Sig(s)) => s >= n_in || !self.pending[s].is_empty(),
            Some(_) => true,
        });
        if taken {
            return Ok(());
        }
        let base = if a == 0 {
            1
        } else {
            self.insns.push(Insn::AddImm {
                rd: 0,
                rn: 1,
                imm: 4 * a as u32,
            });
            0
        };
        self.insns.push(Insn::Ldm {
            base,
            regs: regs.to_vec(),
        });
        if self.out_reg == Some(0) {
            self.out_reg = None;
        }
        for &r in regs {
            if let Some(Val::Sig(s)) = self.reg[r as usize] {
                self.sig_reg[s] = None;
            }
            self.reg[r as usize] = None;
        }
        for (k, &r) in regs.iter().enumerate() {
            let q = a + k;
            if self.sig_reg[q].is_none() && self.live(q) {
                self.place(q, r);
            }
        }
        for (k, &r) in regs.iter().enumerate() {
            let q = a + k;
            if self.sig_reg[q] == Some(r) {
                self.lock(r);
                let res = self.defined(q);
                self.unlock(r);
                res?;
            }
        }
        Ok(())
    }
}
