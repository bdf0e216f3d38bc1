//! Lab: runs `algebra::slp::optimise` on matrices from a dump file (one matrix a line:
//! name, columns, rows as hex masks; written by `search/examples/slp_totals --dump FILE`)
//! and prints per-matrix counts and CPU time.
//!
//! ```text
//! cargo run --release -p algebra --example slp_lab -- FILE [restarts] [threads]
//! ```

use algebra::slp::{optimise_tuned, SlpOptions, Tuning};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: slp_lab FILE [restarts] [threads]");
        std::process::exit(2);
    };
    let restarts = args.get(2).and_then(|s| s.parse().ok());
    let threads = args.get(3).and_then(|s| s.parse().ok());
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut opts = SlpOptions {
        threads,
        ..SlpOptions::default()
    };
    if let Some(r) = restarts {
        opts.restarts = r;
    }
    // Search constants from the environment (SLP_CHAINS, SLP_STEPS, SLP_LNS_REASSOC,
    // SLP_STARTS, SLP_LNS_RESYNTH, SLP_WALKS, SLP_WALK_STEPS); unset ones keep the defaults.
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<usize>().ok());
    let mut tune = Tuning::default();
    if let Some(v) = env("SLP_CHAINS") {
        tune.lns_chains = v as u32;
    }
    if let Some(v) = env("SLP_STEPS") {
        tune.lns_steps_per_restart = v as u32;
    }
    if let Some(v) = env("SLP_LNS_REASSOC") {
        tune.lns_reassoc_steps = v;
    }
    if let Some(v) = env("SLP_STARTS") {
        tune.lns_starts = v as u32;
    }
    if let Some(v) = env("SLP_LNS_RESYNTH") {
        tune.lns_resynth = v != 0;
    }
    if let Some(v) = env("SLP_PREFIX_LO") {
        tune.lns_prefix.0 = v;
    }
    if let Some(v) = env("SLP_PREFIX_HI") {
        tune.lns_prefix.1 = v;
    }
    if let Some(v) = env("SLP_WINDOW_SHARE") {
        tune.lns_window_share = v;
    }
    if let Some(v) = env("SLP_WINDOW_LO") {
        tune.lns_window.0 = v;
    }
    if let Some(v) = env("SLP_WINDOW_HI") {
        tune.lns_window.1 = v;
    }
    if let Some(v) = env("SLP_UPHILL") {
        tune.lns_uphill = v;
    }
    if let Some(v) = env("SLP_NONORM") {
        tune.lns_nonorm_share = v;
    }
    if let Some(v) = env("SLP_SHUFFLE") {
        tune.lns_shuffle_share = v;
    }
    if let Some(v) = env("SLP_WALKS") {
        tune.reassoc_walks = v as u32;
    }
    if let Some(v) = env("SLP_WALK_STEPS") {
        tune.reassoc_steps = v;
    }
    eprintln!("{tune:?}");
    let t0 = Instant::now();
    let mut total = 0;
    for line in text.lines() {
        let mut it = line.split_whitespace();
        let (Some(name), Some(cols)) = (it.next(), it.next()) else {
            continue;
        };
        let cols: usize = cols.parse().unwrap_or(0);
        let rows: Vec<u64> = it.filter_map(|h| u64::from_str_radix(h, 16).ok()).collect();
        let t = Instant::now();
        match optimise_tuned(&rows, cols, &opts, &tune) {
            Ok(r) => {
                println!(
                    "{name:<14} paar {:>4} slp {:>4} {:<22} {:>7} ms",
                    r.paar_xors,
                    r.xors,
                    r.method,
                    t.elapsed().as_millis()
                );
                if name != "encode_trunc" {
                    total += r.xors;
                }
            }
            Err(e) => println!("{name}: {e}"),
        }
    }
    println!(
        "total {total} (without encode_trunc), {:.2} s",
        t0.elapsed().as_secs_f64()
    );
}
