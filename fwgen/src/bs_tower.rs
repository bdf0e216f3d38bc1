//! # The bitsliced tower-field header `bs_tower_gen.h` (beta-independent)
//!
//! Bitsliced form: word `k` holds bit `k` of 32 field elements. The fields are the tower
//! F_2 < F_4 < F_16 < F_256 < F_2^16 < F_2^32, F_2^2h = F_2^h[x]/(x^2 + x + c_h), multiplied
//! by Karatsuba: with a = a0 + a1 x, b = b0 + b1 x,
//! a b = (a0 b0 + c_h a1 b1) + ((a0 + a1)(b0 + b1) + a0 b0) x.
//! Emitted routines (all `static inline`, each with a Thumb-2 twin):
//! * `bs_mul32(out, a, b)`: out = a b in F_2^32;
//! * `bs_leaves8/16(lv, s)`: the Karatsuba-tree combinations of s used at the AND gates
//!   ("leaves"), so that a product with a fixed operand s costs only the y side;
//! * `bs_mulacc8/16(acc, y, lv)`: acc ^= s y, s given by its leaves;
//! * `bs_mulacc8x4(acc, y, lv)`, `bs_mulacc16x2(acc, y, lv)`: the same on 32 words (four resp.
//!   two blocks, one s): one call, the Thumb-2 body of `bs_mulacc8/16` once per block with
//!   `acc` and `y` advanced in between (one PUSH/POP instead of one per block), the leaves
//!   (at most 32) in FPU registers;
//! * `bs_mulacc_s0_K(acc, y)`, K = 1..63: acc ^= s0[K] y for the uniform F_256 constant
//!   s0[K] = sum_t K_t v_{t+1}, a constant matrix per byte, its XORs shared by Paar's CSE.

mod sched;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::FwgenError;
use sched::{emit, Op, Output, Routine};

/// c_h of the tower step F_2^2h = F_2^h[x]/(x^2 + x + c_h).
fn c_h(h: usize) -> u64 {
    match h {
        1 => 0x1,
        2 => 0x2,
        4 => 0x8,
        8 => 0x80,
        _ => 0x8000,
    }
}

/// The subspace basis words v_1..v_6 whose sums are the s0 constants (F_256 elements).
const V: [u64; 7] = [0x01, 0x02, 0x05, 0x09, 0x13, 0x2c, 0x57];

/// a b in the tower field F_2^k (k a power of two, at most 32).
fn tmul(a: u64, b: u64, k: usize) -> u64 {
    if k == 1 {
        return a & b;
    }
    let h = k / 2;
    let m = (1u64 << h) - 1;
    let (a0, a1, b0, b1) = (a & m, a >> h, b & m, b >> h);
    let (p00, p11, pmx) = (tmul(a0, b0, h), tmul(a1, b1, h), tmul(a0 ^ a1, b0 ^ b1, h));
    (p00 ^ tmul(p11, c_h(h), h)) | ((pmx ^ p00) << h)
}

/// A straight-line program under construction; equal operations are shared, XOR with the
/// zero word `"0"` is free.
#[derive(Default)]
struct Prog {
    ops: Vec<Op>,
    cache: HashMap<(char, String, String), String>,
    nxor: usize,
    nand: usize,
}

impl Prog {
    fn op(&mut self, o: char, a: &str, b: &str) -> String {
        if o == '^' {
            if a == "0" {
                return b.to_string();
            }
            if b == "0" {
                return a.to_string();
            }
        }
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let key = (o, lo.to_string(), hi.to_string());
        if let Some(v) = self.cache.get(&key) {
            return v.clone();
        }
        let v = format!("t{}", self.ops.len());
        self.ops.push(Op {
            d: v.clone(),
            o,
            a: a.to_string(),
            b: b.to_string(),
        });
        self.cache.insert(key, v.clone());
        if o == '^' {
            self.nxor += 1;
        } else {
            self.nand += 1;
        }
        v
    }

