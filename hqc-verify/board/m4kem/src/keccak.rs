//! Keccak on the board: the self-test of the permutation in use
//! ([`hqc_verify::core::keccak::permute_interleaved`], the Thumb-2 `keccak_f1600.S` with feature
//! `asm-expand`) against published known answers and against the portable permutation, of the
//! sponge on that state against the published digests and the sponge on the portable state,
//! and one permutation per call for counting (`keccak.sh`, docs/board.md §16).

use hqc_verify::core::keccak::{
    InterleavedState, KeccakState, NativeState, PortableState, Sponge, keccak_f1600,
    permute_interleaved, permute_interleaved_reference,
};

/// xorshift32 (test data only).
fn next(s: &mut u32) -> u32 {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    *s
}

/// Squeezes `total` bytes of `a` and `b` in the same pieces (odd sizes, then seeded ones);
/// true when equal.
fn same_stream<A: KeccakState, B: KeccakState>(
    a: &mut Sponge<A>,
    b: &mut Sponge<B>,
    total: usize,
    seed: &mut u32,
) -> bool {
    const PIECES: [usize; 10] = [1, 3, 5, 135, 137, 71, 73, 0, 136, 8];
    let mut ok = true;
    let mut done = 0;
    let mut k = 0;
    while done < total {
        let want = if k < PIECES.len() {
            PIECES[k]
        } else {
            (next(seed) % 200) as usize
        };
        k += 1;
        let m = want.min(total - done).min(256);
        let mut x = [0u8; 256];
        let mut y = [0u8; 256];
        a.squeeze(&mut x[..m]);
        b.squeeze(&mut y[..m]);
        ok &= x[..m] == y[..m];
        done += m;
    }
    ok
}

/// Keccak-f\[1600\] of the all-zero state, lanes x + 5y (the published test value of the
/// Keccak team's known-answer files; independent of this project's code).
pub const ZERO_STATE_F1600: [u64; 25] = [
    0xF125_8F79_40E1_DDE7,
    0x84D5_CCF9_33C0_478A,
    0xD598_261E_A65A_A9EE,
    0xBD15_4730_6F80_494D,
    0x8B28_4E05_6253_D057,
    0xFF97_A42D_7F8E_6FD4,
    0x90FE_E5A0_A446_47C4,
    0x8C5B_DA0C_D619_2E76,
    0xAD30_A6F7_1B19_059C,
    0x3093_5AB7_D08F_FC64,
    0xEB5A_A93F_2317_D635,
    0xA9A6_E626_0D71_2103,
    0x81A5_7C16_DBCF_555F,
    0x43B8_31CD_0347_C826,
    0x01F2_2F1A_11A5_569F,
    0x05E5_635A_21D9_AE61,
    0x64BE_FEF2_8CC9_70F2,
    0x6136_7095_7BC4_6611,
    0xB87C_5A55_4FD0_0ECB,
    0x8C3E_E88A_1CCF_32C8,
    0x940C_7922_AE3A_2614,
    0x1841_F924_A2C5_09E4,
    0x16F5_3526_E704_65C2,
    0x75F6_44E9_7F30_A13B,
    0xEAF1_FF7B_5CEC_A249,
];

/// SHA3-256 of the empty message (FIPS 202 example value).
pub const SHA3_256_EMPTY: [u8; 32] = [
    0xa7, 0xff, 0xc6, 0xf8, 0xbf, 0x1e, 0xd7, 0x66, 0x51, 0xc1, 0x47, 0x56, 0xa0, 0x61, 0xd6, 0x62,
    0xf5, 0x80, 0xff, 0x4d, 0xe4, 0x3b, 0x49, 0xfa, 0x82, 0xd8, 0x0a, 0x4b, 0x80, 0xf8, 0x43, 0x4a,
];

