//! Lab: runs `algebra::slp::optimise` on matrices from a dump file (one matrix a line:
//! name, columns, rows as hex masks; written by `search/examples/slp_totals --dump FILE`)
//! and prints per-matrix counts and CPU time.
//!
//! ```text
//! cargo run --release -p algebra --example slp_lab -- FILE [restarts] [threads]
//! ```

use algebra::slp::{optimise, SlpOptions};
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
        match optimise(&rows, cols, &opts) {
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
