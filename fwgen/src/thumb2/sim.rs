//! Test oracle: a host-side interpreter of the emitted Thumb-2 subset, reading the assembly
//! *text* (not the internal instruction list), so that what is tested is what the assembler
//! gets.
//!
//! It runs one function with `r0 = out`, `r1 = in` and garbage in every other register and
//! s-register, and checks the AAPCS contract on the way out: r4-r11, sp and s16-s31 restored,
//! return through the saved lr, `in` never written, no word of `out` read before it was
//! written, every word of `out` written, and only the `in`, `out` and stack words touched.

use std::collections::HashMap;

const IN_BASE: u32 = 0x2000_0000;
const OUT_BASE: u32 = 0x2000_1000;
const STACK_LO: u32 = 0x2000_4000;
const STACK_TOP: u32 = 0x2000_8000;
const RETURN: u32 = 0x0bad_c0de;

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The text has a line the interpreter does not know.
    #[error("line {line}: cannot interpret `{text}`")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// The function label is missing.
    #[error("no label `{0}:` in the source")]
    NoFunction(String),
    /// A memory access outside `in`, `out` and the stack, or a forbidden one.
    #[error("line {line}: {what} at address {addr:#010x}")]
    Memory {
        /// 1-based line number.
        line: usize,
        /// What went wrong.
        what: &'static str,
        /// The address.
        addr: u32,
    },
    /// The AAPCS contract is broken at return.
    #[error("calling convention broken: {0}")]
    Convention(String),
    /// The function runs off its end without returning.
    #[error("the function does not return")]
    NoReturn,
}

#[derive(Clone, Debug)]
enum Op {
    Push(Vec<usize>),
    Pop(Vec<usize>),
    VPush(usize, usize),
    VPop(usize, usize),
    Ldr(usize, usize, u32),
    Ldrd(usize, usize, usize, u32),
    Str(usize, usize, u32),
    Strd(usize, usize, usize, u32),
    Eor(usize, usize, usize),
    VToS(usize, usize),
    VToR(usize, usize),
    /// `vmov sM, sM+1, rt, rt2`
    V2ToS(usize, usize, usize),
    /// `vmov rt, rt2, sM, sM+1`
    V2ToR(usize, usize, usize),
    MovImm(usize, u32),
    /// `ldm base, {list}` (no writeback; the list ascends, sp and pc excluded)
    Ldm(usize, Vec<usize>),
    /// `add rd, rn, #imm`
    AddImm(usize, usize, u32),
    SpAdd(i64),
    BxLr,
}

fn reg(t: &str) -> Option<usize> {
    match t.trim() {
        "sp" => Some(13),
        "lr" => Some(14),
        "pc" => Some(15),
        x => x
            .strip_prefix('r')?
            .parse()
            .ok()
            .filter(|&r: &usize| r <= 15),
    }
}

fn sreg(t: &str) -> Option<usize> {
    t.trim()
        .strip_prefix('s')?
        .parse()
        .ok()
        .filter(|&r: &usize| r < 32)
}

fn reg_list(t: &str) -> Option<Vec<usize>> {
    let inner = t.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut v = Vec::new();
    for part in inner.split(',') {
        if let Some((a, b)) = part.split_once('-') {
            let (a, b) = (reg(a)?, reg(b)?);
            v.extend(a..=b);
        } else {
            v.push(reg(part)?);
        }
    }
    Some(v)
}

fn sreg_range(t: &str) -> Option<(usize, usize)> {
    let inner = t.trim().strip_prefix('{')?.strip_suffix('}')?;
    let (a, b) = inner.split_once('-')?;
    Some((sreg(a)?, sreg(b)?))
}

/// `[rN]` or `[rN, #imm]`
fn mem_operand(t: &str) -> Option<(usize, u32)> {
    let inner = t.trim().strip_prefix('[')?.strip_suffix(']')?;
    match inner.split_once(',') {
        None => Some((reg(inner)?, 0)),
        Some((b, o)) => Some((reg(b)?, o.trim().strip_prefix('#')?.parse().ok()?)),
    }
}