/// SHA3-512 of the empty message (FIPS 202 example value).
pub const SHA3_512_EMPTY: [u8; 64] = [
    0xa6, 0x9f, 0x73, 0xcc, 0xa2, 0x3a, 0x9a, 0xc5, 0xc8, 0xb5, 0x67, 0xdc, 0x18, 0x5a, 0x75, 0x6e,
    0x97, 0xc9, 0x82, 0x16, 0x4f, 0xe2, 0x58, 0x59, 0xe0, 0xd1, 0xdc, 0xc1, 0x47, 0x5c, 0x80, 0xa6,
    0x15, 0xb2, 0x12, 0x3a, 0xf1, 0xf5, 0xf9, 0x4c, 0x11, 0xe3, 0xe9, 0x40, 0x2c, 0x3a, 0xc5, 0x58,
    0xf5, 0x00, 0x19, 0x9d, 0x95, 0xb6, 0xd3, 0xe3, 0x01, 0x75, 0x85, 0x86, 0x28, 0x1d, 0xcd, 0x26,
];

/// The first 64 bytes of SHAKE256 of the empty message (FIPS 202 example value).
pub const SHAKE256_EMPTY_64: [u8; 64] = [
    0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13, 0x23, 0x3b, 0x3f, 0xeb, 0x74, 0x3e, 0xeb, 0x24,
    0x3f, 0xcd, 0x52, 0xea, 0x62, 0xb8, 0x1b, 0x82, 0xb5, 0x0c, 0x27, 0x64, 0x6e, 0xd5, 0x76, 0x2f,
    0xd7, 0x5d, 0xc4, 0xdd, 0xd8, 0xc0, 0xf2, 0x00, 0xcb, 0x05, 0x01, 0x9d, 0x67, 0xb5, 0x92, 0xf6,
    0xfc, 0x82, 0x1c, 0x49, 0x47, 0x9a, 0xb4, 0x86, 0x40, 0x29, 0x2e, 0xac, 0xb3, 0xb7, 0xc4, 0xbe,
];

/// Mismatches of the interleaved permutation `perm` and of the sponges on `S` against the
/// published values above (independent data): `perm` of the zero state, deinterleaved, against
/// [`ZERO_STATE_F1600`] (one per differing lane), and SHA3-256, SHA3-512 and SHAKE256 (64
/// bytes) of the empty message (one per differing digest).
pub fn known_answer_mismatches<S: KeccakState>(perm: fn(&mut [u32; 50])) -> u32 {
    let mut bad = 0u32;
    let mut z = InterleavedState([0u32; 50]);
    perm(&mut z.0);
    for (i, &want) in ZERO_STATE_F1600.iter().enumerate() {
        bad += u32::from(z.lane(i) != want);
    }
    let mut a = [0u8; 32];
    Sponge::<S>::sha3_256().squeeze(&mut a);
    bad += u32::from(a != SHA3_256_EMPTY);
    let mut b = [0u8; 64];
    Sponge::<S>::sha3_512().squeeze(&mut b);
    bad += u32::from(b != SHA3_512_EMPTY);
    let mut c = [0u8; 64];
    Sponge::<S>::shake256().squeeze(&mut c);
    bad += u32::from(c != SHAKE256_EMPTY_64);
    bad
}

/// Self-test on the board. Returns the number of mismatches (0 = all equal):
/// * known answers ([`known_answer_mismatches`]): the permutation in use
///   ([`permute_interleaved`]) and the sponges on the state in use ([`NativeState`]) against
///   the published values;
/// * `trials` seeded states (plus the zero state): the permutation in use against
///   [`permute_interleaved_reference`];
/// * SHA3-256, SHA3-512 and SHAKE256 (1,000 bytes squeezed in odd pieces) of the lengths 0, 1,
///   7, 8, 71, 72, 73, 135, 136, 137, 272, 273, 1000 and `trials` seeded ones, on the state in
///   use against the portable state.
///
/// On the host (no `asm-expand`) the state in use is the portable one, so only the known
/// answers test anything there; the comparisons are meaningful on the board (`keccak.sh`,
/// `tests/board_keccak.rs` of hqc-board).
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_keccak_selftest(seed: u32, trials: u32) -> u32 {
    let mut s = seed | 1;
    let mut bad = known_answer_mismatches::<NativeState>(permute_interleaved);
    for t in 0..=trials {
        let mut st = [0u32; 50];
        if t > 0 {
            st.iter_mut().for_each(|w| *w = next(&mut s));
        }
        let mut a = st;
        let mut b = st;
        permute_interleaved(&mut a);
        permute_interleaved_reference(&mut b);
        bad += u32::from(a != b);
    }
    let mut data = [0u8; 1000];
    data.iter_mut().for_each(|b| *b = next(&mut s) as u8);
    let edges = [0usize, 1, 7, 8, 71, 72, 73, 135, 136, 137, 272, 273, 1000];
    for k in 0..edges.len() + trials as usize {
        let len = if k < edges.len() {
            edges[k]
        } else {
            (next(&mut s) % 1001) as usize
        };
        let cut = (next(&mut s) as usize) % (len + 1);
        type Mk<S> = fn() -> Sponge<S>;
        let makers: [(Mk<NativeState>, Mk<PortableState>, usize); 3] = [
            (Sponge::sha3_256, Sponge::sha3_256, 32),
            (Sponge::sha3_512, Sponge::sha3_512, 64),
            (Sponge::shake256, Sponge::shake256, 1000),
        ];
        for (mk_a, mk_b, out) in makers {
            let mut a = mk_a();
            let mut b = mk_b();
            a.absorb(&data[..cut]);
            a.absorb(&data[cut..len]);
            b.absorb(&data[..len]);
            bad += u32::from(!same_stream(&mut a, &mut b, out, &mut s));
        }
    }
    bad
}

