//! The programs and routines of an export, read from its files and proven correct
//! (docs/params-json.md, "Verification"): the [`Artefacts`] source `verify` derives with.
//!
//! * **XOR programs** (project layout): every function of `gen_xor_programs.h` is parsed back
//!   into an [`Slp`] (the format [`crate::emit::headers`] writes: `const uint32_t tK = A ^ B;`, then
//!   `DST[i] = S;`), which must evaluate to the derived matrix on all unit vectors
//!   ([`Slp::verify_masks`]). The file itself is then re-rendered from the parsed programs with
//!   the rest of the export and compared byte for byte (through `files`), so it is exactly the
//!   canonical rendering, and `xor_counts` is compared with the parsed programs' counts.
//! * **Thumb-2 routines** (`NAME.S`, both layouts): the text is read back into its
//!   instructions ([`fwgen::thumb2::read`]), re-rendered with the canonical header for its
//!   program and the budget it names, and must equal the file byte for byte (so the
//!   `static counts` comment is the count of its instructions and its EOR count is the
//!   program's XOR count); then it is run in the simulator [`fwgen::thumb2::sim`] on all unit
//!   vectors at once (input word q = bit q) and on zero, and must give the matrix (the
//!   simulator also checks the calling convention and every memory access).
//! * The **artifact layout** has no `gen_xor_programs.h`: the programs of γ_j, Encode and
//!   Decode are recovered from their routines' data flow ([`fwgen::thumb2::read::program`])
//!   and proven as above; the truncated Encode, which has no routine there, is re-derived by
//!   the optimiser (one 32 x 16 matrix), or by Paar's method for a `--quick` export (its
//!   `xor_counts.method`). The backend drops dead XORs, so a routine may
//!   execute fewer EORs than its program has XORs; the program's count is the one its header
//!   states (at least the routine's), and the recovered program stands for it with that many
//!   dead XORs appended.
//!
//! A failure is recorded (the first one) and a cheap correct stand-in (Paar's program, an
//! empty routine) lets the derivation finish, so that `verify` still reports the first
//! differing field of params.json before the artefact (a re-stamped edit of β, say, is
//! named by its field, not by the programs that no longer fit it).

use crate::emit::export::{Layout, ARTIFACT_ASM_DIR};
use crate::model::artefacts::{Artefacts, Baseline, Optimise};
use crate::model::error::ConfigError;
use crate::model::routines::{self, AsmRoutine, Matrix, RoutineError};
use crate::model::transform::ChainError;
use crate::model::xorprog::XorProgram;
use algebra::slp::Slp;
use fwgen::thumb2::read::{self, ReadRoutine};
use fwgen::thumb2::{rebuild, routine_header, sim, Budget, Routine};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file of the XOR programs in the project layout.
pub const XOR_FILE: &str = "gen_xor_programs.h";

/// A signal of a parsed C program: input `iQ` or temporary `tK`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    In(usize),
    T(usize),
}

/// One `static inline void NAME(...)` of gen_xor_programs.h.
#[derive(Clone, Debug, Default)]
struct CFunction {
    ops: Vec<(Var, Var)>,
    outputs: Vec<Option<Var>>,
}

impl CFunction {
    fn slp(&self, n_in: usize) -> Slp {
        let sig = |v: Var| match v {
            Var::In(q) => q,
            Var::T(k) => n_in + k,
        };
        Slp {
            n_in,
            ops: self.ops.iter().map(|&(a, b)| (sig(a), sig(b))).collect(),
            outputs: self.outputs.iter().map(|o| o.map(sig)).collect(),
        }
    }
}

fn var(t: &str) -> Option<Var> {
    let t = t.trim();
    if let Some(q) = t.strip_prefix('i') {
        q.parse().ok().map(Var::In)
    } else {
        t.strip_prefix('t')?.parse().ok().map(Var::T)
    }
}

