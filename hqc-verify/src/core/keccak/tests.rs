use super::*;

#[test]
fn round_constants_from_lfsr() {
    // rc(t) of FIPS 202 Algorithm 5
    fn rc(t: usize) -> u64 {
        if t.is_multiple_of(255) {
            return 1;
        }
        let mut r: u16 = 1; // R[0] is bit 0
        for _ in 0..t % 255 {
            let r8 = (r >> 7) & 1; // R[8] after the shift is the old R[7]
            r = (r << 1) & 0xFF;
            r ^= r8 | (r8 << 4) | (r8 << 5) | (r8 << 6);
        }
        (r & 1) as u64
    }
    for (i, &want) in ROUND_CONSTANTS.iter().enumerate() {
        let mut v = 0u64;
        for j in 0..7 {
            v |= rc(j + 7 * i) << ((1 << j) - 1);
        }
        assert_eq!(v, want, "round {i}");
    }
}

#[test]
fn rho_offsets_from_the_walk() {
    let (mut x, mut y) = (1usize, 0usize);
    let mut r = [0u32; 25];
    for t in 0..24u32 {
        r[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
        (x, y) = (y, (2 * x + 3 * y) % 5);
    }
    assert_eq!(r, RHO);
}

#[test]
fn pi_gather_is_the_lane_move() {
    for x in 0..5 {
        for y in 0..5 {
            assert_eq!(PI_SRC[y + 5 * ((2 * x + 3 * y) % 5)], x + 5 * y);
        }
    }
}

#[test]
fn zero_state_permutation() {
    // Keccak-f[1600] of the zero state, first and last lane (published test value).
    let mut a = [0u64; 25];
    keccak_f1600(&mut a);
    assert_eq!(a[0], 0xF125_8F79_40E1_DDE7);
    assert_eq!(a[24], 0xEAF1_FF7B_5CEC_A249);
}

fn interleave_bitwise(v: u64) -> (u32, u32) {
    let (mut e, mut o) = (0u32, 0u32);
    for j in 0..32 {
        e |= (((v >> (2 * j)) & 1) as u32) << j;
        o |= (((v >> (2 * j + 1)) & 1) as u32) << j;
    }
    (e, o)
}

#[test]
fn interleave_matches_bitwise_definition() {
    let mut x = 0x0123_4567_89AB_CDEFu64;
    for k in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = if k < 64 { 1u64 << k } else { x };
        assert_eq!(interleave(v), interleave_bitwise(v), "{v:#x}");
        let (e, o) = interleave(v);
        assert_eq!(deinterleave(e, o), v);
    }
}

#[test]
fn interleaved_rotation_rule() {
    // the rule the Thumb-2 routine uses: rot by 2k = both halves by k; by 2k+1 = swap,
    // rotate the new even half by k + 1 and the new odd half by k
    let v = 0xDEAD_BEEF_0BAD_F00Du64;
    let (e, o) = interleave(v);
    for r in 0..64u32 {
        let want = interleave(v.rotate_left(r));
        let k = r / 2;
        let got = if r % 2 == 0 {
            (e.rotate_left(k), o.rotate_left(k))
        } else {
            (o.rotate_left(k + 1), e.rotate_left(k))
        };
        assert_eq!(got, want, "r = {r}");
    }
}

#[test]
fn interleaved_state_sponge_equals_portable() {
    let data: [u8; 300] = core::array::from_fn(|i| (i * 7 + 3) as u8);
    for len in [0usize, 1, 7, 8, 71, 72, 73, 135, 136, 137, 272, 300] {
        let mut a = Sponge::<PortableState>::shake256();
        let mut b = Sponge::<InterleavedState>::shake256();
        a.absorb(&data[..len]);
        b.absorb(&data[..len]);
        let mut oa = [0u8; 301];
        let mut ob = [0u8; 301];
        a.squeeze(&mut oa);
        b.squeeze(&mut ob);
        assert_eq!(oa, ob, "len {len}");
    }
}

/// SHAKE256 the plain way (pad, then every output block extracted whole), the reference
/// of the sponge's lazy extraction and whole-block squeezes.
fn shake256_plain(msg: &[u8], out_len: usize) -> Vec<u8> {
    let rate = 136;
    let mut padded = msg.to_vec();
    padded.push(SHAKE_SUFFIX);
    while !padded.len().is_multiple_of(rate) {
        padded.push(0);
    }
    let last = padded.len() - 1;
    padded[last] ^= 0x80;
    let mut a = [0u64; 25];
    for block in padded.chunks(rate) {
        for (i, w) in block.chunks(8).enumerate() {
            a[i] ^= u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        }
        keccak_f1600(&mut a);
    }
    let mut out = Vec::new();
    loop {
        for l in a.iter().take(rate / 8) {
            out.extend_from_slice(&l.to_le_bytes());
        }
        if out.len() >= out_len {
            out.truncate(out_len);
            return out;
        }
        keccak_f1600(&mut a);
    }
}

fn pieces_equal_plain<S: KeccakState>() {
    let data: [u8; 300] = core::array::from_fn(|i| (i * 11 + 5) as u8);
    let mut x = 0x9E37_79B9u32;
    for len in [0usize, 1, 8, 135, 136, 137, 300] {
        let want = shake256_plain(&data[..len], 700);
        for _ in 0..12 {
            let mut sp = Sponge::<S>::shake256();
            sp.absorb(&data[..len]);
            let mut got = Vec::new();
            while got.len() < 700 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                match x % 5 {
                    0 => got.extend_from_slice(&sp.squeeze_array::<3>()),
                    1 => got.extend_from_slice(&sp.squeeze_array::<8>()),
                    _ => {
                        let mut b = vec![0u8; (x >> 8) as usize % 300];
                        sp.squeeze(&mut b);
                        got.extend_from_slice(&b);
                    }
                }
            }
            assert_eq!(got[..700], want[..], "len {len}");
        }
    }
}

#[test]
fn squeezes_in_pieces_equal_the_plain_sponge() {
    pieces_equal_plain::<PortableState>();
    pieces_equal_plain::<InterleavedState>();
}

fn words_equal_bytes<S: KeccakState>() {
    let mut x = 0x2545_F491u32;
    for skip in [0usize, 1, 3, 8, 135, 136, 200] {
        for _ in 0..6 {
            let mut a = Sponge::<S>::shake256();
            let mut b = Sponge::<S>::shake256();
            a.absorb(b"words");
            b.absorb(b"words");
            let mut s0 = vec![0u8; skip];
            a.squeeze(&mut s0);
            b.squeeze(&mut s0);
            for _ in 0..4 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let n = (x >> 4) as usize % 60;
                let mut w = vec![0u64; n];
                a.squeeze_words(&mut w);
                let mut by = vec![0u8; 8 * n];
                b.squeeze(&mut by);
                let want: Vec<u64> = by
                    .chunks(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                    .collect();
                assert_eq!(w, want, "skip {skip} n {n}");
                let (p, q) = (a.squeeze_array::<3>(), b.squeeze_array::<3>());
                assert_eq!(p, q, "skip {skip}");
            }
        }
    }
}

#[test]
fn squeezed_words_equal_squeezed_bytes() {
    words_equal_bytes::<PortableState>();
    words_equal_bytes::<InterleavedState>();
}