fn parse_line(s: &str) -> Option<Op> {
    let (mn, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    let rest = rest.trim();
    // split operands at top-level commas (not inside [] or {})
    let mut ops = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in rest.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            ops.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        ops.push(cur);
    }
    let o = |i: usize| ops.get(i).map(|x| x.trim()).unwrap_or("");
    Some(match (mn, ops.len()) {
        ("push", 1) => Op::Push(reg_list(o(0))?),
        ("pop", 1) => Op::Pop(reg_list(o(0))?),
        ("vpush", 1) => {
            let (a, b) = sreg_range(o(0))?;
            Op::VPush(a, b)
        }
        ("vpop", 1) => {
            let (a, b) = sreg_range(o(0))?;
            Op::VPop(a, b)
        }
        ("ldr", 2) => {
            let (b, off) = mem_operand(o(1))?;
            Op::Ldr(reg(o(0))?, b, off)
        }
        ("ldrd", 3) => {
            let (b, off) = mem_operand(o(2))?;
            Op::Ldrd(reg(o(0))?, reg(o(1))?, b, off)
        }
        ("str", 2) => {
            let (b, off) = mem_operand(o(1))?;
            Op::Str(reg(o(0))?, b, off)
        }
        ("strd", 3) => {
            let (b, off) = mem_operand(o(2))?;
            Op::Strd(reg(o(0))?, reg(o(1))?, b, off)
        }
        ("eor", 3) => Op::Eor(reg(o(0))?, reg(o(1))?, reg(o(2))?),
        ("vmov", 2) => {
            if let (Some(s), Some(r)) = (sreg(o(0)), reg(o(1))) {
                Op::VToS(s, r)
            } else {
                Op::VToR(reg(o(0))?, sreg(o(1))?)
            }
        }
        ("vmov", 4) => {
            if let (Some(a), Some(b)) = (sreg(o(0)), sreg(o(1))) {
                if b != a + 1 {
                    return None;
                }
                Op::V2ToS(a, reg(o(2))?, reg(o(3))?)
            } else {
                let (a, b) = (sreg(o(2))?, sreg(o(3))?);
                if b != a + 1 {
                    return None;
                }
                Op::V2ToR(reg(o(0))?, reg(o(1))?, a)
            }
        }
        ("mov", 2) => Op::MovImm(reg(o(0))?, o(1).strip_prefix('#')?.parse().ok()?),
        ("sub", 3) if o(0) == "sp" && o(1) == "sp" => {
            Op::SpAdd(-o(2).strip_prefix('#')?.parse::<i64>().ok()?)
        }
        ("add", 3) if o(0) == "sp" && o(1) == "sp" => {
            Op::SpAdd(o(2).strip_prefix('#')?.parse::<i64>().ok()?)
        }
        ("ldm", 2) => {
            let list = reg_list(o(1))?;
            if list.is_empty()
                || list.windows(2).any(|w| w[0] >= w[1])
                || list.contains(&13)
                || list.contains(&15)
            {
                return None;
            }
            Op::Ldm(reg(o(0))?, list)
        }
        ("add", 3) => Op::AddImm(
            reg(o(0))?,
            reg(o(1))?,
            o(2).strip_prefix('#')?.parse().ok()?,
        ),
        ("bx", 1) if o(0) == "lr" => Op::BxLr,
        _ => return None,
    })
}

/// Parse the body of function `name`: (line number, op) pairs.
fn parse(asm: &str, name: &str) -> Result<Vec<(usize, Op)>, SimError> {
    let mut body = Vec::new();
    let mut inside = false;
    for (i, raw) in asm.lines().enumerate() {
        let line = raw.split('@').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(label) = line.strip_suffix(':') {
            if inside {
                break;
            }
            inside = label == name;
            continue;
        }
        if line.starts_with('.') {
            if inside && line.starts_with(".size") {
                break;
            }
            continue;
        }
        if !inside {
            continue;
        }
        let op = parse_line(line).ok_or_else(|| SimError::Parse {
            line: i + 1,
            text: raw.to_string(),
        })?;
        body.push((i + 1, op));
    }
    if body.is_empty() && !asm.lines().any(|l| l.trim() == format!("{name}:")) {
        return Err(SimError::NoFunction(name.into()));
    }
    Ok(body)
}

struct Machine {
    r: [u32; 16],
    s: [u32; 32],
    mem: HashMap<u32, u32>,
    n_in: usize,
    n_out: usize,
}

