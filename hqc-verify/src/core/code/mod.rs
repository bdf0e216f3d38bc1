//! The concatenated code C: Reed–Solomon outer code, duplicated Reed–Muller inner code
//! (docs/hqc.md §9).
//!
//! C.Encode(m) = RM-encode(RS-encode(m)) into n1·n2 bits; C.Decode runs RM decoding per
//! symbol, then RS decoding, and returns the last k bytes. There is no failure indication
//! (§9.3): an uncorrectable word yields some m′ that the KEM's re-encryption check rejects.

pub mod gf256;
pub mod lanes;
pub mod rm;
pub mod rs;
pub mod rs_eea;

pub use rs::Decoder;

use super::params::{ParamSet, MAX_N1};

/// C.Encode(m) into `out[..P::V_WORDS]`.
pub fn encode<P: ParamSet>(m: &[u8], out: &mut [u64]) {
    let mut cw = [0u8; MAX_N1];
    rs::encode::<P>(m, &mut cw[..P::N1]);
    rm::encode::<P>(&cw[..P::N1], out);
}

/// C.Decode(w) into `m[..P::K]` (Berlekamp–Massey for the RS part).
pub fn decode<P: ParamSet>(w: &[u64], m: &mut [u8]) {
    decode_with::<P>(w, m, Decoder::Bm)
}

/// C.Decode(w) into `m[..P::K]` with the chosen RS key-equation solver.
pub fn decode_with<P: ParamSet>(w: &[u64], m: &mut [u8], decoder: Decoder) {
    let mut cw = [0u8; MAX_N1];
    rm::decode::<P>(w, &mut cw[..P::N1]);
    rs::decode_with::<P>(&mut cw[..P::N1], m, decoder);
}
