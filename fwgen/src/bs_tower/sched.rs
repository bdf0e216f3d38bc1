//! The XOR scheduler and register allocator of the tower header: a greedy list scheduler
//! that prefers operations whose operands were touched recently and that end an operand's
//! lifetime, then `K` virtual registers with Belady eviction and explicit spill slots. Each
//! routine is emitted twice: as C over `r0..r{K-1}` and a spill array (hosts), and as a naked
//! Thumb-2 function (Cortex-M4). The choices (tie-breaks, eviction keys, slot reuse order) are
//! the ones the header has always been generated with, kept so the header is stable.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::FwgenError;

/// One operation `d = a o b`, `o` being `^` or `&`.
#[derive(Clone, Debug)]
pub(crate) struct Op {
    pub d: String,
    pub o: char,
    pub a: String,
    pub b: String,
}

/// One output: `lvalue mode value` with mode `=` or `^=`.
#[derive(Clone, Debug)]
pub(crate) struct Output {
    pub lv: String,
    pub v: String,
    pub acc: bool,
}

/// A routine to emit: inputs (value name -> C lvalue it is loaded from), ops, outputs.
pub(crate) struct Routine<'a> {
    pub name: &'a str,
    pub signature: &'a str,
    pub inputs: HashMap<String, String>,
    pub ops: Vec<Op>,
    pub outputs: Vec<Output>,
    pub schedule: bool,
    pub comment: String,
}

/// Greedy list scheduling (weights: recently touched operand, last use; `window` recent values).
fn schedule(r: &Routine, w_reg: i64, w_last: i64, window: usize) -> Result<Vec<Op>, FwgenError> {
    let ops = &r.ops;
    let mut remaining: HashMap<&str, i64> = HashMap::new();
    let mut users: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, op) in ops.iter().enumerate() {
        for x in [&op.a, &op.b] {
            *remaining.entry(x).or_insert(0) += 1;
            users.entry(x).or_default().push(i);
        }
    }
    for o in &r.outputs {
        *remaining.entry(&o.v).or_insert(0) += 1;
    }
    let mut defined: HashSet<&str> = r.inputs.keys().map(String::as_str).collect();
    let mut ready: BTreeSet<usize> = (0..ops.len())
        .filter(|&i| defined.contains(ops[i].a.as_str()) && defined.contains(ops[i].b.as_str()))
        .collect();
    let mut done = vec![false; ops.len()];
    let mut recent: Vec<&str> = Vec::new();
    let mut order = Vec::with_capacity(ops.len());
    while order.len() < ops.len() {
        let rset: HashSet<&str> = recent[recent.len().saturating_sub(window)..]
            .iter()
            .copied()
            .collect();
        // highest score; among equal scores the earliest operation
        let mut best: Option<(i64, usize)> = None;
        for &i in &ready {
            let mut sc = 0;
            for x in [ops[i].a.as_str(), ops[i].b.as_str()] {
                if rset.contains(x) {
                    sc += w_reg;
                }
                if remaining.get(x) == Some(&1) {
                    sc += w_last;
                }
            }
            if best.is_none_or(|(bs, _)| sc > bs) {
                best = Some((sc, i));
            }
        }
        let Some((_, i)) = best else {
            return Err(FwgenError::Internal(format!(
                "{}: no ready operation",
                r.name
            )));
        };
        let op = &ops[i];
        ready.remove(&i);
        done[i] = true;
        order.push(op.clone());
        for x in [op.a.as_str(), op.b.as_str()] {
            if let Some(c) = remaining.get_mut(x) {
                *c -= 1;
            }
        }
        defined.insert(&op.d);
        recent.extend([op.a.as_str(), op.b.as_str(), op.d.as_str()]);
        for &j in users.get(op.d.as_str()).map(Vec::as_slice).unwrap_or(&[]) {
            if !done[j]
                && defined.contains(ops[j].a.as_str())
                && defined.contains(ops[j].b.as_str())
            {
                ready.insert(j);
            }
        }
    }
    Ok(order)
}

/// One step of the allocated program.
enum Inst {
    Ld(usize, String),
    St(usize, String),
    Stx(usize, String),
    Op(usize, usize, usize, char),
}

