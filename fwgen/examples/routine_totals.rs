//! Per-routine static instruction counts of the Thumb-2 routines of one FAFFT transform:
//! multiplication by γ_1 … γ_l, Encode and Decode (full length).
//!
//! ```sh
//! cargo run --release -p fwgen --example routine_totals -- \
//!     [--beta 0x00103674] [--chain artifact] [--m 32] [--l 10] \
//!     [--slp best|bp|paar] [--slp-restarts N] [--restarts N] [--polish N] [--seed S] [--asm DIR]
//! ```
//!
//! The input programs come from `algebra::slp::optimise` (method and restarts as given).

use algebra::slp::{optimise, Method, SlpOptions};
use anyhow::{bail, Context, Result};
use fwgen::thumb2::{emit, EmitOptions, Stats};
use search::codegen::{mul_matrix, rows_of, Chain, TransformPrograms};

fn main() -> Result<()> {
    let mut beta = 0x0010_3674u32;
    let mut chain = "artifact".to_string();
    let (mut m, mut l) = (32u32, 10u32);
    let mut method = Method::Best;
    let mut slp_restarts = algebra::slp::DEFAULT_RESTARTS;
    let mut opts = EmitOptions::default();
    let mut asm_dir: Option<std::path::PathBuf> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args
            .get(i + 1)
            .with_context(|| format!("{} needs a value", args[i]))?;
        match args[i].as_str() {
            "--beta" => {
                beta = u32::from_str_radix(v.trim_start_matches("0x"), 16)
                    .with_context(|| format!("bad --beta {v}"))?
            }
            "--chain" => chain = v.clone(),
            "--m" => m = v.parse().context("bad --m")?,
            "--l" => l = v.parse().context("bad --l")?,
            "--slp" => method = Method::parse(v).with_context(|| format!("bad --slp {v}"))?,
            "--slp-restarts" => slp_restarts = v.parse().context("bad --slp-restarts")?,
            "--restarts" => opts.budget.restarts = v.parse().context("bad --restarts")?,
            "--polish" => opts.budget.polish = v.parse().context("bad --polish")?,
            "--seed" => opts.budget.seed = v.parse().context("bad --seed")?,
            "--asm" => asm_dir = Some(v.into()),
            o => bail!("unknown option {o}"),
        }
        i += 2;
    }
    let gl = Chain::parse(&chain)?.gamma_top(m, l, beta)?;
    let tp = TransformPrograms::new(m, l, beta, gl)?;
    let n = m as usize;
    let mut mats = Vec::new();
    for (j, &g) in tp.gammas.iter().enumerate().skip(1) {
        mats.push((format!("gamma_{j}"), rows_of(&mul_matrix(m, g), n, n)));
    }
    mats.push(("encode".into(), rows_of(&tp.encode_matrix(), n, n)));
    mats.push(("decode".into(), rows_of(&tp.decode_matrix(), n, n)));
    let sopts = SlpOptions {
        seed: 0,
        restarts: slp_restarts,
        method,
        threads: None,
    };
    println!(
        "beta {beta:#010x} chain {chain} m {m} l {l}; SLPs: {} ({} restarts); schedule: {} restarts, {} moves, seed {}",
        method.name(),
        slp_restarts,
        opts.budget.restarts,
        opts.budget.polish,
        opts.budget.seed
    );
    println!(
        "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}",
        "routine", "xors", "eor", "vmov", "load", "store", "p/p", "other", "total"
    );
    let mut sum = Stats::default();
    let mut xors = 0;
    for (name, rows) in &mats {
        let res = optimise(rows, n, &sopts)?;
        let r = emit(&format!("fw_{name}"), &res.slp, &opts)?;
        let s = r.stats;
        println!(
            "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}",
            name, res.xors, s.eor, s.vmov, s.load, s.store, s.push_pop, s.other, s.total
        );
        if let Some(d) = &asm_dir {
            std::fs::create_dir_all(d)?;
            std::fs::write(d.join(format!("fw_{name}.S")), &r.asm)?;
        }
        xors += res.xors;
        sum = sum.add(&s);
    }
    println!(
        "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}",
        "total", xors, sum.eor, sum.vmov, sum.load, sum.store, sum.push_pop, sum.other, sum.total
    );
    Ok(())
}
