//! Cortex-M4 cycle estimates from the instruction classes that the board's TCG plugin
//! (`board/plugin/insncount.c`) counts per marked region.
//!
//! The plugin prints, besides its `region <name> #<k> <count>` and `total <n>` lines, one
//! `classes <name> #<k> key=value ...` line after every region line and a `classes total ...`
//! line after the total. [`parse`] reads a plugin log into [`PluginLog`]; [`estimate_cycles`]
//! weights a [`ClassCounts`] with the instruction timings of the Arm Cortex-M4 Technical
//! Reference Manual (r0p1, section 3.3 "Processor instruction timings"; zero wait states).
//! The rules, and the approximations the class counts force, are written out in
//! `docs/m4-timing.md`; [`TimingRules`] holds the two values the manual gives as ranges.
//!
//! ```
//! use hqc_board::m4cycles::{estimate_cycles, parse};
//! let log = "region main #0 3\n\
//!     classes main #0 alu=1 it=0 mul=0 div=0 ldr=1 ldr_pipe=0 ldr_pc=0 str=0 ldrd=0 strd=0 \
//!     ldm=0 ldm_regs=0 ldm_pc=0 stm=0 stm_regs=0 vldr=0 vldr_regs=0 vstr=0 vstr_regs=0 vldm=0 \
//!     vldm_regs=0 vstm=0 vstm_regs=0 vmov=0 vmov2=0 fpu=0 fmac=0 fdiv=0 br=1 tbb=0 \
//!     br_taken=1 br_untaken=0 ldr_dep=0 agu=1 str_reg=0 ldr_lit=0 it_fold=0\n";
//! let p = parse(log)?;
//! let c = p.regions[0].classes.as_ref().map(estimate_cycles);
//! // ALU 1; LDR 2, + 1 because the ALU wrote its base; taken branch 1 + P (P = 2)
//! assert_eq!(c, Some(1 + (2 + 1) + 3));
//! # Ok::<(), hqc_board::m4cycles::ParseError>(())
//! ```

use std::fmt::Write as _;

use fwgen::m4timing::cost;
/// The rules' version and range values: one definition with the generator's static model
/// (`fwgen::m4timing`, docs/m4-timing.md).
pub use fwgen::m4timing::{TimingRules, TIMING_VERSION};

