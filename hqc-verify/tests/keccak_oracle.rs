//! The core's sponge (`core::keccak`, docs/hqc.md §5.3) against RustCrypto's `sha3` crate,
//! the test oracle: SHA3-256, SHA3-512 and SHAKE256 over the edge lengths around both rates
//! (72, 136) and seeded random lengths, absorbed in random pieces; SHAKE256 squeezed in pieces
//! of odd sizes; the HQC XOF under both read rules; the interleaved state's glue.

use hqc_verify::core::keccak::{
    sha3_256, sha3_512, InterleavedState, KeccakState, PortableState, Sponge,
};
use hqc_verify::core::params::Flavour;
use hqc_verify::core::xof::Xof;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

const EDGES: [usize; 20] = [
    0, 1, 2, 7, 8, 9, 71, 72, 73, 135, 136, 137, 143, 144, 145, 271, 272, 273, 408, 1000,
];

fn lengths(rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut v = EDGES.to_vec();
    for _ in 0..40 {
        v.push(rng.gen_range(0..3000));
    }
    v
}

/// Splits `data` into random pieces (including empty ones) and absorbs them.
fn absorb_pieces<S: KeccakState>(s: &mut Sponge<S>, data: &[u8], rng: &mut ChaCha8Rng) {
    let mut rest = data;
    while !rest.is_empty() {
        let k = rng.gen_range(0..=rest.len().min(300));
        s.absorb(&rest[..k]);
        rest = &rest[k..];
    }
    s.absorb(&[]);
}

#[test]
fn sha3_256_and_512_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x05a3);
    for len in lengths(&mut rng) {
        let mut data = vec![0u8; len];
        rng.fill_bytes(&mut data);
        let cut = rng.gen_range(0..=len);
        let want256: [u8; 32] = sha3::Sha3_256::digest(&data).into();
        let want512: [u8; 64] = sha3::Sha3_512::digest(&data).into();
        assert_eq!(
            sha3_256(&[&data[..cut], &data[cut..]]),
            want256,
            "len {len}"
        );
        assert_eq!(
            sha3_512(&[&data[..cut], &data[cut..]]),
            want512,
            "len {len}"
        );
        let mut a = Sponge::<InterleavedState>::sha3_256();
        absorb_pieces(&mut a, &data, &mut rng);
        let mut out = [0u8; 32];
        a.squeeze(&mut out);
        assert_eq!(out, want256, "interleaved, len {len}");
        let mut b = Sponge::<PortableState>::sha3_512();
        absorb_pieces(&mut b, &data, &mut rng);
        let mut out = [0u8; 64];
        b.squeeze(&mut out);
        assert_eq!(out, want512, "pieces, len {len}");
    }
}

fn shake_oracle(data: &[u8], n: usize) -> Vec<u8> {
    let mut h = sha3::Shake256::default();
    h.update(data);
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

#[test]
fn shake256_streams_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5ba4e);
    for len in lengths(&mut rng) {
        let mut data = vec![0u8; len];
        rng.fill_bytes(&mut data);
        let total = 1500;
        let want = shake_oracle(&data, total);
        for which in 0..2 {
            let mut got = vec![0u8; total];
            let mut done = 0;
            // pieces of odd sizes and the edge sizes, then random ones
            let sizes = [1usize, 3, 5, 135, 137, 71, 73, 0, 1, 2, 136, 8];
            let mut k = 0;
            macro_rules! run {
                ($s:expr) => {{
                    let mut s = $s;
                    absorb_pieces(&mut s, &data, &mut rng);
                    while done < total {
                        let want_len = if k < sizes.len() {
                            sizes[k]
                        } else {
                            rng.gen_range(0..200)
                        };
                        k += 1;
                        let m = want_len.min(total - done);
                        s.squeeze(&mut got[done..done + m]);
                        done += m;
                    }
                }};
            }
            if which == 0 {
                run!(Sponge::<PortableState>::shake256());
            } else {
                run!(Sponge::<InterleavedState>::shake256());
            }
            assert_eq!(got, want, "len {len}, state {which}");
        }
    }
}

#[test]
fn xof_read_rules_match_the_oracle_stream() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0f);
    for _ in 0..30 {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        let input = [&seed[..], &[0x01u8][..]].concat();
        let stream = shake_oracle(&input, 6000);
        for flavour in [Flavour::V2026_02, Flavour::V5_0_0] {
            let mut xof = Xof::new(&seed, flavour);
            let mut at = 0;
            while at < 5000 {
                let l = rng.gen_range(0..300);
                let mut out = vec![0u8; l];
                match rng.gen_range(0..4) {
                    0 => {
                        let a = xof.read_array::<3>();
                        out = a.to_vec();
                    }
                    1 => {
                        let a = xof.read_array::<8>();
                        out = a.to_vec();
                    }
                    _ => xof.read(&mut out),
                }
                let l = out.len();
                assert_eq!(out, stream[at..at + l], "{flavour:?} at {at}, read {l}");
                at += if flavour == Flavour::V5_0_0 {
                    l.div_ceil(8) * 8
                } else {
                    l
                };
            }
        }
    }
}
