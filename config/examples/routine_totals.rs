//! Per-routine static instruction counts of the Thumb-2 routines of one FAFFT transform:
//! multiplication by γ_1 … γ_l, Encode and Decode (full length).
//!
//! ```sh
//! cargo run --release -p fafft-config --example routine_totals -- \
//!     [--beta 0x00103674] [--chain artifact] [--m 32] [--l 10] \
//!     [--slp best|bp|paar] [--slp-restarts N] [--slp-seed S[,S...]] [--restarts N] [--polish N] [--seed S] [--asm DIR]
//!     [--slp-cache FILE] [--pool N]
//! ```
//!
//! The input programs come from `algebra::slp::optimise` (method and restarts as given). With
//! `--slp-cache FILE` they are read from FILE if it exists (written by an earlier run with the
//! same configuration and SLP options; a development aid), else computed and written there.
//! With `--pool N` each routine is the best of its program and N re-associations of it
//! (`fwgen::thumb2::pool`, all at the same schedule budget), chosen by total instructions.
//! Several `--slp-seed` values put every seed's program (and its re-associations) in the pool;
//! `--slp-cache` must then contain `{seed}` (one file per seed).
//! Every routine printed has been run by the host simulator on all unit vectors against its
//! matrix. The last column is the estimated Cortex-M4 cycles of one call (`fwgen::thumb2::insn::cycles`,
//! the TRM rules of docs/m4-timing.md). The emission time of the routines (the backend alone) is
//! printed on the last line.

use algebra::slp::{optimise, Method, Slp, SlpOptions};
use anyhow::{bail, Context, Result};
use fwgen::thumb2::{pool, EmitOptions, Stats};

/// Seed of the `--pool` re-association walks.
const POOL_SEED: u64 = 0x706f_6f6c;
use fafft_config::transform::{mul_matrix, Chain, TransformPrograms};
use fafft_config::xorprog::rows_of;

/// The command line (module docs).
struct Args {
    beta: u32,
    chain: String,
    m: u32,
    l: u32,
    method: Method,
    slp_restarts: u32,
    slp_seeds: Vec<u64>,
    opts: EmitOptions,
    asm_dir: Option<std::path::PathBuf>,
    cache: Option<std::path::PathBuf>,
    pool_size: usize,
}

impl Args {
    fn parse() -> Result<Args> {
        let mut a = Args {
            beta: 0x0010_3674u32,
            chain: "artifact".to_string(),
            m: 32,
            l: 10,
            method: Method::Best,
            slp_restarts: algebra::slp::DEFAULT_RESTARTS,
            slp_seeds: vec![0u64],
            opts: EmitOptions::default(),
            asm_dir: None,
            cache: None,
            pool_size: 0,
        };
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut i = 0;
        while i < args.len() {
            let v = args
                .get(i + 1)
                .with_context(|| format!("{} needs a value", args[i]))?;
            match args[i].as_str() {
                "--beta" => {
                    a.beta = u32::from_str_radix(v.trim_start_matches("0x"), 16)
                        .with_context(|| format!("bad --beta {v}"))?
                }
                "--chain" => a.chain = v.clone(),
                "--m" => a.m = v.parse().context("bad --m")?,
                "--l" => a.l = v.parse().context("bad --l")?,
                "--slp" => a.method = Method::parse(v).with_context(|| format!("bad --slp {v}"))?,
                "--slp-restarts" => a.slp_restarts = v.parse().context("bad --slp-restarts")?,
                "--slp-seed" => {
                    a.slp_seeds = v
                        .split(',')
                        .map(|t| t.parse::<u64>())
                        .collect::<Result<_, _>>()
                        .with_context(|| format!("bad --slp-seed {v}"))?
                }
                "--restarts" => a.opts.budget.restarts = v.parse().context("bad --restarts")?,
                "--polish" => a.opts.budget.polish = v.parse().context("bad --polish")?,
                "--seed" => a.opts.budget.seed = v.parse().context("bad --seed")?,
                "--asm" => a.asm_dir = Some(v.into()),
                "--slp-cache" => a.cache = Some(v.into()),
                "--pool" => a.pool_size = v.parse().context("bad --pool")?,
                o => bail!("unknown option {o}"),
            }
            i += 2;
        }
        Ok(a)
    }
}

