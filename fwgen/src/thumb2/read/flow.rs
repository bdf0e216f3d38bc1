//! The data-flow walk that recovers the straight-line XOR program a routine runs.

use super::super::insn::{reg_name, Insn, Reg, PC, SP};
use super::ReadError;
use algebra::slp::Slp;
use std::collections::HashMap;

/// What a location holds during the data-flow walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    /// Nothing the program may use (the caller's registers, saved values).
    Other,
    /// The `in` pointer.
    InPtr,
    /// `in` plus a byte offset (the base of a preload, `add rd, rn, #imm`).
    InAt(u32),
    /// The `out` pointer.
    OutPtr,
    /// A signal of the program.
    Sig(usize),
    /// The zero word (`mov rd, #0`).
    Zero,
}

/// The straight-line XOR program a routine runs, recovered from its data flow: `r1` points to
/// `n_in` input words, `r0` to `n_out` output words; every `eor` of two signals defines the
/// next signal, a store of a signal or of zero to `out[i]` defines output i. Pointers may be
/// spilled and reloaded (stack, s-registers). The result's XOR count is the routine's EOR
/// count.
pub fn program(insns: &[Insn], n_in: usize, n_out: usize) -> Result<Slp, ReadError> {
    let mut flow = Flow::new(n_in, n_out);
    for (index, insn) in insns.iter().enumerate() {
        let stop = flow.step(insn).map_err(|what| ReadError::Flow {
            index,
            text: insn.text(),
            what,
        })?;
        if stop {
            break;
        }
    }
    let outputs = flow
        .out
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Some(Val::Sig(x)) => Ok(Some(*x)),
            Some(Val::Zero) => Ok(None),
            _ => Err(ReadError::Unwritten(i)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Slp {
        n_in,
        ops: flow.ops,
        outputs,
    })
}

/// The state of the walk: what every core register, s-register, stack word and output word
/// holds, and the XORs read so far.
struct Flow {
    n_in: usize,
    n_out: usize,
    r: [Val; 16],
    s: [Val; 32],
    sp: i64,
    stack: HashMap<i64, Val>,
    ops: Vec<(usize, usize)>,
    out: Vec<Option<Val>>,
}

impl Flow {
    fn new(n_in: usize, n_out: usize) -> Self {
        let mut r = [Val::Other; 16];
        r[0] = Val::OutPtr;
        r[1] = Val::InPtr;
        Flow {
            n_in,
            n_out,
            r,
            s: [Val::Other; 32],
            sp: 0,
            stack: HashMap::new(),
            ops: Vec::new(),
            out: vec![None; n_out],
        }
    }

    /// Walks one instruction; true when the routine returns. The error says what is wrong.
    fn step(&mut self, insn: &Insn) -> Result<bool, String> {
        let (n_in, r, s) = (self.n_in, &mut self.r, &mut self.s);
        match insn {
            Insn::Push(_)
            | Insn::Pop(_)
            | Insn::VPush
            | Insn::VPop
            | Insn::SubSp(_)
            | Insn::AddSp(_) => return self.stack_op(insn),
            Insn::Ldr { rt, base, off } => {
                let v = self.load(*base, *off)?;
                self.r[*rt as usize] = v;
            }
            Insn::Ldrd { rt, rt2, base, off } => {
                let v1 = self.load(*base, *off)?;
                let v2 = self.load(*base, off + 4)?;
                self.r[*rt as usize] = v1;
                self.r[*rt2 as usize] = v2;
            }
            Insn::Ldm { base, regs } => self.load_multiple(*base, regs)?,
            Insn::Str { rt, base, off } => self.store(&[*rt], *base, *off)?,
            Insn::Strd { rt, rt2, base, off } => self.store(&[*rt, *rt2], *base, *off)?,
            Insn::Eor { rd, rn, rm } => match (r[*rn as usize], r[*rm as usize]) {
                (Val::Sig(a), Val::Sig(b)) => {
                    self.ops.push((a, b));
                    r[*rd as usize] = Val::Sig(n_in + self.ops.len() - 1);
                }
                _ => {
                    return Err(
                        "an operand is not a signal of the program (an uninitialised register, a pointer or zero)".into(),
                    )
                }
            },
            Insn::VmovToS { s: k, rt } => s[*k as usize] = r[*rt as usize],
            Insn::VmovToR { rt, s: k } => r[*rt as usize] = s[*k as usize],
            Insn::Vmov2ToS { s: k, rt, rt2 } => {
                s[*k as usize] = r[*rt as usize];
                s[*k as usize + 1] = r[*rt2 as usize];
            }
            Insn::Vmov2ToR { rt, rt2, s: k } => {
                r[*rt as usize] = s[*k as usize];
                r[*rt2 as usize] = s[*k as usize + 1];
            }
            Insn::MovZero { rd } => r[*rd as usize] = Val::Zero,
            Insn::AddImm { rd, rn, imm } => {
                r[*rd as usize] = match r[*rn as usize] {
                    Val::InPtr if *imm <= 4 * n_in as u32 => Val::InAt(*imm),
                    _ => return Err("adds to a register that is not `in`".into()),
                }
            }
            Insn::BxLr => return Ok(true),
        }
        Ok(false)
    }

