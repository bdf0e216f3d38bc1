//! Timing of the joint search's fast Paar count against algebra's Paar (one γ tree).
use std::time::Instant;
fn main() {
    let beta = 0x0028_b51fu32;
    let cb = fafft_config::transform::coords(beta);
    let rows: Vec<Vec<u64>> = (0..1024u64)
        .map(|o| {
            let g = fafft_config::transform::element((cb << 10) ^ o);
            fafft_config::xorprog::rows_of(&fafft_config::transform::mul_matrix(32, g), 32, 32)
        })
        .collect();
    let t = Instant::now();
    let s: usize = rows
        .iter()
        .map(|r| algebra::slp::paar::paar_count(r, 32))
        .sum();
    println!("fast: {s} in {:?} per matrix", t.elapsed() / 1024);
    let t = Instant::now();
    let s2: usize = rows
        .iter()
        .take(64)
        .map(|r| algebra::slp::paar::paar(r, 32, None).xor_count())
        .sum();
    println!("algebra: {s2} (64) in {:?} per matrix", t.elapsed() / 64);
    let t = Instant::now();
    let ed = fafft_config::transform::TransformPrograms::screening(32, 0, beta, beta);
    println!("enc/dec screening: {:?} ok={}", t.elapsed(), ed.is_ok());
}
