//! The allocator's register and use bookkeeping: locks, next uses, liveness, placing and
//! freeing values, the pending output stores of a value.

use super::super::insn::{Reg, ALLOCATABLE};
use super::{St, Val, NONE};
use crate::FwgenError;

impl St<'_> {
    /// A locked register is never handed out or evicted.
    pub(super) fn lock(&mut self, r: Reg) {
        self.locks |= 1u32 << r;
    }

    pub(super) fn unlock(&mut self, r: Reg) {
        self.locks &= !(1u32 << r);
    }

    pub(super) fn is_locked(&self, r: Reg) -> bool {
        self.locks & (1u32 << r) != 0
    }

    pub(super) fn next_use(&self, s: usize) -> usize {
        self.uses[s].get(self.use_idx[s]).copied().unwrap_or(NONE)
    }

    pub(super) fn live(&self, s: usize) -> bool {
        self.next_use(s) != NONE || !self.pending[s].is_empty()
    }

    pub(super) fn is_clean(&self, s: usize) -> bool {
        s < self.slp.n_in || self.sig_slot[s].is_some() || self.sig_stored[s].is_some()
    }

    /// Drop a dead signal: free its register and slot.
    pub(super) fn kill(&mut self, s: usize) {
        if let Some(r) = self.sig_reg[s].take() {
            self.reg[r as usize] = None;
        }
        if let Some(sl) = self.sig_slot[s].take() {
            self.slot_busy[sl as usize] = false;
        }
    }

    pub(super) fn place(&mut self, s: usize, r: Reg) {
        self.reg[r as usize] = Some(Val::Sig(s));
        self.sig_reg[s] = Some(r);
    }

    /// A signal has just arrived in a register: queue its outputs, store when appropriate.
    pub(super) fn defined(&mut self, s: usize) -> Result<(), FwgenError> {
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

    pub(super) fn ptr_next_use(&self, v: Val) -> usize {
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

    pub(super) fn free_reg(&self) -> Option<Reg> {
        ALLOCATABLE
            .iter()
            .copied()
            .find(|&r| self.reg[r as usize].is_none() && !self.is_locked(r))
    }

    /// A free register, evicting if needed.
    pub(super) fn get_reg(&mut self) -> Result<Reg, FwgenError> {
        if let Some(r) = self.free_reg() {
            return Ok(r);
        }
        self.evict(false)
    }

    /// The signal whose pending outputs include output `q`, if it is in a register.
    pub(super) fn pending_resident(&self, q: usize) -> Option<(usize, Reg)> {
        let t = (*self.slp.outputs.get(q)?)?;
        if self.pending[t].contains(&q) {
            self.sig_reg[t].map(|r| (t, r))
        } else {
            None
        }
    }

    /// Neighbours of output `o` (o - 1 and o + 1) that exist.
    pub(super) fn neighbours(&self, o: usize) -> impl Iterator<Item = usize> {
        let n = self.slp.outputs.len();
        [o.checked_sub(1), Some(o + 1)]
            .into_iter()
            .flatten()
            .filter(move |&q| q < n)
    }
}