/// One line of the table: name, XORs, the static counts, cycles.
fn print_row(name: &str, xors: usize, s: &Stats, cycles: u64) {
    println!(
        "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6}",
        name, xors, s.eor, s.vmov, s.load, s.store, s.push_pop, s.other, s.total, cycles
    );
}

/// programs[s][i]: the program of matrix i for seed s (from the cache file when it exists).
fn programs_of(a: &Args, mats: &[(String, Vec<u64>)], n: usize) -> Result<Vec<Vec<Slp>>> {
    let mut programs: Vec<Vec<Slp>> = Vec::new();
    for &seed in &a.slp_seeds {
        let sopts = SlpOptions {
            seed,
            restarts: a.slp_restarts,
            method: a.method,
            threads: None,
        };
        let file = a.cache.as_ref().map(|f| {
            std::path::PathBuf::from(f.to_string_lossy().replace("{seed}", &seed.to_string()))
        });
        let v = match &file {
            Some(f) if f.exists() => read_cache(f, mats.len())?,
            _ => {
                let mut v = Vec::new();
                for (_, rows) in mats {
                    v.push(optimise(rows, n, &sopts)?.slp);
                }
                if let Some(f) = &file {
                    write_cache(f, &v)?;
                }
                v
            }
        };
        programs.push(v);
    }
    Ok(programs)
}