/// Parses the functions of gen_xor_programs.h: name -> program, or (name, line, reason).
fn parse_c(text: &str) -> Result<HashMap<String, CFunction>, String> {
    let mut funcs = HashMap::new();
    let mut cur: Option<(String, CFunction)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("static inline void ") {
            let name = rest.split('(').next().unwrap_or("").trim().to_string();
            cur = Some((name, CFunction::default()));
            continue;
        }
        let Some((name, f)) = cur.as_mut() else {
            continue;
        };
        let bad = |why: &str| format!("{name}, line {}: `{line}`: {why}", i + 1);
        if line == "{" || line.starts_with("const uint32_t i") {
            continue;
        }
        if line == "}" {
            if let Some((n, f)) = cur.take() {
                funcs.insert(n, f);
            }
            continue;
        }
        if let Some(def) = line.strip_prefix("const uint32_t t") {
            let (k, expr) = def
                .split_once(" = ")
                .ok_or_else(|| bad("not `tK = A ^ B;`"))?;
            let expr = expr.strip_suffix(';').ok_or_else(|| bad("no `;`"))?;
            let (a, b) = expr.split_once(" ^ ").ok_or_else(|| bad("not `A ^ B`"))?;
            if k.parse::<usize>().ok() != Some(f.ops.len()) {
                return Err(bad(&format!(
                    "temporaries must be t0, t1, ... in order (expected t{})",
                    f.ops.len()
                )));
            }
            let (a, b) = (var(a), var(b));
            match (a, b) {
                (Some(a), Some(b)) => f.ops.push((a, b)),
                _ => return Err(bad("an operand is not iQ or tK")),
            }
            continue;
        }
        if let Some((lhs, rhs)) = line.split_once("] = ") {
            let idx = lhs.split('[').nth(1).and_then(|x| x.parse::<usize>().ok());
            if idx != Some(f.outputs.len()) {
                return Err(bad(&format!(
                    "outputs must be stored in order (expected index {})",
                    f.outputs.len()
                )));
            }
            let rhs = rhs.strip_suffix(';').ok_or_else(|| bad("no `;`"))?;
            if rhs == "0" {
                f.outputs.push(None);
            } else {
                f.outputs
                    .push(Some(var(rhs).ok_or_else(|| bad("not iQ, tK or 0"))?));
            }
            continue;
        }
        return Err(bad("not a line of a generated XOR program"));
    }
    if let Some((n, _)) = cur {
        return Err(format!("{n}: the function is not closed"));
    }
    Ok(funcs)
}

/// The C function of a matrix in gen_xor_programs.h.
pub fn c_function_of(what: &str) -> String {
    match what {
        "Encode" => "encode_xor".into(),
        "truncated Encode" => "encode_trunc_xor".into(),
        "Decode" => "decode_xor".into(),
        g => format!("gft_mul_{g}"),
    }
}

/// The routine of a matrix (`None` for the truncated Encode, which has none).
fn matrix_of(what: &str) -> Option<Matrix> {
    match what {
        "Encode" => Some(Matrix::Encode),
        "Decode" => Some(Matrix::Decode),
        g => g
            .strip_prefix("gamma_")
            .and_then(|j| j.parse().ok())
            .map(Matrix::Gamma),
    }
}

fn matrix_label(m: &Matrix) -> String {
    match m {
        Matrix::Gamma(j) => format!("gamma_{j}"),
        Matrix::Encode => "Encode".into(),
        Matrix::Decode => "Decode".into(),
    }
}

/// The artefacts of one export directory (module docs).
pub struct Stored {
    dir: PathBuf,
    path: String,
    layout: Layout,
    method: String,
    xor: Mutex<Option<Result<HashMap<String, CFunction>, ConfigError>>>,
    texts: Mutex<HashMap<String, String>>,
    budget: Mutex<Option<Budget>>,
    failure: Mutex<Option<ConfigError>>,
}

impl Stored {
    /// The artefacts next to the params file `path` (display form) in `dir`, in `layout`;
    /// `method` is the file's `xor_counts.method` (provenance, rendered back as it is).
    pub fn new(dir: &Path, path: &str, layout: Layout, method: &str) -> Stored {
        Stored {
            dir: dir.to_path_buf(),
            path: path.into(),
            layout,
            method: method.into(),
            xor: Mutex::new(None),
            texts: Mutex::new(HashMap::new()),
            budget: Mutex::new(None),
            failure: Mutex::new(None),
        }
    }