macro_rules! class_counts {
    ($( $(#[$doc:meta])* $field:ident ),* $(,)?) => {
        /// Executed instructions of one region (or of the whole program) per Cortex-M4
        /// instruction class, as counted by the plugin. The field names are the plugin's keys.
        ///
        /// The primary classes (every field except `ldr_pipe`, `*_regs`, `ldm_pc`, `br_taken`,
        /// `br_untaken` and the address-rule counts from `ldr_dep` on) partition the
        /// instructions: see [`ClassCounts::instructions`].
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct ClassCounts {
            $( $(#[$doc])* pub $field: u64, )*
        }

        impl ClassCounts {
            /// The plugin's keys, in output order.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];

            fn slot(&mut self, key: &str) -> Option<&mut u64> {
                match key {
                    $( stringify!($field) => Some(&mut self.$field), )*
                    _ => None,
                }
            }

            /// `(key, value)` for every field, in output order.
            pub fn entries(&self) -> Vec<(&'static str, u64)> {
                vec![$( (stringify!($field), self.$field) ),*]
            }

            fn zip_with(&self, o: &Self, f: impl Fn(u64, u64) -> u64) -> Self {
                Self { $( $field: f(self.$field, o.$field), )* }
            }
        }
    };
}

class_counts! {
    /// Data processing, shifts, compares, moves, extends, bit fields, hints, barriers,
    /// MRS/MSR, BKPT/SVC/UDF, PLD: every instruction of no other class.
    alu,
    /// IT.
    it,
    /// MUL/MLA/MLS, the 64-bit-result multiplies (UMULL, SMULL, UMLAL, SMLAL, UMAAL), the DSP
    /// multiplies (and USAD8/USADA8, which share their encoding space).
    mul,
    /// SDIV/UDIV.
    div,
    /// Single loads LDR/LDRB/LDRH/LDRSB/LDRSH/LDREX* (any addressing mode, literal included),
    /// not to pc.
    ldr,
    /// The part of `ldr` whose previous executed instruction was also a counted single load.
    ldr_pipe,
    /// LDR pc, [..].
    ldr_pc,
    /// Single stores STR/STRB/STRH/STREX*.
    str,
    /// LDRD.
    ldrd,
    /// STRD.
    strd,
    /// LDM/LDMDB/POP.
    ldm,
    /// Registers transferred by `ldm` (pc included).
    ldm_regs,
    /// The part of `ldm` whose register list holds pc.
    ldm_pc,
    /// STM/STMDB/PUSH.
    stm,
    /// Registers transferred by `stm`.
    stm_regs,
    /// VLDR.
    vldr,
    /// 32-bit words transferred by `vldr` (1 for an S, 2 for a D register).
    vldr_regs,
    /// VSTR.
    vstr,
    /// 32-bit words transferred by `vstr`.
    vstr_regs,
    /// VLDM/VPOP.
    vldm,
    /// 32-bit words transferred by `vldm`.
    vldm_regs,
    /// VSTM/VPUSH.
    vstm,
    /// 32-bit words transferred by `vstm`.
    vstm_regs,
    /// VMOV of one core register to or from one S register (or a D scalar), VMOV between S
    /// registers, VMOV immediate.
    vmov,
    /// VMOV of two core registers to or from two S registers or one D register.
    vmov2,
    /// Other FP data processing (VADD, VSUB, VMUL, VNMUL, VABS, VNEG, VCMP, VCVT), VMRS/VMSR.
    fpu,
    /// VMLA/VMLS/VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS.
    fmac,
    /// VDIV/VSQRT.
    fdiv,
    /// B, B<cond>, BL, BX, BLX (register), CBZ/CBNZ, MOV pc / ADD pc.
    br,
    /// TBB/TBH.
    tbb,
    /// Executed instructions that may write pc (`br`, `tbb`, `ldr_pc`, `ldm_pc`) after which
    /// the next executed instruction was not the next one in memory.
    br_taken,
    /// The other executed instructions that may write pc.
    br_untaken,
    /// The part of `ldr_pipe` whose base or offset register is the previous load's destination:
    /// such a load does not pipeline.
    ldr_dep,
    /// Loads and stores of every kind (and TBB/TBH) whose base or offset register the previous
    /// instruction wrote as a result, except single loads after a single load (`ldr_dep`).
    agu,
    /// Single stores with a register offset whose previous instruction is not a single load.
    str_reg,
    /// The part of `ldr` that loads relative to pc (literal).
    ldr_lit,
    /// IT right after a 16-bit instruction (which it may fold onto).
    it_fold,
}

impl ClassCounts {
    /// Number of instructions: the sum of the primary classes.
    pub fn instructions(&self) -> u64 {
        [
            self.alu,
            self.it,
            self.mul,
            self.div,
            self.ldr,
            self.ldr_pc,
            self.str,
            self.ldrd,
            self.strd,
            self.ldm,
            self.stm,
            self.vldr,
            self.vstr,
            self.vldm,
            self.vstm,
            self.vmov,
            self.vmov2,
            self.fpu,
            self.fmac,
            self.fdiv,
            self.br,
            self.tbb,
        ]
        .iter()
        .fold(0u64, |a, &v| a.saturating_add(v))
    }

    /// Executed instructions that may write pc: `br + tbb + ldr_pc + ldm_pc`.
    pub fn pc_writers(&self) -> u64 {
        self.br
            .saturating_add(self.tbb)
            .saturating_add(self.ldr_pc)
            .saturating_add(self.ldm_pc)
    }

    /// Field-wise sum (saturating), e.g. to combine regions.
    pub fn add(&self, o: &Self) -> Self {
        self.zip_with(o, u64::saturating_add)
    }

    /// Field-wise difference (saturating at 0), e.g. an outer region minus an inner one.
    pub fn sub(&self, o: &Self) -> Self {
        self.zip_with(o, u64::saturating_sub)
    }

    /// The `key=value ...` part of a plugin `classes` line, in the plugin's order.
    pub fn to_fields(&self) -> String {
        let mut s = String::new();
        for (i, (k, v)) in self.entries().into_iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{k}={v}");
        }
        s
    }

    /// Checks the relations that every plugin line satisfies: each subset no larger than its
    /// set (`ldr_pipe <= ldr`, `ldr_dep <= ldr_pipe`, `ldr_lit <= ldr`, `ldm_pc <= ldm`,
    /// `str_reg <= str`, `it_fold <= it`, `agu` at most the loads and stores), and at most one
    /// pc writer without an outcome (the last one of a run that ends without reaching another
    /// instruction).
    fn check(&self) -> Result<(), String> {
        let memory = [
            self.ldr,
            self.ldr_pc,
            self.str,
            self.ldrd,
            self.strd,
            self.ldm,
            self.stm,
            self.vldr,
            self.vstr,
            self.vldm,
            self.vstm,
            self.tbb,
        ]
        .iter()
        .fold(0u64, |a, &v| a.saturating_add(v));
        let subsets = [
            ("ldr_pipe", self.ldr_pipe, "ldr", self.ldr),
            ("ldr_dep", self.ldr_dep, "ldr_pipe", self.ldr_pipe),
            ("ldr_lit", self.ldr_lit, "ldr", self.ldr),
            ("ldm_pc", self.ldm_pc, "ldm", self.ldm),
            ("str_reg", self.str_reg, "str", self.str),
            ("it_fold", self.it_fold, "it", self.it),
            ("agu", self.agu, "loads and stores", memory),
        ];
        for (k, v, set, n) in subsets {
            if v > n {
                return Err(format!("{k}={v} > {set}={n}"));
            }
        }
        let outcomes = self.br_taken.saturating_add(self.br_untaken);
        let writers = self.pc_writers();
        if outcomes > writers || writers - outcomes > 1 {
            return Err(format!(
                "br_taken+br_untaken={outcomes} does not match br+tbb+ldr_pc+ldm_pc={writers}"
            ));
        }
        Ok(())
    }
}

/// One completed region of a plugin log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Marker-pair name (`main` for `start=`/`stop=`).
    pub name: String,
    /// Completion index `k` of `#k` (per name, in completion order).
    pub index: u64,
    /// Instruction count of the `region` line.
    pub instructions: u64,
    /// The `classes` line that followed (absent in logs of the plugin before classes).
    pub classes: Option<ClassCounts>,
}

impl Region {
    /// Estimated Cortex-M4 cycles with the default [`TimingRules`], when classes were counted.
    pub fn cycles(&self) -> Option<u64> {
        self.classes.as_ref().map(estimate_cycles)
    }
}

/// A parsed plugin log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginLog {
    /// Regions in completion order.
    pub regions: Vec<Region>,
    /// `total <n>`: whole-program instructions.
    pub total: Option<u64>,
    /// `classes total ...`.
    pub total_classes: Option<ClassCounts>,
    /// The plugin's own diagnostics (`insncount: ...` lines, e.g. a stop without a start).
    pub notes: Vec<String>,
}

impl PluginLog {
    /// The region `name #index`.
    pub fn region(&self, name: &str, index: u64) -> Option<&Region> {
        self.regions
            .iter()
            .find(|r| r.name == name && r.index == index)
    }
}

/// A plugin log that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A `region`, `classes` or `total` line of the wrong shape.
    #[error("plugin log line {line}: {why}: {text:?}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
        /// The line.
        text: String,
    },
    /// Counts that contradict each other (classes that do not sum to the region's count, ...).
    #[error("plugin log line {line}: inconsistent counts: {why}")]
    Inconsistent {
        /// 1-based line number.
        line: usize,
        /// What is inconsistent.
        why: String,
    },
}

