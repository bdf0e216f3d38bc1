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
//! use hqc_verify::m4cycles::{estimate_cycles, parse};
//! let log = "region main #0 3\n\
//!     classes main #0 alu=1 it=0 mul=0 div=0 ldr=1 ldr_pipe=0 ldr_pc=0 str=0 ldrd=0 strd=0 \
//!     ldm=0 ldm_regs=0 ldm_pc=0 stm=0 stm_regs=0 vldr=0 vldr_regs=0 vstr=0 vstr_regs=0 vldm=0 \
//!     vldm_regs=0 vstm=0 vstm_regs=0 vmov=0 vmov2=0 fpu=0 fmac=0 fdiv=0 br=1 tbb=0 \
//!     br_taken=1 br_untaken=0 ldr_dep=0 agu=1 str_reg=0 ldr_lit=0 it_fold=0\n";
//! let p = parse(log)?;
//! let c = p.regions[0].classes.as_ref().map(estimate_cycles);
//! // ALU 1; LDR 2, + 1 because the ALU wrote its base; taken branch 1 + P (P = 2)
//! assert_eq!(c, Some(1 + (2 + 1) + 3));
//! # Ok::<(), hqc_verify::m4cycles::ParseError>(())
//! ```

use std::fmt::Write as _;

/// Version of the timing rules of `docs/m4-timing.md`, to print next to every estimate.
pub const TIMING_VERSION: &str = "m4-trm-r0p1-v2";

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
            self.ldr, self.ldr_pc, self.str, self.ldrd, self.strd, self.ldm, self.stm,
            self.vldr, self.vstr, self.vldm, self.vstm, self.tbb,
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

/// The values that the Technical Reference Manual gives as ranges or as a possibility, and
/// the switch back to the rules before the address rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimingRules {
    /// P, the pipeline refill after a taken branch or other write to pc (TRM: 1 to 3, by the
    /// target's alignment and width and by whether the address was speculated early).
    pub refill: u64,
    /// Cycles of SDIV/UDIV (TRM: 2 to 12, by early termination on the operands, which the
    /// plugin does not see).
    pub div: u64,
    /// Extra cycles of a literal (pc-relative) load (TRM: "might add a cycle because of
    /// contention with the fetch unit": 0 or 1).
    pub literal: u64,
    /// Cycles of an IT right after a 16-bit instruction (TRM: IT "can be folded" onto a
    /// preceding 16-bit instruction, executing in zero cycles: 0 or 1).
    pub it_after_16bit: u64,
    /// The address rules of the load/store timing notes: a load after a load whose destination
    /// forms its address does not pipeline (`ldr_dep`), an address register written by the
    /// previous instruction stalls one cycle (`agu`), a store with a register offset not
    /// pipelined after a load takes 2 (`str_reg`). `false` only in [`TimingRules::V1`].
    pub address_rules: bool,
}

impl TimingRules {
    /// The point estimate: P = 2, the middle of 1..3; a divide at its worst case, 12; a literal
    /// load's possible cycle and an IT that is not folded (the costlier end of both).
    pub const TRM: TimingRules = TimingRules {
        refill: 2,
        div: 12,
        literal: 1,
        it_after_16bit: 1,
        address_rules: true,
    };
    /// The lower end of every range: P = 1, divide 2, no literal cycle, IT folded.
    pub const FAST: TimingRules = TimingRules {
        refill: 1,
        div: 2,
        literal: 0,
        it_after_16bit: 0,
        address_rules: true,
    };
    /// The upper end of every range: P = 3, divide 12, a literal cycle, IT not folded.
    pub const SLOW: TimingRules = TimingRules {
        refill: 3,
        div: 12,
        literal: 1,
        it_after_16bit: 1,
        address_rules: true,
    };
    /// The point estimate of the rules before the address rules (version `m4-trm-r0p1-v1`):
    /// every single load after a single load pipelines, no stall, no literal cycle, a store 1.
    /// Only to compare with figures of that version.
    pub const V1: TimingRules = TimingRules {
        refill: 2,
        div: 12,
        literal: 0,
        it_after_16bit: 1,
        address_rules: false,
    };
}