impl Machine {
    fn check(&self, line: usize, addr: u32, write: bool) -> Result<(), SimError> {
        let err = |what| Err(SimError::Memory { line, what, addr });
        if !addr.is_multiple_of(4) {
            return err("unaligned access");
        }
        let in_end = IN_BASE + 4 * self.n_in as u32;
        let out_end = OUT_BASE + 4 * self.n_out as u32;
        if (IN_BASE..in_end).contains(&addr) {
            if write {
                return err("write to the const input array");
            }
            return Ok(());
        }
        if (OUT_BASE..out_end).contains(&addr) {
            if !write && !self.mem.contains_key(&addr) {
                return err("read of an output word before it was written");
            }
            return Ok(());
        }
        if (STACK_LO..STACK_TOP).contains(&addr) {
            if !write && !self.mem.contains_key(&addr) {
                return err("read of an unwritten stack word");
            }
            return Ok(());
        }
        err("access outside in, out and the stack")
    }
    fn load(&self, line: usize, addr: u32) -> Result<u32, SimError> {
        self.check(line, addr, false)?;
        Ok(self.mem.get(&addr).copied().unwrap_or(0))
    }
    fn store(&mut self, line: usize, addr: u32, v: u32) -> Result<(), SimError> {
        self.check(line, addr, true)?;
        self.mem.insert(addr, v);
        Ok(())
    }
}

/// Run function `name` of `asm` on `input` (one word per input signal); returns the `n_out`
/// output words, or why the run or the calling convention failed.
pub fn run(asm: &str, name: &str, input: &[u32], n_out: usize) -> Result<Vec<u32>, SimError> {
    let body = parse(asm, name)?;
    let mut m = Machine::new(input.len(), n_out);
    let saved_r = m.r;
    let saved_s = m.s;
    for (q, &w) in input.iter().enumerate() {
        m.mem.insert(IN_BASE + 4 * q as u32, w);
    }
    let mut returned = false;
    for (line, op) in &body {
        if m.exec(*line, op)? {
            returned = true;
            break;
        }
    }
    if !returned {
        return Err(SimError::NoReturn);
    }
    m.check_restored(&saved_r, &saved_s)?;
    (0..n_out)
        .map(|i| {
            let a = OUT_BASE + 4 * i as u32;
            m.mem
                .get(&a)
                .copied()
                .ok_or_else(|| SimError::Convention(format!("out[{i}] never written")))
        })
        .collect()
}

impl Machine {
    /// A machine with `r0 = out`, `r1 = in`, sp and lr set and garbage in every other register
    /// and s-register.
    fn new(n_in: usize, n_out: usize) -> Self {
        let mut m = Machine {
            r: [0; 16],
            s: [0; 32],
            mem: HashMap::new(),
            n_in,
            n_out,
        };
        // garbage everywhere the routine must not rely on
        let mut g = 0x1234_5678u32;
        let mut garbage = || {
            g ^= g << 13;
            g ^= g >> 17;
            g ^= g << 5;
            g
        };
        for i in 0..16 {
            m.r[i] = garbage();
        }
        for i in 0..32 {
            m.s[i] = garbage();
        }
        m.r[0] = OUT_BASE;
        m.r[1] = IN_BASE;
        m.r[13] = STACK_TOP;
        m.r[14] = RETURN;
        m
    }