    /// The first artefact that failed, if any.
    pub fn take_failure(&self) -> Option<ConfigError> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }

    fn fail(&self, e: ConfigError) {
        if let Ok(mut f) = self.failure.lock() {
            if f.is_none() {
                *f = Some(e);
            }
        }
    }

    fn artefact(&self, file: &str, matrix: &str, what: String, reason: String) -> ConfigError {
        ConfigError::Artefact {
            path: self.path.clone(),
            file: file.into(),
            matrix: matrix.into(),
            what,
            reason,
        }
    }

    fn read_text(&self, file: &str) -> Result<String, ConfigError> {
        if let Ok(t) = self.texts.lock() {
            if let Some(s) = t.get(file) {
                return Ok(s.clone());
            }
        }
        let text = std::fs::read(self.dir.join(file))
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .ok_or_else(|| ConfigError::FileMissing {
                path: self.path.clone(),
                file: file.into(),
            })?;
        if let Ok(mut t) = self.texts.lock() {
            t.insert(file.into(), text.clone());
        }
        Ok(text)
    }

    fn routine_file(&self, name: &str) -> String {
        match self.layout {
            Layout::Project => format!("{name}.S"),
            Layout::Artifact => format!("{ARTIFACT_ASM_DIR}/{name}.S"),
        }
    }

    /// The stored program of `what` (either layout), proven against `rows`.
    fn stored_program(
        &self,
        what: &str,
        rows: &[u64],
        n_in: usize,
    ) -> Result<XorProgram, ConfigError> {
        match self.layout {
            Layout::Project => {
                let funcs = {
                    let mut x = self.xor.lock().map_err(|_| {
                        self.artefact(XOR_FILE, what, "program".into(), "lock poisoned".into())
                    })?;
                    if x.is_none() {
                        *x = Some(self.read_text(XOR_FILE).and_then(|t| {
                            parse_c(&t).map_err(|r| self.artefact(XOR_FILE, "", "file".into(), r))
                        }));
                    }
                    match x.as_ref() {
                        Some(Ok(f)) => f.clone(),
                        Some(Err(e)) => return Err(clone_err(e)),
                        None => HashMap::new(),
                    }
                };
                let fname = c_function_of(what);
                let f = funcs.get(&fname).ok_or_else(|| {
                    self.artefact(
                        XOR_FILE,
                        what,
                        format!("program {fname}"),
                        "the file has no such function".into(),
                    )
                })?;
                XorProgram::stored(f.slp(n_in), rows).map_err(|e| {
                    self.artefact(
                        XOR_FILE,
                        what,
                        format!("program {fname}"),
                        format!("does not compute the matrix: {e}"),
                    )
                })
            }
            Layout::Artifact => {
                let Some(m) = matrix_of(what) else {
                    // the truncated Encode has no routine in this layout: re-derived by the
                    // source the file names (the quick export's Paar program, else the
                    // default optimiser, which every effort uses for it)
                    if self.method == Baseline.method() {
                        return Baseline
                            .program(what, rows, n_in)
                            .map_err(ConfigError::from);
                    }
                    return Optimise
                        .program(what, rows, n_in)
                        .map_err(ConfigError::from);
                };
                let name = m.name();
                let file = self.routine_file(&name);
                let text = self.read_text(&file)?;
                let what_r = format!("routine {name}");
                let rr = read::read(&text)
                    .map_err(|e| self.artefact(&file, what, what_r.clone(), e.to_string()))?;
                let mut slp = read::program(&rr.insns, n_in, rows.len()).map_err(|e| {
                    self.artefact(&file, what, what_r.clone(), format!("its data flow: {e}"))
                })?;
                // The backend drops dead XORs of a program; the header states the program's
                // count, which must be at least the routine's. The program stands for that
                // many XORs: the data flow plus that many dead ones.
                let stated = stated_xors(&rr.header).ok_or_else(|| {
                    self.artefact(
                        &file,
                        what,
                        what_r.clone(),
                        "the header states no `N XORs in the program`".into(),
                    )
                })?;
                if stated < slp.xor_count() {
                    return Err(self.artefact(
                        &file,
                        what,
                        what_r.clone(),
                        format!(
                            "the header states {stated} XORs, the routine executes {}",
                            slp.xor_count()
                        ),
                    ));
                }
                slp.ops
                    .extend(std::iter::repeat_n((0, 1), stated - slp.xor_count()));
                XorProgram::stored(slp, rows).map_err(|e| {
                    self.artefact(
                        &file,
                        what,
                        what_r,
                        format!("its program does not compute the matrix: {e}"),
                    )
                })
            }
        }
    }

    /// The stored routine of `m`, proven to compute `slp`'s matrix (module docs).
    fn stored_routine(&self, m: &Matrix, slp: &Slp) -> Result<Routine, ConfigError> {
        let name = m.name();
        let file = self.routine_file(&name);
        let label = matrix_label(m);
        let what = format!("routine {name}");
        let err = |reason: String| self.artefact(&file, &label, what.clone(), reason);
        let text = self.read_text(&file)?;
        let rr: ReadRoutine = read::read(&text).map_err(|e| err(e.to_string()))?;
        if rr.name != name {
            return Err(err(format!("the function is named {}", rr.name)));
        }
        let budget = rr.budget().ok_or_else(|| {
            err(
                "the header names no `generated by fwgen::thumb2 (seed S, R restarts, P moves)`"
                    .into(),
            )
        })?;
        let r = rebuild(&name, &routine_header(&name, slp, &budget), rr.insns);
        if r.asm != text {
            let line = r
                .asm
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(r.asm.lines().count().min(text.lines().count()));
            return Err(err(format!(
                "the file is not the canonical rendering of its instructions for a program of {} XORs (first difference at line {}: `{}`, canonical `{}`)",
                slp.xor_count(),
                line + 1,
                text.lines().nth(line).unwrap_or(""),
                r.asm.lines().nth(line).unwrap_or("")
            )));
        }
        if slp.n_in > 32 {
            return Err(err(format!("{} inputs (at most 32 are checked)", slp.n_in)));
        }
        let n_out = slp.outputs.len();
        let units: Vec<u32> = (0..slp.n_in).map(|q| 1u32 << q).collect();
        let want: Vec<u32> = slp
            .eval(&units.iter().map(|&w| u64::from(w)).collect::<Vec<_>>())
            .iter()
            .map(|&w| w as u32)
            .collect();
        let got = sim::run(&text, &name, &units, n_out)
            .map_err(|e| err(format!("the simulator refuses it: {e}")))?;
        if let Some(i) = (0..n_out).find(|&i| got[i] != want[i]) {
            return Err(err(format!(
                "does not compute the matrix: on the unit vectors output {i} is {:#010x}, the matrix row is {:#010x}",
                got[i], want[i]
            )));
        }
        let zero = sim::run(&text, &name, &vec![0u32; slp.n_in], n_out)
            .map_err(|e| err(format!("the simulator refuses it: {e}")))?;
        if let Some(i) = zero.iter().position(|&w| w != 0) {
            return Err(err(format!(
                "is not linear: on the zero input output {i} is {:#010x}",
                zero[i]
            )));
        }
        if let Ok(mut b) = self.budget.lock() {
            b.get_or_insert(budget);
        }
        Ok(r)
    }
}