    fn xorv(&mut self, a: &[String], b: &[String]) -> Vec<String> {
        a.iter().zip(b).map(|(x, y)| self.op('^', x, y)).collect()
    }

    /// v c in F_2^k for the tower constant c.
    fn mulconst(&mut self, v: &[String], c: u64, k: usize) -> Vec<String> {
        let mut out = vec!["0".to_string(); k];
        for (j, vj) in v.iter().enumerate().take(k) {
            let col = tmul(c, 1 << j, k);
            for (i, o) in out.iter_mut().enumerate() {
                if (col >> i) & 1 == 1 {
                    *o = self.op('^', o, vj);
                }
            }
        }
        out
    }

    /// The Karatsuba recombination: (p00 + c_h p11) + (pmx + p00) x.
    fn combine(&mut self, p00: &[String], p11: &[String], pmx: &[String], h: usize) -> Vec<String> {
        let c = self.mulconst(p11, c_h(h), h);
        let lo = self.xorv(p00, &c);
        let hi = self.xorv(pmx, p00);
        lo.into_iter().chain(hi).collect()
    }

    /// a b in F_2^k.
    fn mul(&mut self, a: &[String], b: &[String], k: usize) -> Vec<String> {
        if k == 1 {
            return vec![self.op('&', &a[0], &b[0])];
        }
        let h = k / 2;
        let p00 = self.mul(&a[..h], &b[..h], h);
        let p11 = self.mul(&a[h..], &b[h..], h);
        let am = self.xorv(&a[..h], &a[h..]);
        let bm = self.xorv(&b[..h], &b[h..]);
        let pmx = self.mul(&am, &bm, h);
        self.combine(&p00, &p11, &pmx, h)
    }

    /// The leaves of operand b (Karatsuba-tree combinations at the AND gates), in the order
    /// [`Prog::mul_leaves`] consumes them.
    fn leaves(&mut self, b: &[String], k: usize, out: &mut Vec<String>) {
        if k == 1 {
            out.push(b[0].clone());
            return;
        }
        let h = k / 2;
        self.leaves(&b[..h], h, out);
        self.leaves(&b[h..], h, out);
        let bm = self.xorv(&b[..h], &b[h..]);
        self.leaves(&bm, h, out);
    }