    /// Pushes, pops and moves of the stack pointer; true when a pop returns (pops pc).
    fn stack_op(&mut self, insn: &Insn) -> Result<bool, String> {
        match insn {
            Insn::Push(list) => {
                for &x in list.iter().rev() {
                    self.sp -= 4;
                    self.stack.insert(self.sp, self.r[x as usize]);
                }
            }
            Insn::Pop(list) => {
                for &x in list {
                    let v = self
                        .stack
                        .get(&self.sp)
                        .copied()
                        .ok_or_else(|| "pops an unwritten stack word".to_string())?;
                    self.r[x as usize] = v;
                    self.sp += 4;
                }
                if list.contains(&PC) {
                    return Ok(true);
                }
            }
            Insn::VPush => {
                for i in (16..32).rev() {
                    self.sp -= 4;
                    self.stack.insert(self.sp, self.s[i]);
                }
            }
            Insn::VPop => {
                for v in self.s.iter_mut().skip(16) {
                    *v = self
                        .stack
                        .get(&self.sp)
                        .copied()
                        .ok_or_else(|| "pops an unwritten stack word".to_string())?;
                    self.sp += 4;
                }
            }
            Insn::SubSp(n) => self.sp -= i64::from(*n),
            Insn::AddSp(n) => self.sp += i64::from(*n),
            _ => {}
        }
        Ok(false)
    }

    /// The word at `base + off`, for a load.
    fn load(&self, base: Reg, off: u32) -> Result<Val, String> {
        let (n_in, n_out) = (self.n_in, self.n_out);
        match self.r[base as usize] {
            Val::InPtr if off.is_multiple_of(4) && (off / 4) < n_in as u32 => {
                Ok(Val::Sig((off / 4) as usize))
            }
            Val::InAt(d) if (d + off).is_multiple_of(4) && ((d + off) / 4) < n_in as u32 => {
                Ok(Val::Sig(((d + off) / 4) as usize))
            }
            // out doubles as spill space once a word of it is written
            Val::OutPtr if off.is_multiple_of(4) && ((off / 4) as usize) < n_out => self.out
                [(off / 4) as usize]
                .ok_or_else(|| format!("reads out[{}] before it is written", off / 4)),
            _ if base == SP => self
                .stack
                .get(&(self.sp + i64::from(off)))
                .copied()
                .ok_or_else(|| format!("reads an unwritten stack word at sp + {off}")),
            _ => Err(format!(
                "loads from {} + {off}, which is neither in[0..{n_in}] nor the stack",
                reg_name(base)
            )),
        }
    }

    /// `ldm base, {regs}`.
    fn load_multiple(&mut self, base: Reg, regs: &[Reg]) -> Result<(), String> {
        if regs.windows(2).any(|w| w[0] >= w[1]) || regs.iter().any(|&x| x == SP || x == PC) {
            return Err("ldm list does not ascend or holds sp or pc".into());
        }
        let mut vals = Vec::with_capacity(regs.len());
        for k in 0..regs.len() {
            vals.push(self.load(base, 4 * k as u32)?);
        }
        for (&x, v) in regs.iter().zip(vals) {
            self.r[x as usize] = v;
        }
        Ok(())
    }

    /// `str`/`strd` of `words` to `base + off`: to the stack or to `out`.
    fn store(&mut self, words: &[Reg], base: Reg, off: u32) -> Result<(), String> {
        let n_out = self.n_out;
        for (k, &rt) in words.iter().enumerate() {
            let o = off + 4 * k as u32;
            let v = self.r[rt as usize];
            if base == SP {
                self.stack.insert(self.sp + i64::from(o), v);
            } else if self.r[base as usize] == Val::OutPtr
                && o.is_multiple_of(4)
                && ((o / 4) as usize) < n_out
            {
                self.out[(o / 4) as usize] = Some(v);
            } else {
                return Err(format!(
                    "stores to {} + {o}, which is neither out[0..{n_out}] nor the stack",
                    reg_name(base)
                ));
            }
        }
        Ok(())
    }
}
