//! The end of an allocation: the remaining output stores, the frame layout (VPUSH/VPOP of
//! d8-d15, stack spill offsets) and the epilogue.

use super::super::insn::{Insn, Reg, LR, PC, SP};
use super::{St, Val, SPILL_RAW};
use crate::FwgenError;

impl St<'_> {
    /// Store every pending output (pairs with STRD), re-loading `out` if needed.
    pub(super) fn flush(&mut self) -> Result<(), FwgenError> {
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
    pub(super) fn finish(mut self) -> Vec<Insn> {
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