fn malformed(line: usize, why: impl Into<String>, text: &str) -> ParseError {
    ParseError::Malformed {
        line,
        why: why.into(),
        text: text.to_string(),
    }
}

fn num(line: usize, s: &str, text: &str) -> Result<u64, ParseError> {
    s.parse()
        .map_err(|_| malformed(line, format!("{s:?} is not a count"), text))
}

fn index(line: usize, s: &str, text: &str) -> Result<u64, ParseError> {
    let k = s
        .strip_prefix('#')
        .ok_or_else(|| malformed(line, "expected #<k>", text))?;
    num(line, k, text)
}

fn fields(line: usize, parts: &[&str], text: &str) -> Result<ClassCounts, ParseError> {
    let mut c = ClassCounts::default();
    let mut seen = vec![false; ClassCounts::KEYS.len()];
    for p in parts {
        let (k, v) = p
            .split_once('=')
            .ok_or_else(|| malformed(line, format!("{p:?} is not key=value"), text))?;
        let pos = ClassCounts::KEYS
            .iter()
            .position(|&x| x == k)
            .ok_or_else(|| malformed(line, format!("unknown class {k:?}"), text))?;
        if std::mem::replace(&mut seen[pos], true) {
            return Err(malformed(line, format!("class {k:?} twice"), text));
        }
        let v = num(line, v, text)?;
        if let Some(s) = c.slot(k) {
            *s = v;
        }
    }
    if let Some(pos) = seen.iter().position(|s| !s) {
        return Err(malformed(
            line,
            format!("class {:?} missing", ClassCounts::KEYS[pos]),
            text,
        ));
    }
    c.check()
        .map_err(|why| ParseError::Inconsistent { line, why })?;
    Ok(c)
}

