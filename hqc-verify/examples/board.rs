//! `hqc-verify board` until the subcommand is wired into `src/main.rs`:
//!
//! ```text
//! cargo run --release -p hqc-verify --example board -- --params DIR/params.json \
//!     [--level 1|3|5] [--flavour v5.0.0|2026-02|all] [--count K] [--json] [--out FILE] ...
//! ```
//!
//! Exit status: 0 every check passed, 1 a check failed, 2 the command could not run.

// `src/board.rs` is compiled into this example (it refers to `crate::core` and `crate::kat`,
// which the imports below provide). Once `lib.rs` has `pub mod board;`, this is equivalent to
// `use hqc_verify::board;`.
use hqc_verify::{core, kat};
#[path = "../src/board.rs"]
#[allow(dead_code)]
mod board;

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "hqc-verify board",
    about = "The C FAFFT+CRT multiplier of an exported configuration on the emulated Cortex-M4"
)]
struct Cli {
    #[command(flatten)]
    args: board::BoardArgs,
}

fn main() -> ExitCode {
    let _ = (core::params::Level::ALL, kat::locate::ENV_VAR);
    let cli = Cli::parse();
    match board::run(&cli.args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
