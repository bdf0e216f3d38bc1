//! Bringing values into registers: the pointers, inputs (LDR or LDRD), restores of spilled
//! temporaries.

use super::super::insn::{Insn, Reg, SP};
use super::{St, Val, IN_SLOT, NONE, OUT_SLOT};
use crate::FwgenError;

impl St<'_> {
    /// The register holding a pointer, re-loading it from the stack if needed.
    pub(super) fn ptr_reg(&mut self, v: Val) -> Result<Reg, FwgenError> {
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
    pub(super) fn ensure(&mut self, s: usize) -> Result<Reg, FwgenError> {
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

    pub(super) fn load_into(&mut self, s: usize, r: Reg) -> Result<(), FwgenError> {
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
}
