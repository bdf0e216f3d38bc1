//! Per-matrix XOR counts of one FAFFT configuration: Paar (the current export) beside the SLP
//! optimiser (docs/slp.md), for γ_1 … γ_l, Encode and Decode (and the truncated Encode).
//!
//! ```text
//! cargo run --release -p search --example slp_totals -- [--m 32] [--l 10] [--beta 0x00103674]
//!     [--chain artifact] [--restarts N] [--seed S] [--method best|bp|paar]
//! ```

use algebra::slp::{optimise, Method, SlpOptions, DEFAULT_RESTARTS};
use anyhow::{bail, Context, Result};
use fafft_config::transform::{mul_matrix, Chain, TransformPrograms};
use fafft_config::xorprog::rows_of;
use std::time::Instant;

fn main() -> Result<()> {
    let mut m = 32u32;
    let mut l = 10u32;
    let mut beta = 0x0010_3674u32;
    let mut chain = "artifact".to_string();
    let mut dump: Option<String> = None;
    let mut opts = SlpOptions {
        restarts: DEFAULT_RESTARTS,
        ..SlpOptions::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.next().with_context(|| format!("{a} needs a value"))?;
        match a.as_str() {
            "--m" => m = v.parse()?,
            "--l" => l = v.parse()?,
            "--beta" => beta = u32::from_str_radix(v.trim_start_matches("0x"), 16)?,
            "--chain" => chain = v.clone(),
            "--restarts" => opts.restarts = v.parse()?,
            "--seed" => opts.seed = v.parse()?,
            "--dump" => dump = Some(v.clone()),
            "--method" => {
                opts.method = Method::parse(v).with_context(|| format!("unknown method {v}"))?
            }
            _ => bail!("unknown option {a}"),
        }
    }
    let g = Chain::parse(&chain)?.gamma_top(m, l, beta)?;
    let tp = TransformPrograms::new(m, l, beta, g)?;
    let n = m as usize;
    let mut mats: Vec<(String, Vec<u64>, usize)> = Vec::new();
    for (j, &gj) in tp.gammas[1..].iter().enumerate() {
        mats.push((
            format!("gamma_{}", j + 1),
            rows_of(&mul_matrix(m, gj), n, n),
            n,
        ));
    }
    mats.push(("encode".into(), rows_of(&tp.encode_matrix(), n, n), n));
    mats.push(("decode".into(), rows_of(&tp.decode_matrix(), n, n), n));
    let extra = (
        "encode_trunc".to_string(),
        rows_of(&tp.encode_matrix(), n, n / 2),
        n / 2,
    );
    if let Some(path) = &dump {
        // One matrix a line: name, columns, then the rows as hex masks.
        let mut text = String::new();
        for (name, rows, cols) in mats.iter().chain(std::iter::once(&extra)) {
            let hex: Vec<String> = rows.iter().map(|r| format!("{r:x}")).collect();
            text.push_str(&format!("{name} {cols} {}\n", hex.join(" ")));
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {path}"))?;
    }
    println!(
        "m = {m}, l = {l}, beta = {beta:#010x}, chain = {chain}, method = {}, restarts = {}, seed = {}",
        opts.method.name(),
        opts.restarts,
        opts.seed
    );
    println!(
        "{:<14} {:>6} {:>6} {:>6}  {:<12} {:>8}",
        "matrix", "naive", "paar", "slp", "winner", "ms"
    );
    let t0 = Instant::now();
    let (mut tn, mut tp_, mut ts) = (0usize, 0usize, 0usize);
    for (k, (name, rows, cols)) in mats.iter().chain(std::iter::once(&extra)).enumerate() {
        let t = Instant::now();
        let r = optimise(rows, *cols, &opts)?;
        let naive: usize = rows
            .iter()
            .map(|r| (r.count_ones() as usize).saturating_sub(1))
            .sum();
        println!(
            "{name:<14} {naive:>6} {:>6} {:>6}  {:<12} {:>8}",
            r.paar_xors,
            r.xors,
            r.method,
            t.elapsed().as_millis()
        );
        if k < mats.len() {
            tn += naive;
            tp_ += r.paar_xors;
            ts += r.xors;
        }
    }
    println!(
        "{:<14} {tn:>6} {tp_:>6} {ts:>6}  (gamma_1..gamma_{l}, encode, decode; encode_trunc not in the total)",
        "total"
    );
    println!("elapsed {:.2} s", t0.elapsed().as_secs_f64());
    Ok(())
}