    /// a s in F_2^k with s given by its leaves (`next` walks them).
    fn mul_leaves(
        &mut self,
        a: &[String],
        lv: &mut std::slice::Iter<'_, String>,
        k: usize,
    ) -> Vec<String> {
        if k == 1 {
            let l = lv.next().map_or("0", String::as_str);
            return vec![self.op('&', &a[0], l)];
        }
        let h = k / 2;
        let p00 = self.mul_leaves(&a[..h], lv, h);
        let p11 = self.mul_leaves(&a[h..], lv, h);
        let am = self.xorv(&a[..h], &a[h..]);
        let pmx = self.mul_leaves(&am, lv, h);
        self.combine(&p00, &p11, &pmx, h)
    }
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// Inputs `NAMEi -> ARRAY[i]`.
fn loads(inputs: &mut HashMap<String, String>, name: &str, array: &str, n: usize) {
    inputs.extend((0..n).map(|i| (format!("{name}{i}"), format!("{array}[{i}]"))));
}

fn stores(array: &str, vals: &[String], acc: bool) -> Vec<Output> {
    vals.iter()
        .enumerate()
        .map(|(i, v)| Output {
            lv: format!("{array}[{i}]"),
            v: v.clone(),
            acc,
        })
        .collect()
}

fn emit_mul32() -> Result<String, FwgenError> {
    let mut p = Prog::default();
    let out = p.mul(&names("a", 32), &names("b", 32), 32);
    let mut inputs = HashMap::new();
    loads(&mut inputs, "a", "a", 32);
    loads(&mut inputs, "b", "b", 32);
    emit(&Routine {
        name: "bs_mul32",
        signature: "uint32_t *restrict out, const uint32_t *restrict a, const uint32_t *restrict b",
        inputs,
        outputs: stores("out", &out, false),
        schedule: false,
        comment: format!(
            "out = a * b in F_2^32 (bitsliced): {} AND, {} XOR",
            p.nand, p.nxor
        ),
        ops: p.ops,
    })
}

fn emit_leaves(k: usize) -> Result<(String, usize), FwgenError> {
    let mut p = Prog::default();
    let mut out = Vec::new();
    p.leaves(&names("s", k), k, &mut out);
    let mut inputs = HashMap::new();
    loads(&mut inputs, "s", "s", k);
    let txt = emit(&Routine {
        name: &format!("bs_leaves{k}"),
        signature: "uint32_t *restrict lv, const uint32_t *restrict s",
        inputs,
        outputs: stores("lv", &out, false),
        schedule: true,
        comment: format!(
            "leaves of an F_2^{k} operand: {} words, {} XOR",
            out.len(),
            p.nxor
        ),
        ops: p.ops,
    })?;
    Ok((txt, out.len()))
}

fn emit_mulacc(k: usize, nleaves: usize) -> Result<String, FwgenError> {
    let mut p = Prog::default();
    let lv = names("l", nleaves);
    let out = p.mul_leaves(&names("y", k), &mut lv.iter(), k);
    let mut inputs = HashMap::new();
    loads(&mut inputs, "y", "y", k);
    loads(&mut inputs, "l", "lv", nleaves);
    emit(&Routine {
        name: &format!("bs_mulacc{k}"),
        signature:
            "uint32_t *restrict acc, const uint32_t *restrict y, const uint32_t *restrict lv",
        inputs,
        outputs: stores("acc", &out, true),
        schedule: false,
        comment: format!(
            "acc ^= s * y in F_2^{k} (bitsliced, s by its leaves): {} AND, {} XOR",
            p.nand, p.nxor
        ),
        ops: p.ops,
    })
}

/// `bs_mulacc{k}x{n}`: `n` blocks of `k` words with one `s`, built from the text of
/// `bs_mulacc{k}` (`base`): on the board its Thumb-2 body once per block, `acc` (r0) and `y`
/// (r1) advanced by one block in between, the first 32 leaves (of `nleaves`) read once into
/// the FPU registers s0.. by VLDM and moved to core registers by VMOV (1 cycle; a single LDR
/// takes 2 unless it follows a load); on hosts a loop over `bs_mulacc{k}`.
fn emit_blocks(base: &str, k: usize, n: usize, nleaves: usize) -> Result<String, FwgenError> {
    let bad = || FwgenError::Internal(format!("bs_mulacc{k}: no Thumb-2 body to repeat"));
    let start = base.find("    __asm__ volatile(\n").ok_or_else(bad)?;
    let insns: Vec<&str> = base[start..]
        .lines()
        .skip(1)
        .map_while(|l| {
            let t = l.trim().strip_prefix('"')?;
            t.strip_suffix("\\n\\t\"")
                .or_else(|| t.strip_suffix("\\n\\t\");"))
        })
        .collect();
    let (Some(&"push {r4-r11, lr}"), Some(&"pop {r4-r11, pc}")) = (insns.first(), insns.last())
    else {
        return Err(bad());
    };
    let mut lo = 1;
    let mut hi = insns.len() - 1;
    if insns[lo].starts_with("sub sp, sp, #") {
        lo += 1;
        hi -= 1;
    }
    // the body addresses acc and y only as [r0, #o] / [r1, #o] and never writes r0..r2
    if insns[lo..hi].iter().any(|i| {
        let dst = i.split_whitespace().nth(1).unwrap_or("");
        matches!(dst, "r0," | "r1," | "r2,") && !i.starts_with("str ")
    }) {
        return Err(FwgenError::Internal(format!(
            "bs_mulacc{k}: body writes a pointer register"
        )));
    }
    // the first `ns` leaves are loaded once into s0..s{ns-1} (VLDM) and read by VMOV in every
    // block; s16.. are callee-saved (AAPCS-VFP), so VPUSH/VPOP keep them unless the including
    // file defines FAFFT_FP_SAVED
    let ns = nleaves.min(32);
    let leaf = |i: &str| -> String {
        let parsed = i
            .strip_prefix("ldr ")
            .and_then(|r| r.split_once(", [r2, #"))
            .and_then(|(rd, o)| Some((rd, o.strip_suffix(']')?.parse::<usize>().ok()?)));
        match parsed {
            Some((rd, o)) if o % 4 == 0 && o / 4 < ns => format!("vmov {rd}, s{}", o / 4),
            _ => i.to_string(),
        }
    };
    let mut asm: Vec<String> = vec![insns[0].to_string()];
    if ns > 16 {
        asm.push(format!("vpush {{s16-s{}}}", ns - 1));
    }
    asm.extend(insns[1..lo].iter().map(|x| x.to_string()));
    asm.push(format!("vldm r2, {{s0-s{}}}", ns - 1));
    for b in 0..n {
        if b > 0 {
            asm.push(format!("add r0, r0, #{}", 4 * k));
            asm.push(format!("add r1, r1, #{}", 4 * k));
        }
        asm.extend(insns[lo..hi].iter().map(|x| leaf(x)));
    }
    let pop = insns.len() - 1;
    asm.extend(insns[hi..pop].iter().map(|x| x.to_string()));
    if ns > 16 {
        asm.push(format!("vpop {{s16-s{}}}", ns - 1));
    }
    asm.push(insns[pop].to_string());
    // the FPU register save is left out where the caller has saved s16-s31 already
    // (FAFFT_FP_SAVED: the board's transform, docs/board.md section 17.3)
    let body: Vec<String> = asm
        .iter()
        .map(|x| {
            let line = format!("        \"{x}\\n\\t\"");
            if x.starts_with("vpush") || x.starts_with("vpop") {
                format!("#ifndef FAFFT_FP_SAVED\n{line}\n#endif")
            } else {
                line
            }
        })
        .collect();
    let sig = "uint32_t *acc __attribute__((unused)), const uint32_t *y __attribute__((unused)), const uint32_t *lv __attribute__((unused))";
    Ok([
        "#if defined(__arm__) && !defined(HOST_BUILD)".to_string(),
        format!(
            "/* acc[0..{w}) ^= s * y[0..{w}) in F_2^{k}, {n} blocks of bs_mulacc{k} in one call, leaves 0..{} in s0..: Thumb-2, {} instructions */",
            ns - 1,
            asm.len(),
            w = n * k
        ),
        format!("__attribute__((naked, noinline, unused)) static void bs_mulacc{k}x{n}({sig})"),
        "{".to_string(),
        "    __asm__ volatile(".to_string(),
        body.join("\n") + ");",
        "}".to_string(),
        "#else".to_string(),
        format!("static inline __attribute__((unused)) void bs_mulacc{k}x{n}(uint32_t *restrict acc, const uint32_t *restrict y, const uint32_t *restrict lv)"),
        "{".to_string(),
        format!("    for (unsigned b = 0; b < {n}; b++) bs_mulacc{k}(acc + {k} * b, y + {k} * b, lv);"),
        "}".to_string(),
        "#endif".to_string(),
    ]
    .join("\n"))
}

/// Paar's greedy CSE over `rows` (the inputs each output sums), new signals numbered from `n`:
/// (the pairs made signals, the rows left). This is the tower generator's CSE order (most
/// shared pair; ties to the smallest first, then second, index), kept so the header is stable;
/// it keeps duplicate rows and their chains, which `algebra::slp::paar` merges.
fn paar(rows: &[BTreeSet<usize>], n: usize) -> (Vec<(usize, usize)>, Vec<BTreeSet<usize>>) {
    let mut rows = rows.to_vec();
    let mut temps = Vec::new();
    let mut nxt = n;
    loop {
        let mut cnt: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for r in &rows {
            let rl: Vec<usize> = r.iter().copied().collect();
            for x in 0..rl.len() {
                for &y in &rl[x + 1..] {
                    *cnt.entry((rl[x], y)).or_insert(0) += 1;
                }
            }
        }
        let mut best: Option<((usize, usize), usize)> = None;
        for (&pair, &c) in &cnt {
            if best.is_none_or(|(_, bc)| c > bc) {
                best = Some((pair, c));
            }
        }
        let Some(((a, b), c)) = best else { break };
        if c < 2 {
            break;
        }
        temps.push((a, b));
        for r in rows.iter_mut().filter(|r| r.contains(&a) && r.contains(&b)) {
            r.remove(&a);
            r.remove(&b);
            r.insert(nxt);
        }
        nxt += 1;
    }
    (temps, rows)
}

fn emit_s0(k: usize) -> Result<String, FwgenError> {
    let c = (0..6)
        .filter(|t| (k >> t) & 1 == 1)
        .fold(0, |c, t| c ^ V[t + 1]);
    if k >= 64 || c >= 256 {
        return Err(FwgenError::Internal(format!(
            "s0[{k}] is not an F_256 constant"
        )));
    }
    let (mut inputs, mut ops, mut outputs) = (HashMap::new(), Vec::new(), Vec::new());
    for byte in 0..4 {
        let base = 8 * byte;
        let rows: Vec<BTreeSet<usize>> = (0..8)
            .map(|i| {
                (0..8)
                    .filter(|&j| (tmul(c, 1 << j, 8) >> i) & 1 == 1)
                    .collect()
            })
            .collect();
        let (temps, rr) = paar(&rows, 8);
        let name = |x: usize| {
            if x < 8 {
                format!("y{}", base + x)
            } else {
                format!("u{byte}_{x}")
            }
        };
        for j in 0..8 {
            inputs.insert(format!("y{}", base + j), format!("y[{}]", base + j));
        }
        for (q, &(a, b)) in temps.iter().enumerate() {
            ops.push(Op {
                d: format!("u{byte}_{}", 8 + q),
                o: '^',
                a: name(a),
                b: name(b),
            });
        }
        for (i, r) in rr.iter().enumerate() {
            let mut it = r.iter();
            let Some(&first) = it.next() else { continue };
            let mut cur = name(first);
            for (q, &x) in it.enumerate() {
                let nv = format!("w{}_{q}", base + i);
                ops.push(Op {
                    d: nv.clone(),
                    o: '^',
                    a: cur,
                    b: name(x),
                });
                cur = nv;
            }
            outputs.push(Output {
                lv: format!("acc[{}]", base + i),
                v: cur,
                acc: true,
            });
        }
    }
    emit(&Routine {
        name: &format!("bs_mulacc_s0_{k}"),
        signature: "uint32_t *restrict acc, const uint32_t *restrict y",
        inputs,
        ops,
        outputs,
        schedule: true,
        comment: format!("acc ^= s0[{k}] * y, s0[{k}] = {c:#04x} (uniform, bytewise)"),
    })
}

/// The whole header `bs_tower_gen.h`.
pub fn bs_tower_header() -> Result<String, FwgenError> {
    let mut parts: Vec<String> = [
        "/* bs_tower_gen.h: generated by gen_bs_tower.py (beta-independent). Do not edit. */",
        "#ifndef BS_TOWER_GEN_H",
        "#define BS_TOWER_GEN_H",
        "#include <stdint.h>",
        "",
    ]
    .map(String::from)
    .to_vec();
    parts.push(emit_mul32()?);
    for k in [8, 16] {
        let (txt, n) = emit_leaves(k)?;
        parts.push(format!("#define BS_LEAVES{k} {n}"));
        parts.push(txt);
        let base = emit_mulacc(k, n)?;
        let blocks = emit_blocks(&base, k, 32 / k, n)?;
        parts.push(base);
        parts.push(blocks);
    }
    for k in 1..64 {
        // cross layers need k < n'/64 (l <= 12)
        parts.push(emit_s0(k)?);
    }
    parts.push("#endif".to_string());
    Ok(parts.join("\n\n") + "\n")
}
