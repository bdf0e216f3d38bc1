//! Keccak on the board: the self-test of the permutation in use
//! ([`hqc_verify::core::keccak::permute_interleaved`], the Thumb-2 `keccak_f1600.S` with feature
//! `asm-expand`) against the portable permutation, of the sponge on that state against the
//! sponge on the portable state, and one permutation per call for counting (`keccak.sh`,
//! docs/board.md §16).

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

/// Self-test on the board. Returns the number of mismatches (0 = all equal):
/// * `trials` seeded states (plus the zero state): the permutation in use against
///   [`permute_interleaved_reference`], and that against the portable [`keccak_f1600`] on the
///   deinterleaved lanes;
/// * SHA3-256, SHA3-512 and SHAKE256 (1,000 bytes squeezed in odd pieces) of the lengths 0, 1,
///   7, 8, 71, 72, 73, 135, 136, 137, 272, 273, 1000 and `trials` seeded ones, on the state in
///   use ([`NativeState`]) against the portable state.
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_keccak_selftest(seed: u32, trials: u32) -> u32 {
    let mut s = seed | 1;
    let mut bad = 0u32;
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
        let mut lanes = PortableState::zero();
        let mut il = InterleavedState(st);
        for i in 0..25 {
            lanes.xor_lane(i, il.lane(i));
        }
        keccak_f1600(&mut lanes.0);
        il.0 = b;
        bad += u32::from((0..25).any(|i| il.lane(i) != lanes.0[i]));
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
    fn host_selftest_passes() {
        assert_eq!(m4kem_keccak_selftest(7, 3), 0);
    }
}
