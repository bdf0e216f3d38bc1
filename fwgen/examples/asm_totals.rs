//! Static counts and estimated Cortex-M4 cycles of emitted routine files (`.S`, as `search
//! export` writes them), read back with `fwgen::thumb2::read` (docs/thumb2.md, "Export effort").
//!
//! ```sh
//! cargo run --release -p fwgen --example asm_totals -- FILE.S [FILE.S ...]
//! ```
//!
//! One line per file (EOR, VMOV, loads, stores, push/pop, other, total, est. cycles by
//! `fwgen::thumb2::insn::cycles`, the generator's rules `m4-trm-r0p1-v1`, and est. cycles by
//! the board's current rules, `fwgen::m4timing::TimingRules::TRM` of
//! `fwgen::m4timing::TIMING_VERSION`) and their sum. A file that cannot be read or is not a routine
//! is an error naming it (non-zero exit).

use anyhow::{bail, Context, Result};
use fwgen::m4timing::{TimingRules, TIMING_VERSION};
use fwgen::thumb2::{
    insn::{cycles, cycles_with},
    read::read,
    Stats,
};

fn main() -> Result<()> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        bail!("usage: asm_totals FILE.S [FILE.S ...]");
    }
    // read every file first, so that an error leaves no partial table
    let mut rows = Vec::with_capacity(files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {f}"))?;
        let r = read(&text).map_err(|e| anyhow::anyhow!("{f}: not a routine: {e}"))?;
        let board = cycles_with(&r.insns, &TimingRules::TRM);
        rows.push((f, Stats::of(&r.insns), cycles(&r.insns), board));
    }
    println!("file  eor  vmov  load  store  p/p  other  total  cycles  cycles_{TIMING_VERSION}");
    let (mut sum, mut sum_cycles, mut sum_board) = (Stats::default(), 0u64, 0u64);
    for (f, s, c, b) in rows {
        println!(
            "{f}  {}  {}  {}  {}  {}  {}  {}  {c}  {b}",
            s.eor, s.vmov, s.load, s.store, s.push_pop, s.other, s.total
        );
        sum_board += b;
        sum.eor += s.eor;
        sum.vmov += s.vmov;
        sum.load += s.load;
        sum.store += s.store;
        sum.push_pop += s.push_pop;
        sum.other += s.other;
        sum.total += s.total;
        sum_cycles += c;
    }
    println!(
        "total  {}  {}  {}  {}  {}  {}  {}  {sum_cycles}  {sum_board}",
        sum.eor, sum.vmov, sum.load, sum.store, sum.push_pop, sum.other, sum.total
    );
    Ok(())
}