/// N of the header line `NAME: ... N XORs in the program`.
fn stated_xors(header: &[String]) -> Option<usize> {
    header.iter().find_map(|l| {
        let head = l.strip_suffix(" XORs in the program")?;
        head.rsplit(' ').next()?.parse().ok()
    })
}

fn clone_err(e: &ConfigError) -> ConfigError {
    match e {
        ConfigError::FileMissing { path, file } => ConfigError::FileMissing {
            path: path.clone(),
            file: file.clone(),
        },
        ConfigError::Artefact {
            path,
            file,
            matrix,
            what,
            reason,
        } => ConfigError::Artefact {
            path: path.clone(),
            file: file.clone(),
            matrix: matrix.clone(),
            what: what.clone(),
            reason: reason.clone(),
        },
        other => ConfigError::SelfCheck(other.to_string()),
    }
}

impl Artefacts for Stored {
    fn program(&self, what: &str, rows: &[u64], n_in: usize) -> Result<XorProgram, ChainError> {
        match self.stored_program(what, rows, n_in) {
            Ok(p) => Ok(p),
            Err(e) => {
                self.fail(e);
                // a correct stand-in so that the derivation (and the field comparison) goes on
                XorProgram::paar_baseline(rows, n_in).map_err(|e| ChainError::Program {
                    what: what.into(),
                    reason: e.to_string(),
                })
            }
        }
    }

    fn routines(&self, jobs: &[(Matrix, Slp)]) -> Result<Vec<AsmRoutine>, RoutineError> {
        Ok(jobs
            .iter()
            .map(|(m, slp)| {
                let routine = self.stored_routine(m, slp).unwrap_or_else(|e| {
                    self.fail(e);
                    Routine {
                        name: m.name(),
                        asm: String::new(),
                        stats: Default::default(),
                        insns: Vec::new(),
                    }
                });
                AsmRoutine {
                    matrix: *m,
                    slp: slp.clone(),
                    routine,
                }
            })
            .collect())
    }

    fn method(&self) -> String {
        self.method.clone()
    }

    fn budget(&self) -> Budget {
        self.budget
            .lock()
            .ok()
            .and_then(|b| *b)
            .unwrap_or_else(|| routines::emit_options().budget)
    }
}