    /// Runs one instruction (from `line` of the text); true when it returns.
    fn exec(&mut self, line: usize, op: &Op) -> Result<bool, SimError> {
        let m = self;
        match op {
            Op::Push(_) | Op::Pop(_) | Op::VPush(..) | Op::VPop(..) => {
                return m.exec_stack(line, op)
            }
            Op::Ldr(..) | Op::Ldrd(..) | Op::Str(..) | Op::Strd(..) | Op::Ldm(..) => {
                m.exec_memory(line, op)?
            }
            Op::Eor(d, n, k) => m.r[*d] = m.r[*n] ^ m.r[*k],
            Op::VToS(s, r) => m.s[*s] = m.r[*r],
            Op::VToR(r, s) => m.r[*r] = m.s[*s],
            Op::V2ToS(s, r, r2) => {
                m.s[*s] = m.r[*r];
                m.s[*s + 1] = m.r[*r2];
            }
            Op::V2ToR(r, r2, s) => {
                if r == r2 {
                    return Err(SimError::Parse {
                        line,
                        text: "vmov to two equal core registers".into(),
                    });
                }
                m.r[*r] = m.s[*s];
                m.r[*r2] = m.s[*s + 1];
            }
            Op::MovImm(r, v) => m.r[*r] = *v,
            Op::AddImm(d, n, imm) => m.r[*d] = m.r[*n].wrapping_add(*imm),
            Op::SpAdd(d) => m.r[13] = (i64::from(m.r[13]) + d) as u32,
            Op::BxLr => {
                m.r[15] = m.r[14];
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `push`, `pop`, `vpush`, `vpop`; true when a pop returns (pops pc).
    fn exec_stack(&mut self, line: usize, op: &Op) -> Result<bool, SimError> {
        let m = self;
        match op {
            Op::Push(list) => {
                let mut sp = m.r[13];
                for &r in list.iter().rev() {
                    sp = sp.wrapping_sub(4);
                    m.store(line, sp, m.r[r])?;
                }
                m.r[13] = sp;
            }
            Op::Pop(list) => {
                let mut sp = m.r[13];
                for &r in list {
                    let v = m.load(line, sp)?;
                    m.r[r] = v;
                    sp = sp.wrapping_add(4);
                }
                m.r[13] = sp;
                if list.contains(&15) {
                    return Ok(true);
                }
            }
            Op::VPush(a, b) => {
                let mut sp = m.r[13];
                for i in (*a..=*b).rev() {
                    sp = sp.wrapping_sub(4);
                    m.store(line, sp, m.s[i])?;
                }
                m.r[13] = sp;
            }
            Op::VPop(a, b) => {
                let mut sp = m.r[13];
                for i in *a..=*b {
                    m.s[i] = m.load(line, sp)?;
                    sp = sp.wrapping_add(4);
                }
                m.r[13] = sp;
            }
            _ => {}
        }
        Ok(false)
    }

    /// Loads and stores: `ldr`, `ldrd`, `str`, `strd`, `ldm`.
    fn exec_memory(&mut self, line: usize, op: &Op) -> Result<(), SimError> {
        let m = self;
        match op {
            Op::Ldr(t, b, off) => {
                let v = m.load(line, m.r[*b].wrapping_add(*off))?;
                m.r[*t] = v;
            }
            Op::Ldrd(t, t2, b, off) => {
                if t == t2 {
                    return Err(SimError::Parse {
                        line,
                        text: "ldrd with equal registers".into(),
                    });
                }
                let a = m.r[*b].wrapping_add(*off);
                let (v1, v2) = (m.load(line, a)?, m.load(line, a.wrapping_add(4))?);
                m.r[*t] = v1;
                m.r[*t2] = v2;
            }
            Op::Str(t, b, off) => {
                let a = m.r[*b].wrapping_add(*off);
                m.store(line, a, m.r[*t])?;
            }
            Op::Strd(t, t2, b, off) => {
                let a = m.r[*b].wrapping_add(*off);
                m.store(line, a, m.r[*t])?;
                m.store(line, a.wrapping_add(4), m.r[*t2])?;
            }
            Op::Ldm(b, list) => {
                let a = m.r[*b];
                let mut vals = Vec::with_capacity(list.len());
                for k in 0..list.len() {
                    vals.push(m.load(line, a.wrapping_add(4 * k as u32))?);
                }
                for (&r, v) in list.iter().zip(vals) {
                    m.r[r] = v;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The AAPCS checks on the way out: return to the caller, sp, r4-r11 and s16-s31 restored.
    fn check_restored(&self, saved_r: &[u32; 16], saved_s: &[u32; 32]) -> Result<(), SimError> {
        let m = self;
        if m.r[15] != RETURN {
            return Err(SimError::Convention(format!(
                "returned to {:#010x}, not the caller",
                m.r[15]
            )));
        }
        if m.r[13] != STACK_TOP {
            return Err(SimError::Convention("sp not restored".into()));
        }
        if let Some(i) = (4..=11).find(|&i| m.r[i] != saved_r[i]) {
            return Err(SimError::Convention(format!("r{i} not restored")));
        }
        if let Some(i) = (16..32).find(|&i| m.s[i] != saved_s[i]) {
            return Err(SimError::Convention(format!("s{i} not restored")));
        }
        Ok(())
    }
}