fn main() -> Result<()> {
    let a = Args::parse()?;
    let (m, l, beta, chain) = (a.m, a.l, a.beta, &a.chain);
    let gl = Chain::parse(chain)?.gamma_top(m, l, beta)?;
    let tp = TransformPrograms::new(m, l, beta, gl)?;
    let n = m as usize;
    let mut mats = Vec::new();
    for (j, &g) in tp.gammas.iter().enumerate().skip(1) {
        mats.push((format!("gamma_{j}"), rows_of(&mul_matrix(m, g), n, n)));
    }
    mats.push(("encode".into(), rows_of(&tp.encode_matrix(), n, n)));
    mats.push(("decode".into(), rows_of(&tp.decode_matrix(), n, n)));
    if a.slp_seeds.is_empty() {
        bail!("--slp-seed needs at least one seed");
    }
    if a.slp_seeds.len() > 1
        && a.cache
            .as_ref()
            .is_some_and(|f| !f.to_string_lossy().contains("{seed}"))
    {
        bail!("with several --slp-seed values, --slp-cache must contain {{seed}}");
    }
    let (opts, pool_size) = (&a.opts, a.pool_size);
    println!(
        "beta {beta:#010x} chain {chain} m {m} l {l}; SLPs: {} ({} restarts, seeds {:?}); schedule: {} restarts, {} moves, seed {}; pool {pool_size}",
        a.method.name(),
        a.slp_restarts,
        a.slp_seeds,
        opts.budget.restarts,
        opts.budget.polish,
        opts.budget.seed
    );
    println!(
        "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6}",
        "routine", "xors", "eor", "vmov", "load", "store", "p/p", "other", "total", "cycles"
    );
    let programs = programs_of(&a, &mats, n)?;
    let mut sum = Stats::default();
    let mut xors = 0;
    let mut cycles = 0;
    let t0 = std::time::Instant::now();
    // each routine: the best of every seed's program and its re-associations, the routines on
    // all cores (the result does not depend on the thread count)
    let picks = par_routines(&mats, &programs, pool_size, opts)?;
    for ((name, rows), (slp, r)) in mats.iter().zip(&picks) {
        check_in_simulator(r, rows, n)?;
        let s = r.stats;
        let c = fwgen::thumb2::insn::cycles(&r.insns);
        print_row(name, slp.xor_count(), &s, c);
        if let Some(d) = &a.asm_dir {
            std::fs::create_dir_all(d)?;
            std::fs::write(d.join(format!("fw_{name}.S")), &r.asm)?;
        }
        xors += slp.xor_count();
        cycles += c;
        sum = sum.add(&s);
    }
    print_row("total", xors, &sum, cycles);
    println!("emission time {:.2} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// One program a line: `n_in;a,b a,b ...;o o - o` (`-` a zero output).
fn write_cache(f: &std::path::Path, slps: &[Slp]) -> Result<()> {
    let mut s = String::new();
    for p in slps {
        let ops: Vec<String> = p.ops.iter().map(|(a, b)| format!("{a},{b}")).collect();
        let outs: Vec<String> = p
            .outputs
            .iter()
            .map(|o| o.map_or("-".to_string(), |v| v.to_string()))
            .collect();
        s.push_str(&format!(
            "{};{};{}\n",
            p.n_in,
            ops.join(" "),
            outs.join(" ")
        ));
    }
    std::fs::write(f, s).with_context(|| format!("writing {}", f.display()))
}

fn read_cache(f: &std::path::Path, want: usize) -> Result<Vec<Slp>> {
    let text = std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
    let mut v = Vec::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split(';').collect();
        let [n_in, ops, outs] = parts[..] else {
            bail!("{}: bad line", f.display());
        };
        let mut o = Vec::new();
        for t in ops.split_whitespace() {
            let (a, b) = t.split_once(',').context("bad op")?;
            o.push((a.parse()?, b.parse()?));
        }
        let mut out = Vec::new();
        for t in outs.split_whitespace() {
            out.push(if t == "-" { None } else { Some(t.parse()?) });
        }
        v.push(Slp {
            n_in: n_in.parse()?,
            ops: o,
            outputs: out,
        });
    }
    if v.len() != want {
        bail!("{}: {} programs, expected {want}", f.display(), v.len());
    }
    Ok(v)
}

/// For every matrix, the candidates of all seeds' programs (deduplicated) and the pick of
/// `pool::emit_best`, computed on all cores in matrix order.
fn par_routines(
    mats: &[(String, Vec<u64>)],
    programs: &[Vec<Slp>],
    pool_size: usize,
    opts: &EmitOptions,
) -> Result<Vec<(Slp, fwgen::thumb2::Routine)>> {
    let one = |i: usize| -> Result<(Slp, fwgen::thumb2::Routine)> {
        let (name, rows) = &mats[i];
        let mut candidates: Vec<Slp> = Vec::new();
        for seed_programs in programs {
            let slp = &seed_programs[i];
            slp.verify_masks(rows)?;
            for q in pool::variants(slp, pool_size, POOL_SEED) {
                if !candidates.contains(&q) {
                    candidates.push(q);
                }
            }
        }
        let (k, r) = pool::emit_best(&format!("fw_{name}"), &candidates, opts)?;
        Ok((candidates[k].clone(), r))
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    algebra::slp::driver::par_map(mats.len(), threads, one)
        .into_iter()
        .collect()
}

/// The routine, run by the host simulator (`fwgen::thumb2::sim`) on every unit vector,
/// computes the matrix `rows` (bit q of `rows[i]`: entry (i, q)).
fn check_in_simulator(r: &fwgen::thumb2::Routine, rows: &[u64], n_in: usize) -> Result<()> {
    for q in 0..n_in {
        let input: Vec<u32> = (0..n_in)
            .map(|p| if p == q { u32::MAX } else { 0 })
            .collect();
        let out = fwgen::thumb2::sim::run(&r.asm, &r.name, &input, rows.len())
            .map_err(|e| anyhow::anyhow!("{}: simulator: {e}", r.name))?;
        for (i, (&w, &row)) in out.iter().zip(rows).enumerate() {
            let want = if (row >> q) & 1 == 1 { u32::MAX } else { 0 };
            if w != want {
                bail!(
                    "{}: output {i} on unit vector {q} is {w:#x}, the matrix gives {want:#x}",
                    r.name
                );
            }
        }
    }
    Ok(())
}
