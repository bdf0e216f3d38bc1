//! Instructions and estimated Cortex-M4 cycles of every region of a plugin log (the counting
//! plugin's output, docs/m4-timing.md), priced by `hqc_board::m4cycles` with the default rules.
//! For the logs that `board/m4kem/expand.sh` and `keccak.sh` keep with `PLUGIN_LOG=file`:
//!
//!     cargo run --release -p hqc-board --example region_cycles -- FILE
//!
//! Prints `timing VERSION`, then `region NAME #K instructions=I cycles=C` per region (C is `-`
//! for a region without instruction classes).

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("region_cycles: give the plugin log file as the only argument");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("region_cycles: cannot read {path}: {e}");
            return ExitCode::from(1);
        }
    };
    let log = match hqc_board::m4cycles::parse(&text) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("region_cycles: {path} is not a plugin log: {e}");
            return ExitCode::from(1);
        }
    };
    println!("timing {}", hqc_board::m4cycles::TIMING_VERSION);
    for r in &log.regions {
        let c = r
            .cycles()
            .map_or_else(|| "-".to_string(), |c| c.to_string());
        println!(
            "region {} #{} instructions={} cycles={}",
            r.name, r.index, r.instructions, c
        );
    }
    ExitCode::SUCCESS
}
