//! Prints the bitsliced tower-field header `bs_tower_gen.h` ([`fwgen::bs_tower`]) to stdout,
//! or writes it to the file given as the only argument (by [`fafft_config::output::write_atomic`],
//! so a failed run never leaves a half-written header).

use std::io::Write;

fn main() -> anyhow::Result<()> {
    let text = fwgen::bs_tower::bs_tower_header()?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => std::io::stdout().write_all(text.as_bytes())?,
        [path] => fafft_config::output::write_atomic(std::path::Path::new(path), text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {path}: {e}"))?,
        _ => anyhow::bail!("usage: gen-bs-tower [OUTPUT.h]"),
    }
    Ok(())
}