impl Default for TimingRules {
    fn default() -> Self {
        Self::TRM
    }
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
    let folded = m(1u64.saturating_sub(r.it_after_16bit), c.it_fold);
    vec![
        ("alu", s(&[c.alu, c.it]).saturating_sub(folded)),
        ("mul", c.mul),
        ("div", m(r.div, c.div)),
        (
            "ldr",
            m(2, c.ldr)
                .saturating_sub(c.ldr_pipe)
                .saturating_add(on(c.ldr_dep)),
        ),
        ("str", s(&[c.str, on(c.str_reg)])),
        ("ldrd_strd", m(3, s(&[c.ldrd, c.strd]))),
        ("ldm_stm", s(&[c.ldm, c.ldm_regs, c.stm, c.stm_regs])),
        ("vldr_vstr", s(&[c.vldr, c.vldr_regs, c.vstr, c.vstr_regs])),
        ("vldm_vstm", s(&[c.vldm, c.vldm_regs, c.vstm, c.vstm_regs])),
        ("vmov", s(&[c.vmov, m(2, c.vmov2)])),
        ("fpu", s(&[c.fpu, m(3, c.fmac), m(14, c.fdiv)])),
        ("branch", s(&[c.br, m(2, c.tbb), m(2, c.ldr_pc)])),
        ("refill", m(r.refill, c.br_taken)),
        ("agu", on(c.agu)),
        ("literal", m(r.literal, c.ldr_lit)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, k: u64, c: &ClassCounts) -> String {
        format!(
            "region {name} #{k} {}\nclasses {name} #{k} {}\n",
            c.instructions(),
            c.to_fields()
        )
    }

    fn sample() -> ClassCounts {
        ClassCounts {
            alu: 10,
            it: 1,
            ldr: 5,
            ldr_pipe: 2,
            str: 3,
            ldm: 1,
            ldm_regs: 4,
            ldm_pc: 1,
            br: 3,
            br_taken: 3,
            br_untaken: 1,
            ..Default::default()
        }
    }

    #[test]
    fn parse_round_trip_and_old_logs() {
        let c = sample();
        let text = format!(
            "some qemu message\n{}region inner #0 7\ninsncount: stop without start for region x\ntotal {}\nclasses total {}\n",
            line("main", 0, &c),
            c.instructions(),
            c.to_fields()
        );
        let p = parse(&text).expect("parses");
        assert_eq!(p.regions.len(), 2);
        assert_eq!(p.regions[0].classes, Some(c));
        assert_eq!(p.regions[0].instructions, 23);
        // a region line without classes (the plugin before classes) is kept as it is
        assert_eq!(
            p.region("inner", 0).map(|r| (r.instructions, r.classes)),
            Some((7, None))
        );
        assert_eq!(p.total, Some(23));
        assert_eq!(p.total_classes, Some(c));
        assert_eq!(p.notes.len(), 1);
    }

    #[test]
    fn parse_rejects_bad_lines() {
        let c = sample();
        let good = line("main", 0, &c);
        let bad = [
            good.replace("alu=10", "alu=x"),
            good.replace("alu=10", "alu=10 alu=10"),
            good.replace(" it=1", ""),
            good.replace("it=1", "it=1 bogus=3"),
            good.replace("it=1", "it"),
            good.replace("#0 23", "0 23"),
            good.replace("region main #0 23", "region main #0 24"),
            good.replace("classes main #0", "classes other #0"),
            good.replace("ldr_pipe=2", "ldr_pipe=6"),
            good.replace("br_untaken=1", "br_untaken=3"),
            good.replace("ldr_dep=0", "ldr_dep=3"),
            good.replace("ldr_lit=0", "ldr_lit=6"),
            good.replace("str_reg=0", "str_reg=4"),
            good.replace("it_fold=0", "it_fold=2"),
            good.replace("agu=0", "agu=99"),
            good.replace(" it_fold=0", ""),
            format!("classes main #0 {}\n", c.to_fields()),
            "total 1 2\n".to_string(),
            format!("total 5\nclasses total {}\n", c.to_fields()),
            "region main #0\n".to_string(),
        ];
        for b in &bad {
            assert!(parse(b).is_err(), "accepted: {b}");
        }
        assert!(parse(&good).is_ok());
    }

    #[test]
    fn cycle_rules_per_class() {
        let one = |f: fn(&mut ClassCounts)| {
            let mut c = ClassCounts::default();
            f(&mut c);
            (
                estimate_cycles(&c),
                estimate_cycles_with(&c, &TimingRules::FAST),
            )
        };
        assert_eq!(one(|c| c.alu = 10), (10, 10));
        assert_eq!(one(|c| c.it = 1), (1, 1));
        assert_eq!(one(|c| c.mul = 3), (3, 3));
        assert_eq!(one(|c| c.div = 1), (12, 2));
        // N loads back to back: N + 1
        assert_eq!(
            one(|c| {
                c.ldr = 4;
                c.ldr_pipe = 3
            }),
            (5, 5)
        );
        assert_eq!(one(|c| c.ldr = 1), (2, 2));
        assert_eq!(one(|c| c.str = 2), (2, 2));
        assert_eq!(one(|c| c.ldrd = 1), (3, 3));
        assert_eq!(
            one(|c| {
                c.ldm = 1;
                c.ldm_regs = 4
            }),
            (5, 5)
        );
        // POP {r4-r7, pc}: 1 + N + P
        assert_eq!(
            one(|c| {
                c.ldm = 1;
                c.ldm_regs = 5;
                c.ldm_pc = 1;
                c.br_taken = 1
            }),
            (8, 7)
        );
        assert_eq!(
            one(|c| {
                c.vldr = 2;
                c.vldr_regs = 3
            }),
            (5, 5)
        );
        assert_eq!(one(|c| c.vmov = 1), (1, 1));
        assert_eq!(one(|c| c.vmov2 = 1), (2, 2));
        assert_eq!(one(|c| c.fdiv = 1), (14, 14));
        assert_eq!(one(|c| c.fmac = 1), (3, 3));
        // taken branch 1 + P, untaken 1
        assert_eq!(
            one(|c| {
                c.br = 1;
                c.br_taken = 1
            }),
            (3, 2)
        );
        assert_eq!(
            one(|c| {
                c.br = 1;
                c.br_untaken = 1
            }),
            (1, 1)
        );
        // LDR pc: 2 + P; TBB: 2 + P
        assert_eq!(
            one(|c| {
                c.ldr_pc = 1;
                c.br_taken = 1
            }),
            (4, 3)
        );
        assert_eq!(
            one(|c| {
                c.tbb = 1;
                c.br_taken = 1
            }),
            (4, 3)
        );
        let slow = estimate_cycles_with(
            &ClassCounts {
                br: 1,
                br_taken: 1,
                ..Default::default()
            },
            &TimingRules::SLOW,
        );
        assert_eq!(slow, 4);
    }

    #[test]
    fn address_rules() {
        // (TRM, FAST, SLOW, V1)
        let all = |f: fn(&mut ClassCounts)| {
            let mut c = ClassCounts::default();
            f(&mut c);
            [
                TimingRules::TRM,
                TimingRules::FAST,
                TimingRules::SLOW,
                TimingRules::V1,
            ]
            .map(|r| estimate_cycles_with(&c, &r))
        };
        // LDR r0,[r1]; LDR r2,[r0]: the second does not pipeline (2 + 2); v1 pipelined it
        let dep = all(|c| {
            c.ldr = 2;
            c.ldr_pipe = 1;
            c.ldr_dep = 1
        });
        assert_eq!(dep, [4, 4, 4, 3]);
        // ADD r0, r0, #4; LDR r1, [r0]: 1 + 2 + 1 stall
        let agu = all(|c| {
            c.alu = 1;
            c.ldr = 1;
            c.agu = 1
        });
        assert_eq!(agu, [4, 4, 4, 3]);
        // the stall applies to every load or store, LDM included: 1 + (1 + 4) + 1
        let ldm = all(|c| {
            c.alu = 1;
            c.ldm = 1;
            c.ldm_regs = 4;
            c.agu = 1
        });
        assert_eq!(ldm, [7, 7, 7, 6]);
        // STR r0, [r1, r2] not after a load: 2
        assert_eq!(
            all(|c| {
                c.str = 1;
                c.str_reg = 1
            }),
            [2, 2, 2, 1]
        );
        // LDR r0, =imm: 2 + the literal cycle (TRM and SLOW 1, FAST 0, v1 0)
        assert_eq!(
            all(|c| {
                c.ldr = 1;
                c.ldr_lit = 1
            }),
            [3, 2, 3, 2]
        );
        // MOVS; IT; ADDEQ: IT folds onto the 16-bit MOVS only in FAST
        assert_eq!(
            all(|c| {
                c.alu = 2;
                c.it = 1;
                c.it_fold = 1
            }),
            [3, 2, 3, 3]
        );
    }

    #[test]
    fn terms_sum_and_arithmetic() {
        let c = sample();
        let t = cycle_terms(&c, &TimingRules::TRM);
        assert_eq!(t.iter().map(|x| x.1).sum::<u64>(), estimate_cycles(&c));
        // 11 alu/it + (10 - 2) ldr + 3 str + (1 + 4) ldm + 3 br + 2 x 3 refill
        assert_eq!(estimate_cycles(&c), 11 + 8 + 3 + 5 + 3 + 6);
        let d = c.add(&c).sub(&c);
        assert_eq!(d, c);
        let huge = ClassCounts {
            div: u64::MAX,
            ..Default::default()
        };
        assert_eq!(estimate_cycles(&huge), u64::MAX);
    }
}