/// A fixed pseudo-random interleaved state in `state` (50 words), so that a measured
/// permutation does not include the drawing. Returns 0, or −1 for a null pointer.
///
/// # Safety
/// `state` is null or valid for 50 u32 writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_keccak_prepare(state: *mut u32) -> i32 {
    if state.is_null() {
        return -1;
    }
    // SAFETY: valid for 50 writes by the caller's contract.
    let st = unsafe { &mut *(state as *mut [u32; 50]) };
    let mut s = 0x2545_F491;
    st.iter_mut().for_each(|w| *w = next(&mut s));
    0
}

/// One Keccak-f\[1600\] of the interleaved `state`: `which` = 0 the permutation in use,
/// 1 the portable permutation on the lanes (deinterleave, [`keccak_f1600`], interleave),
/// 2 the portable permutation alone on the words read as 25 lanes. Returns 0, or −1.
///
/// # Safety
/// `state` is null or valid for 50 u32 reads and writes, 8-byte aligned.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_keccak_once(which: u32, state: *mut u32) -> i32 {
    if state.is_null() || (state as usize) % 8 != 0 {
        return -1;
    }
    // SAFETY: valid and aligned by the caller's contract (checked alignment above).
    let st = unsafe { &mut *(state as *mut [u32; 50]) };
    match which {
        0 => permute_interleaved(st),
        1 => permute_interleaved_reference(st),
        2 => {
            // SAFETY: 200 bytes, 8-byte aligned: a valid [u64; 25].
            let l = unsafe { &mut *(state as *mut [u64; 25]) };
            keccak_f1600(l);
        }
        _ => return -1,
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_known_answers_pass() {
        // on the host: the portable permutation, interleaving and sponge against the published
        // values (the whole self-test reduces to these here)
        assert_eq!(
            known_answer_mismatches::<PortableState>(permute_interleaved),
            0
        );
        assert_eq!(m4kem_keccak_selftest(7, 3), 0);
    }

    #[test]
    fn known_answers_catch_a_wrong_permutation() {
        // a permutation off by one bit in one lane, or one round short, is caught
        fn flipped(s: &mut [u32; 50]) {
            permute_interleaved_reference(s);
            s[17] ^= 1 << 9;
        }
        fn short(s: &mut [u32; 50]) {
            let mut a = [0u64; 25];
            for (i, l) in a.iter_mut().enumerate() {
                *l = hqc_verify::core::keccak::deinterleave(s[2 * i], s[2 * i + 1]);
            }
            keccak_f1600(&mut a);
            // undo the last ι: 23 and a half rounds
            a[0] ^= hqc_verify::core::keccak::ROUND_CONSTANTS[23];
            for (i, l) in a.iter().enumerate() {
                (s[2 * i], s[2 * i + 1]) = hqc_verify::core::keccak::interleave(*l);
            }
        }
        assert_eq!(known_answer_mismatches::<PortableState>(flipped), 1);
        assert_eq!(known_answer_mismatches::<PortableState>(short), 1);
    }
}