/// The routine as C and as a Thumb-2 naked function, selected by `__arm__ && !HOST_BUILD`.
pub(crate) fn emit(r: &Routine) -> Result<String, FwgenError> {
    let params: Vec<&str> = r
        .signature
        .split(',')
        .map(|p| {
            p.split_whitespace()
                .last()
                .unwrap_or("")
                .trim_start_matches('*')
        })
        .collect();
    let k = 14 - params.len() - 1; // r0..r12, lr minus the pointer arguments minus one scratch
    let order = if r.schedule {
        schedule(r, 4, 3, 10)?
    } else {
        r.ops.clone()
    };
    let (txt_c, st, nslots) = allocate(r, &order, k)?;
    let pool: Vec<String> = (params.len()..13)
        .map(|i| format!("r{i}"))
        .chain(["lr".to_string()])
        .collect();
    let (vregs, scratch) = (&pool[..k], &pool[k]);
    let mem = |lv: &str| -> Result<String, FwgenError> {
        let bad = || FwgenError::Internal(format!("{}: lvalue `{lv}` is not BASE[INDEX]", r.name));
        let (base, rest) = lv.split_once('[').ok_or_else(bad)?;
        let idx: usize = rest
            .strip_suffix(']')
            .and_then(|s| s.parse().ok())
            .ok_or_else(bad)?;
        if base == "sp" {
            return Ok(format!("[sp, #{}]", 4 * idx));
        }
        let p = params.iter().position(|&p| p == base).ok_or_else(bad)?;
        Ok(format!("[r{p}, #{}]", 4 * idx))
    };
    let mut asm = vec!["push {r4-r11, lr}".to_string()];
    if nslots > 0 {
        asm.push(format!("sub sp, sp, #{}", 4 * nslots));
    }
    for s in &st {
        match s {
            Inst::Ld(v, lv) => asm.push(format!("ldr {}, {}", vregs[*v], mem(lv)?)),
            Inst::St(v, lv) => asm.push(format!("str {}, {}", vregs[*v], mem(lv)?)),
            Inst::Stx(v, lv) => {
                let m = mem(lv)?;
                asm.push(format!("ldr {scratch}, {m}"));
                asm.push(format!("eor {scratch}, {scratch}, {}", vregs[*v]));
                asm.push(format!("str {scratch}, {m}"));
            }
            Inst::Op(d, a, b, o) => {
                let name = if *o == '^' { "eor" } else { "and" };
                asm.push(format!(
                    "{name} {}, {}, {}",
                    vregs[*d], vregs[*a], vregs[*b]
                ));
            }
        }
    }
    if nslots > 0 {
        asm.push(format!("add sp, sp, #{}", 4 * nslots));
    }
    asm.push("pop {r4-r11, pc}".to_string());
    let sig_thumb: Vec<String> = r
        .signature
        .replace("restrict ", "")
        .split(',')
        .map(|p| format!("{} __attribute__((unused))", p.trim()))
        .collect();
    let body: Vec<String> = asm
        .iter()
        .map(|x| format!("        \"{x}\\n\\t\""))
        .collect();
    let out = [
        "#if defined(__arm__) && !defined(HOST_BUILD)".to_string(),
        if r.comment.is_empty() {
            String::new()
        } else {
            format!("/* {}: Thumb-2, {} instructions */", r.comment, asm.len())
        },
        format!(
            "__attribute__((naked, noinline, unused)) static void {}({})",
            r.name,
            sig_thumb.join(", ")
        ),
        "{".to_string(),
        "    __asm__ volatile(".to_string(),
        body.join("\n") + ");",
        "}".to_string(),
        "#else".to_string(),
        txt_c,
        "#endif".to_string(),
    ];
    Ok(out
        .into_iter()
        .filter(|x| !x.is_empty())
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Step of the linear sequence: an operation (index into the order) or an output store.
enum Step {
    Op(usize),
    St(usize),
}

/// Register allocation of `order` over `k` registers: (C text, instructions, spill slots).
fn allocate(r: &Routine, order: &[Op], k: usize) -> Result<(String, Vec<Inst>, usize), FwgenError> {
    let seq = sequence(r, order);
    let usetimes = use_times(r, order, &seq);
    let mut a = Alloc {
        usetimes,
        inputs: &r.inputs,
        reg: HashMap::new(),
        regval: vec![None; k],
        spilled: Vec::new(),
        nslots: 0,
        free_slots: Vec::new(),
        lines: Vec::new(),
        st: Vec::new(),
    };
    let mut nops = 0;
    for (t, s) in seq.iter().enumerate() {
        match *s {
            Step::Op(i) => {
                a.op(&order[i], t)?;
                nops += 1;
            }
            Step::St(i) => a.store(&r.outputs[i], t)?,
        }
        a.release_dead(t);
    }
    let text = c_function(r, &mut a, nops, k);
    Ok((text, a.st, a.nslots))
}

/// The linear sequence of `order`: each output is stored right after its value is defined.
fn sequence(r: &Routine, order: &[Op]) -> Vec<Step> {
    let mut defpos: HashMap<&str, i64> = r.inputs.keys().map(|v| (v.as_str(), -1)).collect();
    for (t, op) in order.iter().enumerate() {
        defpos.insert(&op.d, t as i64);
    }
    // each output is stored right after its value is defined (stable among equal times)
    let mut events: Vec<(i64, usize)> = r
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| (*defpos.get(o.v.as_str()).unwrap_or(&-1), i))
        .collect();
    events.sort_by_key(|e| e.0);
    let mut seq = Vec::new();
    let mut ei = 0;
    for t in 0..order.len() {
        while ei < events.len() && events[ei].0 < t as i64 {
            seq.push(Step::St(events[ei].1));
            ei += 1;
        }
        seq.push(Step::Op(t));
    }
    seq.extend(events[ei..].iter().map(|e| Step::St(e.1)));
    seq
}

/// Per value, the steps of `seq` that read it, ascending.
fn use_times<'a>(r: &'a Routine, order: &'a [Op], seq: &[Step]) -> HashMap<&'a str, Vec<usize>> {
    let mut usetimes: HashMap<&str, Vec<usize>> = HashMap::new();
    for (t, s) in seq.iter().enumerate() {
        match *s {
            Step::Op(i) => {
                usetimes.entry(&order[i].a).or_default().push(t);
                usetimes.entry(&order[i].b).or_default().push(t);
            }
            Step::St(i) => usetimes.entry(&r.outputs[i].v).or_default().push(t),
        }
    }
    usetimes
}

/// The C function of routine `r`: its comment, signature, register declarations, spill array
/// and the allocator's lines (taken out of `a`).
fn c_function(r: &Routine, a: &mut Alloc, nops: usize, k: usize) -> String {
    let used: BTreeSet<usize> =
        a.st.iter()
            .map(|s| match s {
                Inst::Ld(v, _) | Inst::St(v, _) | Inst::Stx(v, _) | Inst::Op(v, ..) => *v,
            })
            .collect();
    let mut body = Vec::new();
    if !r.comment.is_empty() {
        body.push(format!(
            "/* {} ({nops} ops, {k} registers, {} spill slots) */",
            r.comment, a.nslots
        ));
    }
    body.push(format!(
        "static inline __attribute__((unused)) void {}({})",
        r.name, r.signature
    ));
    body.push("{".to_string());
    body.push(format!(
        "    uint32_t {};",
        used.iter()
            .map(|i| format!("r{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if a.nslots > 0 {
        body.push(format!("    uint32_t sp[{}];", a.nslots));
    }
    body.append(&mut a.lines);
    body.push("}".to_string());
    body.join("\n")
}

/// Allocator state: registers, spill slots (in the order values were spilled), emitted code.
struct Alloc<'a> {
    usetimes: HashMap<&'a str, Vec<usize>>,
    inputs: &'a HashMap<String, String>,
    reg: HashMap<String, usize>,
    regval: Vec<Option<String>>,
    spilled: Vec<(String, usize)>,
    nslots: usize,
    free_slots: Vec<usize>,
    lines: Vec<String>,
    st: Vec<Inst>,
}

impl Alloc<'_> {
    /// First use of `v` at or after step `t`.
    fn nextuse(&self, v: &str, t: usize) -> Option<usize> {
        let l = self.usetimes.get(v)?;
        l.get(l.partition_point(|&u| u < t)).copied()
    }

    /// Where `v` can be reloaded from: its spill slot or its input.
    fn home(&self, v: &str) -> Option<String> {
        match self.spilled.iter().find(|(s, _)| s == v) {
            Some((_, slot)) => Some(format!("sp[{slot}]")),
            None => self.inputs.get(v).cloned(),
        }
    }

    /// A free register, else the one whose value is next used furthest away (spilled if needed).
    fn evict(&mut self, t: usize, protect: &[&str]) -> Result<usize, FwgenError> {
        let mut best: Option<(usize, usize)> = None;
        for r in 0..self.regval.len() {
            let Some(v) = self.regval[r].as_deref() else {
                return Ok(r);
            };
            if protect.contains(&v) {
                continue;
            }
            let key = self.nextuse(v, t).map_or(usize::MAX, |nu| nu - t);
            if best.is_none_or(|(_, bk)| key > bk) {
                best = Some((r, key));
            }
        }
        let Some((best, _)) = best else {
            return Err(FwgenError::Internal("every register is protected".into()));
        };
        let v = self.regval[best].take().unwrap_or_default();
        if self.nextuse(&v, t).is_some() && self.home(&v).is_none() {
            let slot = match self.free_slots.pop() {
                Some(s) => s,
                None => {
                    self.nslots += 1;
                    self.nslots - 1
                }
            };
            self.lines.push(format!("    sp[{slot}] = r{best};"));
            self.st.push(Inst::St(best, format!("sp[{slot}]")));
            self.spilled.push((v.clone(), slot));
        }
        self.reg.remove(&v);
        Ok(best)
    }

    /// The register holding `v`, loading it from its home if needed.
    fn ensure(&mut self, v: &str, t: usize, protect: &[&str]) -> Result<usize, FwgenError> {
        if let Some(&r) = self.reg.get(v) {
            return Ok(r);
        }
        let h = self
            .home(v)
            .ok_or_else(|| FwgenError::Internal(format!("value {v} lost")))?;
        let r = self.evict(t, protect)?;
        self.lines.push(format!("    r{r} = {h};"));
        self.st.push(Inst::Ld(r, h));
        self.reg.insert(v.to_string(), r);
        self.regval[r] = Some(v.to_string());
        Ok(r)
    }

    /// Operation `op` at step `t`: operands into registers, the destination (an operand's
    /// register when that operand dies here, else an evicted one), dead operands released.
    fn op(&mut self, op: &Op, t: usize) -> Result<(), FwgenError> {
        let a = self;
        let protect = [op.a.as_str(), op.b.as_str()];
        let ra = a.ensure(&op.a, t, &protect)?;
        let rb = a.ensure(&op.b, t, &protect)?;
        // destination: reuse an operand register if that operand dies here
        let mut rd = None;
        for (x, rx) in [(&op.a, ra), (&op.b, rb)] {
            if a.nextuse(x, t + 1).is_none() && a.regval[rx].as_deref() == Some(x.as_str()) {
                rd = Some(rx);
                break;
            }
        }
        let rd = match rd {
            Some(rd) => rd,
            None => a.evict(t, &protect)?,
        };
        a.lines.push(format!("    r{rd} = r{ra} {} r{rb};", op.o));
        a.st.push(Inst::Op(rd, ra, rb, op.o));
        for x in protect {
            if a.reg.contains_key(x) && a.nextuse(x, t + 1).is_none() {
                if let Some(rx) = a.reg.remove(x) {
                    if a.regval[rx].as_deref() == Some(x) {
                        a.regval[rx] = None;
                    }
                }
            }
        }
        if let Some(old) = a.regval[rd].take() {
            a.reg.remove(&old);
        }
        a.reg.insert(op.d.clone(), rd);
        a.regval[rd] = Some(op.d.clone());
        Ok(())
    }

    /// The store of output `o` at step `t` (`^=` when it accumulates).
    fn store(&mut self, o: &Output, t: usize) -> Result<(), FwgenError> {
        let reg = self.ensure(&o.v, t, &[o.v.as_str()])?;
        if o.acc {
            self.lines.push(format!("    {} ^= r{reg};", o.lv));
            self.st.push(Inst::Stx(reg, o.lv.clone()));
        } else {
            self.lines.push(format!("    {} = r{reg};", o.lv));
            self.st.push(Inst::St(reg, o.lv.clone()));
        }
        Ok(())
    }

    /// Frees the registers and spill slots of values not used after step `t`.
    fn release_dead(&mut self, t: usize) {
        for r in 0..self.regval.len() {
            if let Some(v) = self.regval[r].clone() {
                if self.nextuse(&v, t + 1).is_none() {
                    self.reg.remove(&v);
                    self.regval[r] = None;
                }
            }
        }
        let (dead, live): (Vec<_>, Vec<_>) = std::mem::take(&mut self.spilled)
            .into_iter()
            .partition(|(v, _)| self.nextuse(v, t + 1).is_none());
        self.spilled = live;
        self.free_slots.extend(dead.into_iter().map(|(_, s)| s));
    }
}