/// Parses a plugin log (the `-D` file of `-d plugin`). Lines other than `region`, `classes`,
/// `total` and `insncount:` are ignored (QEMU may write its own messages to the same file).
/// A `classes <name> #<k>` line must follow the `region <name> #<k>` line it describes, and its
/// primary classes must sum to that region's count; `classes total` likewise matches `total`.
pub fn parse(text: &str) -> Result<PluginLog, ParseError> {
    let mut log = PluginLog::default();
    // the region or total line that the next classes line may describe
    let mut last: Option<(usize, bool)> = None; // (region index or 0, is_total)
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim_end();
        let parts: Vec<&str> = t.split_whitespace().collect();
        match parts.first().copied() {
            Some("region") => {
                if parts.len() != 4 {
                    return Err(malformed(line, "expected: region <name> #<k> <count>", t));
                }
                log.regions.push(Region {
                    name: parts[1].to_string(),
                    index: index(line, parts[2], t)?,
                    instructions: num(line, parts[3], t)?,
                    classes: None,
                });
                last = Some((log.regions.len() - 1, false));
            }
            Some("total") => {
                if parts.len() != 2 {
                    return Err(malformed(line, "expected: total <n>", t));
                }
                if log.total.is_some() {
                    return Err(malformed(line, "a second total line", t));
                }
                log.total = Some(num(line, parts[1], t)?);
                last = Some((0, true));
            }
            Some("classes") if parts.get(1) == Some(&"total") => {
                let c = fields(line, &parts[2..], t)?;
                if last != Some((0, true)) || log.total_classes.is_some() {
                    return Err(malformed(
                        line,
                        "classes total without a total line before it",
                        t,
                    ));
                }
                let n = log.total.unwrap_or(0);
                if c.instructions() != n {
                    return Err(ParseError::Inconsistent {
                        line,
                        why: format!("classes sum to {} but total is {n}", c.instructions()),
                    });
                }
                log.total_classes = Some(c);
                last = None;
            }
            Some("classes") => {
                if parts.len() < 3 {
                    return Err(malformed(
                        line,
                        "expected: classes <name> #<k> key=value ...",
                        t,
                    ));
                }
                let k = index(line, parts[2], t)?;
                let c = fields(line, &parts[3..], t)?;
                let r = match last {
                    Some((ri, false)) => log.regions.get_mut(ri),
                    _ => None,
                }
                .filter(|r| r.name == parts[1] && r.index == k && r.classes.is_none())
                .ok_or_else(|| {
                    malformed(line, "classes line without its region line before it", t)
                })?;
                if c.instructions() != r.instructions {
                    return Err(ParseError::Inconsistent {
                        line,
                        why: format!(
                            "classes sum to {} but region {} #{} counts {}",
                            c.instructions(),
                            r.name,
                            r.index,
                            r.instructions
                        ),
                    });
                }
                r.classes = Some(c);
                last = None;
            }
            Some(w) if w.starts_with("insncount:") => log.notes.push(t.to_string()),
            _ => {}
        }
    }
    Ok(log)
}

/// Estimated cycles with [`TimingRules::TRM`].
pub fn estimate_cycles(c: &ClassCounts) -> u64 {
    estimate_cycles_with(c, &TimingRules::TRM)
}

/// Estimated cycles with the given range values: the sum of [`cycle_terms`].
pub fn estimate_cycles_with(c: &ClassCounts, r: &TimingRules) -> u64 {
    cycle_terms(c, r)
        .iter()
        .fold(0u64, |a, t| a.saturating_add(t.1))
}

