//! Output stores and spills: when an output goes out (STR or STRD), eviction by farthest next
//! use, the s-register and stack spill slots.

use super::super::insn::{Insn, Reg, ALLOCATABLE, SP};
use super::{St, Val, NONE, SPILL_RAW};
use crate::FwgenError;

impl St<'_> {
    /// With deferred stores: store the outputs of `s` now when one of them pairs with a
    /// resident pending neighbour, or none of them can ever pair.
    pub(super) fn store_now(&self, s: usize) -> bool {
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

    pub(super) fn mark_stored(&mut self, t: usize, q: usize) {
        self.pending[t].retain(|&x| x != q);
        self.out_done[q] = true;
        if self.sig_stored[t].is_none() {
            self.sig_stored[t] = Some(q);
        }
    }

    /// Store the pending outputs of the resident signal `s`, each paired (STRD) with a pending
    /// resident neighbour output when there is one; neighbours that die are freed.
    pub(super) fn store_pending(&mut self, s: usize) -> Result<(), FwgenError> {
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

    pub(super) fn store_pending_locked(&mut self, s: usize, r: Reg) -> Result<(), FwgenError> {
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
    pub(super) fn evict(&mut self, allow_pending: bool) -> Result<Reg, FwgenError> {
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
    pub(super) fn drop_unread_spills(&mut self) {
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

    pub(super) fn take_slot(&mut self) -> Result<u16, FwgenError> {
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

    pub(super) fn spill_to(&mut self, sl: u16, r: Reg) {
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

    pub(super) fn restore_from(&mut self, sl: u16, r: Reg) {
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
}
