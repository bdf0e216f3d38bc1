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

use super::insn::{Insn, Reg, ALLOCATABLE, LR, PC, SP};
use crate::FwgenError;
use algebra::slp::Slp;

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

    /// A locked register is never handed out or evicted.
    fn lock(&mut self, r: Reg) {
        self.locks |= 1u32 << r;
    }
    fn unlock(&mut self, r: Reg) {
        self.locks &= !(1u32 << r);
    }
    fn is_locked(&self, r: Reg) -> bool {
        self.locks & (1u32 << r) != 0
    }

    fn next_use(&self, s: usize) -> usize {
        self.uses[s].get(self.use_idx[s]).copied().unwrap_or(NONE)
    }
    fn live(&self, s: usize) -> bool {
        self.next_use(s) != NONE || !self.pending[s].is_empty()
    }
    fn is_clean(&self, s: usize) -> bool {
        s < self.slp.n_in || self.sig_slot[s].is_some() || self.sig_stored[s].is_some()
    }

    /// Drop a dead signal: free its register and slot.
    fn kill(&mut self, s: usize) {
        if let Some(r) = self.sig_reg[s].take() {
            self.reg[r as usize] = None;
        }
        if let Some(sl) = self.sig_slot[s].take() {
            self.slot_busy[sl as usize] = false;
        }
    }

    fn place(&mut self, s: usize, r: Reg) {
        self.reg[r as usize] = Some(Val::Sig(s));
        self.sig_reg[s] = Some(r);
    }

    /// A signal has just arrived in a register: queue its outputs, store when appropriate.
    fn defined(&mut self, s: usize) -> Result<(), FwgenError> {
        if self.sig_stored[s].is_none() && self.pending[s].is_empty() {
            self.pending[s] = self.outputs_of[s].clone();
        }
        if !self.flushing
            && !self.pending[s].is_empty()
            && self.out_reg.is_some()
            && self.sig_reg[s].is_some()
            && (!self.p.defer_stores || self.store_now(s))
        {
            self.store_pending(s)?;
        }
        if !self.live(s) {
            self.kill(s);
        }
        Ok(())
    }

    fn ptr_next_use(&self, v: Val) -> usize {
        let n_in = self.slp.n_in;
        match v {
            Val::InPtr => {
                for t in self.pos..self.order.len() {
                    let (a, b) = self.slp.ops[self.order[t]];
                    for s in [a, b] {
                        if s < n_in && self.sig_reg[s].is_none() && self.sig_slot[s].is_none() {
                            return t;
                        }
                    }
                }
                NONE
            }
            Val::OutPtr => self.next_out_def.get(self.pos).copied().unwrap_or(NONE),
            _ => NONE,
        }
    }

    fn free_reg(&self) -> Option<Reg> {
        ALLOCATABLE
            .iter()
            .copied()
            .find(|&r| self.reg[r as usize].is_none() && !self.is_locked(r))
    }

    /// A free register, evicting if needed.
    fn get_reg(&mut self) -> Result<Reg, FwgenError> {
        if let Some(r) = self.free_reg() {
            return Ok(r);
        }
        self.evict(false)
    }

    /// The signal whose pending outputs include output `q`, if it is in a register.
    fn pending_resident(&self, q: usize) -> Option<(usize, Reg)> {
        let t = (*self.slp.outputs.get(q)?)?;
        if self.pending[t].contains(&q) {
            self.sig_reg[t].map(|r| (t, r))
        } else {
            None
        }
    }

    /// Neighbours of output `o` (o - 1 and o + 1) that exist.
    fn neighbours(&self, o: usize) -> impl Iterator<Item = usize> {
        let n = self.slp.outputs.len();
        [o.checked_sub(1), Some(o + 1)]
            .into_iter()
            .flatten()
            .filter(move |&q| q < n)
    }

    /// With deferred stores: store the outputs of `s` now when one of them pairs with a
    /// resident pending neighbour, or none of them can ever pair.
    fn store_now(&self, s: usize) -> bool {
        if !self.p.pair_stores {
            return true;
        }
        let mut any_future = false;
        for &o in &self.pending[s] {
            for q in self.neighbours(o) {
                if self
                    .pending_resident(q)
                    .is_some_and(|(t, _)| t != s || q != o)
                {
                    return true;
                }
                if !self.out_done[q] {
                    any_future = true;
                }
            }
        }
        !any_future
    }

    fn mark_stored(&mut self, t: usize, q: usize) {
        self.pending[t].retain(|&x| x != q);
        self.out_done[q] = true;
        if self.sig_stored[t].is_none() {
            self.sig_stored[t] = Some(q);
        }
    }

    /// Store the pending outputs of the resident signal `s`, each paired (STRD) with a pending
    /// resident neighbour output when there is one; neighbours that die are freed.
    fn store_pending(&mut self, s: usize) -> Result<(), FwgenError> {
        let Some(r) = self.sig_reg[s] else {
            return Err(FwgenError::Internal(format!(
                "pending signal {s} not resident"
            )));
        };
        let locks_before = self.locks;
        let was_flushing = self.flushing;
        self.flushing = true;
        self.lock(r);
        let res = self.store_pending_locked(s, r);
        self.locks = locks_before;
        self.flushing = was_flushing;
        res
    }

    fn store_pending_locked(&mut self, s: usize, r: Reg) -> Result<(), FwgenError> {
        let outp = self.ptr_reg(Val::OutPtr)?;
        self.lock(outp);
        let outs = self.pending[s].clone();
        let mut freed = Vec::new();
        for o in outs {
            if !self.pending[s].contains(&o) {
                continue;
            }
            let mut partner = None;
            if self.p.pair_stores {
                for q in self.neighbours(o) {
                    if let Some((t, rt)) = self.pending_resident(q) {
                        partner = Some((q, t, rt));
                        break;
                    }
                }
            }
            match partner {
                Some((q, t, rt)) => {
                    let (lo, r_lo, r_hi) = if q < o { (q, rt, r) } else { (o, r, rt) };
                    self.insns.push(Insn::Strd {
                        rt: r_lo,
                        rt2: r_hi,
                        base: outp,
                        off: 4 * lo as u32,
                    });
                    self.mark_stored(t, q);
                    if t != s {
                        freed.push(t);
                    }
                }
                None => self.insns.push(Insn::Str {
                    rt: r,
                    base: outp,
                    off: 4 * o as u32,
                }),
            }
            self.mark_stored(s, o);
        }
        for t in freed {
            if !self.live(t) && !self.sig_reg[t].is_some_and(|rt| self.is_locked(rt)) {
                self.kill(t);
            }
        }
        Ok(())
    }

    /// Evict by dirty-aware farthest-first; `allow_pending` permits spilling a final output
    /// that is not yet stored (only when nothing else can go).
    fn evict(&mut self, allow_pending: bool) -> Result<Reg, FwgenError> {
        let mut best: Option<(usize, Reg)> = None;
        for &r in ALLOCATABLE.iter() {
            if self.is_locked(r) {
                continue;
            }
            let key = match self.reg[r as usize] {
                None => return Ok(r),
                Some(Val::Reserved) => continue,
                Some(Val::Sig(s)) => {
                    let nu = self.next_use(s);
                    if !self.pending[s].is_empty() && !allow_pending {
                        if self.loading_out {
                            continue;
                        }
                        // storing is due anyway: a dead one costs nothing extra
                        let k = if nu == NONE {
                            let pairs = self.pending[s].iter().any(|&o| {
                                self.neighbours(o)
                                    .any(|q| self.pending_resident(q).is_some())
                            });
                            NONE - 2 + usize::from(pairs)
                        } else {
                            nu.saturating_add(self.p.clean_bonus)
                        };
                        if best.is_none_or(|(bk, _)| k > bk) {
                            best = Some((k, r));
                        }
                        continue;
                    }
                    let bonus = if self.is_clean(s) {
                        self.p.clean_bonus
                    } else {
                        0
                    };
                    nu.saturating_add(bonus)
                }
                Some(v) => self.ptr_next_use(v).saturating_add(self.p.clean_bonus),
            };
            if best.is_none_or(|(bk, _)| key > bk) {
                best = Some((key, r));
            }
        }
        let Some((_, r)) = best else {
            if !allow_pending {
                return self.evict(true);
            }
            return Err(FwgenError::Internal(
                "no register can be evicted (all are locked)".into(),
            ));
        };
        match self.reg[r as usize] {
            Some(Val::Sig(s)) if !self.pending[s].is_empty() && !allow_pending => {
                self.store_pending(s)?;
                if self.sig_reg[s] != Some(r) {
                    return Err(FwgenError::Internal(format!(
                        "signal {s} moved while stored"
                    )));
                }
                if self.live(s) {
                    self.sig_reg[s] = None;
                } else {
                    self.kill(s);
                }
            }
            Some(Val::Sig(s)) => {
                if !self.is_clean(s) || !self.pending[s].is_empty() {
                    let sl = self.take_slot()?;
                    if self.sig_slot[s].is_none() {
                        self.spill_at[s] = Some((self.insns.len(), 0));
                    }
                    self.spill_to(sl, r);
                    self.sig_slot[s] = Some(sl);
                }
                self.sig_reg[s] = None;
            }
            Some(Val::OutPtr) => self.out_reg = None,
            Some(Val::InPtr) => self.in_reg = None,
            _ => {}
        }
        self.reg[r as usize] = None;
        Ok(r)
    }

    /// Remove the spills whose value was never restored (every later need was re-computed).
    fn drop_unread_spills(&mut self) {
        let mut dead = vec![false; self.insns.len()];
        for (at, n) in self.spill_at.iter().flatten() {
            if *n == 0 {
                dead[*at] = true;
            }
        }
        if dead.iter().any(|&d| d) {
            let mut k = 0;
            self.insns.retain(|_| {
                k += 1;
                !dead[k - 1]
            });
        }
    }

    fn take_slot(&mut self) -> Result<u16, FwgenError> {
        let sl = (0..self.slot_busy.len())
            .find(|&i| !self.slot_busy[i])
            .ok_or(FwgenError::SpillSpace)?;
        self.slot_busy[sl] = true;
        if sl >= 16 {
            self.high_slots = true;
        }
        if sl >= 32 {
            self.stack_slots = self.stack_slots.max(sl - 31);
        }
        Ok(sl as u16)
    }

    fn spill_to(&mut self, sl: u16, r: Reg) {
        self.insns.push(if sl < 32 {
            Insn::VmovToS { s: sl as u8, rt: r }
        } else {
            Insn::Str {
                rt: r,
                base: SP,
                off: SPILL_RAW + 4 * (u32::from(sl) - 32),
            }
        });
    }

    fn restore_from(&mut self, sl: u16, r: Reg) {
        self.insns.push(if sl < 32 {
            Insn::VmovToR { rt: r, s: sl as u8 }
        } else {
            Insn::Ldr {
                rt: r,
                base: SP,
                off: SPILL_RAW + 4 * (u32::from(sl) - 32),
            }
        });
    }

    /// The register holding a pointer, re-loading it from the stack if needed.
    fn ptr_reg(&mut self, v: Val) -> Result<Reg, FwgenError> {
        let cur = match v {
            Val::OutPtr => self.out_reg,
            _ => self.in_reg,
        };
        if let Some(r) = cur {
            return Ok(r);
        }
        let r = if let Some(r) = self.free_reg() {
            r
        } else {
            let was = self.loading_out;
            self.loading_out = true;
            let got = self.evict(false);
            self.loading_out = was;
            got?
        };
        let off = if v == Val::OutPtr { OUT_SLOT } else { IN_SLOT };
        self.insns.push(Insn::Ldr {
            rt: r,
            base: SP,
            off,
        });
        self.reg[r as usize] = Some(v);
        match v {
            Val::OutPtr => self.out_reg = Some(r),
            _ => self.in_reg = Some(r),
        }
        Ok(r)
    }

    /// Bring signal s into a register (it must be available somewhere).
    fn ensure(&mut self, s: usize) -> Result<Reg, FwgenError> {
        if let Some(r) = self.sig_reg[s] {
            return Ok(r);
        }
        let r = self.get_reg()?;
        self.reg[r as usize] = Some(Val::Reserved);
        self.lock(r);
        let res = self.load_into(s, r);
        self.unlock(r);
        res?;
        Ok(r)
    }

    fn load_into(&mut self, s: usize, r: Reg) -> Result<(), FwgenError> {
        let n_in = self.slp.n_in;
        if let Some(sl) = self.sig_slot[s] {
            if self.p.recompute && s >= n_in {
                let (a, b) = self.slp.ops[s - n_in];
                if let (Some(ra), Some(rb)) = (self.sig_reg[a], self.sig_reg[b]) {
                    self.insns.push(Insn::Eor {
                        rd: r,
                        rn: ra,
                        rm: rb,
                    });
                    self.place(s, r);
                    return Ok(());
                }
            }
            if let Some((_, n)) = self.spill_at[s].as_mut() {
                *n += 1;
            }
            self.restore_from(sl, r);
            self.place(s, r);
            return Ok(());
        }
        let from_in = s < n_in;
        let stored = self.sig_stored[s];
        let use_in =
            from_in && (self.in_reg.is_some() || stored.is_none() || self.out_reg.is_none());
        if use_in {
            let base = self.ptr_reg(Val::InPtr)?;
            let cands = [s.checked_sub(1), Some(s + 1)];
            let partner = cands
                .into_iter()
                .flatten()
                .filter(|&q| q < n_in && self.sig_reg[q].is_none() && self.next_use(q) != NONE)
                .min_by_key(|&q| self.next_use(q))
                .unwrap_or(usize::MAX);
            let mut paired = false;
            if self.p.pair_loads && partner != usize::MAX {
                self.lock(base);
                let r2 = self.free_reg();
                self.unlock(base);
                if let Some(r2) = r2 {
                    let (lo, hi) = if partner > s { (r, r2) } else { (r2, r) };
                    self.insns.push(Insn::Ldrd {
                        rt: lo,
                        rt2: hi,
                        base,
                        off: 4 * s.min(partner) as u32,
                    });
                    self.place(s, r);
                    self.place(partner, r2);
                    paired = true;
                }
            }
            if !paired {
                self.insns.push(Insn::Ldr {
                    rt: r,
                    base,
                    off: 4 * s as u32,
                });
                self.place(s, r);
            }
            self.lock(r);
            let res = self.defined(s);
            if paired {
                if let Some(r2) = self.sig_reg[partner] {
                    self.lock(r2);
                    let res2 = self.defined(partner);
                    self.unlock(r2);
                    res2?;
                }
            }
            self.unlock(r);
            return res;
        }
        if let Some(o) = stored {
            let base = self.ptr_reg(Val::OutPtr)?;
            self.insns.push(Insn::Ldr {
                rt: r,
                base,
                off: 4 * o as u32,
            });
            self.place(s, r);
            return Ok(());
        }
        Err(FwgenError::Internal(format!(
            "signal {s} is needed but held nowhere"
        )))
    }

    /// Store every pending output (pairs with STRD), re-loading `out` if needed.
    fn flush(&mut self) -> Result<(), FwgenError> {
        let mut sigs: Vec<usize> = (0..self.pending.len())
            .filter(|&s| !self.pending[s].is_empty())
            .collect();
        if sigs.is_empty() {
            return Ok(());
        }
        // pending values that were spilled come back first (rare)
        let locks_before = self.locks;
        self.flushing = true;
        for &s in &sigs {
            if let Some(r) = self.sig_reg[s] {
                self.lock(r);
            }
        }
        let outp = match self.ptr_reg(Val::OutPtr) {
            Ok(r) => r,
            Err(e) => {
                self.locks = locks_before;
                self.flushing = false;
                return Err(e);
            }
        };
        self.lock(outp);
        for &s in &sigs {
            if self.sig_reg[s].is_none() {
                let r = self.ensure(s)?;
                self.lock(r);
            }
        }
        // (output index, register)
        let mut outs: Vec<(usize, Reg)> = Vec::new();
        for &s in &sigs {
            let Some(r) = self.sig_reg[s] else {
                return Err(FwgenError::Internal(format!("pending signal {s} lost")));
            };
            for &o in &self.pending[s] {
                outs.push((o, r));
            }
        }
        outs.sort_unstable();
        let mut i = 0;
        while i < outs.len() {
            let (o, r) = outs[i];
            if self.p.pair_stores && i + 1 < outs.len() && outs[i + 1].0 == o + 1 {
                self.insns.push(Insn::Strd {
                    rt: r,
                    rt2: outs[i + 1].1,
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
        self.locks = locks_before;
        self.flushing = false;
        sigs.sort_unstable();
        for &(o, _) in &outs {
            self.out_done[o] = true;
        }
        for s in sigs {
            if let Some(&o) = self.pending[s].first() {
                self.sig_stored[s].get_or_insert(o);
            }
            self.pending[s].clear();
            if !self.live(s) {
                self.kill(s);
            }
        }
        Ok(())
    }

    /// Prologue and epilogue around the body; fixes the pointer offsets if d8-d15 are saved.
    fn finish(mut self) -> Vec<Insn> {
        let mut out = Vec::with_capacity(self.insns.len() + 4);
        let mut push = vec![0, 1];
        push.extend(4..=11);
        push.push(LR);
        out.push(Insn::Push(push));
        if self.high_slots {
            out.push(Insn::VPush);
        }
        // frame: [sp, sp + frame) spill words, then s16-s31 if saved, then the pushed r0, r1
        let frame = (4 * self.stack_slots as u32).next_multiple_of(8);
        if frame > 0 {
            out.push(Insn::SubSp(frame));
        }
        let ptr_base = frame + if self.high_slots { 64 } else { 0 };
        for i in self.insns.iter_mut() {
            if let Insn::Ldr { base: SP, off, .. } | Insn::Str { base: SP, off, .. } = i {
                *off = if *off < SPILL_RAW {
                    *off + ptr_base
                } else {
                    *off - SPILL_RAW
                };
            }
        }
        out.append(&mut self.insns);
        if frame > 0 {
            out.push(Insn::AddSp(frame));
        }
        if self.high_slots {
            out.push(Insn::VPop);
        }
        let mut pop = vec![2, 3];
        pop.extend(4..=11);
        pop.push(PC);
        out.push(Insn::Pop(pop));
        out
    }
}