/// The estimate split by rule, `(rule, cycles)` in a fixed order (docs/m4-timing.md):
///
/// | rule | cycles |
/// |---|---|
/// | `alu` | alu + it (1 each), less (1 - `rules.it_after_16bit`) x it_fold |
/// | `mul` | mul (1 each, the 64-bit-result forms included) |
/// | `div` | div x `rules.div` |
/// | `ldr` | 2 x ldr - ldr_pipe + ldr_dep (2, or 1 when pipelined after an independent load) |
/// | `str` | str + str_reg (1, or 2 with a register offset not after a load) |
/// | `ldrd_strd` | 3 x (ldrd + strd) (1 + N, N = 2) |
/// | `ldm_stm` | ldm + ldm_regs + stm + stm_regs (1 + N each) |
/// | `vldr_vstr` | vldr + vldr_regs + vstr + vstr_regs (1 + words: 2 for S, 3 for D) |
/// | `vldm_vstm` | vldm + vldm_regs + vstm + vstm_regs (1 + N each) |
/// | `vmov` | vmov + 2 x vmov2 |
/// | `fpu` | fpu + 3 x fmac + 14 x fdiv |
/// | `branch` | br + 2 x tbb + 2 x ldr_pc (issue: 1; TBB/TBH and LDR pc 2) |
/// | `refill` | br_taken x `rules.refill` |
/// | `agu` | agu (1 each: an address register written by the previous instruction) |
/// | `literal` | ldr_lit x `rules.literal` |
///
/// With `rules.address_rules == false` ([`TimingRules::V1`]) the terms `ldr_dep`, `str_reg`
/// and `agu` are left out.
pub fn cycle_terms(c: &ClassCounts, r: &TimingRules) -> Vec<(&'static str, u64)> {
    let m = |k: u64, v: u64| k.saturating_mul(v);
    let s = |vs: &[u64]| vs.iter().fold(0u64, |a, &v| a.saturating_add(v));
    let on = |v: u64| if r.address_rules { v } else { 0 };
    let folded = m(cost::ONE.saturating_sub(r.it_after_16bit), c.it_fold);
    // cost::multiple (1 + N) summed over `n` instructions of `regs` registers or words in all:
    // n × multiple(0) + regs, the rule being linear in N
    let multiple = |n: u64, regs: u64| s(&[m(cost::multiple(0), n), regs]);
    let loads = m(cost::LOAD, c.ldr)
        .saturating_sub(m(cost::LOAD - cost::LOAD_PIPELINED, c.ldr_pipe))
        .saturating_add(on(c.ldr_dep));
    let stores = s(&[
        m(cost::STORE, c.str),
        m(cost::STORE_REG_OFFSET - cost::STORE, on(c.str_reg)),
    ]);
    vec![
        (
            "alu",
            m(cost::ONE, s(&[c.alu, c.it])).saturating_sub(folded),
        ),
        ("mul", m(cost::ONE, c.mul)),
        ("div", m(r.div, c.div)),
        ("ldr", loads),
        ("str", stores),
        ("ldrd_strd", m(cost::DUAL, s(&[c.ldrd, c.strd]))),
        (
            "ldm_stm",
            s(&[multiple(c.ldm, c.ldm_regs), multiple(c.stm, c.stm_regs)]),
        ),
        (
            "vldr_vstr",
            s(&[multiple(c.vldr, c.vldr_regs), multiple(c.vstr, c.vstr_regs)]),
        ),
        (
            "vldm_vstm",
            s(&[multiple(c.vldm, c.vldm_regs), multiple(c.vstm, c.vstm_regs)]),
        ),
        ("vmov", s(&[m(cost::ONE, c.vmov), m(cost::VMOV2, c.vmov2)])),
        (
            "fpu",
            s(&[
                m(cost::ONE, c.fpu),
                m(cost::FMAC, c.fmac),
                m(cost::FDIV, c.fdiv),
            ]),
        ),
        (
            "branch",
            s(&[
                m(cost::ONE, c.br),
                m(cost::TBB, c.tbb),
                m(cost::TBB, c.ldr_pc),
            ]),
        ),
        ("refill", m(r.refill, c.br_taken)),
        ("agu", m(cost::STALL, on(c.agu))),
        ("literal", m(r.literal, c.ldr_lit)),
    ]
}

#[cfg(test)]
mod tests;
