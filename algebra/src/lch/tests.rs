use super::*;

#[test]
fn published_vectors() {
    // docs/test-vectors.md §3, L = 3 monomials
    let expect = [
        0b1u64, 0b10, 0b110, 0b1110, 0b10010, 0b100110, 0b1101110, 0b11110010,
    ];
    for (e, &want) in expect.iter().enumerate() {
        let mut w = [1u64 << e];
        basis_cvt_reference(&mut w, 3);
        assert_eq!(w[0], want, "x^{e}");
    }
    let mut w = [0xdeadbeefu64];
    basis_cvt_reference(&mut w, 5);
    assert_eq!(w[0], 0x8f7003fb);
}

#[test]
fn lch_basis_definition() {
    // BasisCvt(X_i) = e_i, checked against the product definition of X_i.
    for l in 1..=7u32 {
        for i in 0..(1usize << l) {
            let p = lch_poly(i);
            let mut buf = p.to_words((1usize << l).div_ceil(64));
            basis_cvt_reference(&mut buf, l);
            let mut want = vec![0u64; buf.len()];
            bits::set(&mut want, i, true);
            assert_eq!(buf, want, "X_{i}, L={l}");
        }
    }
}

#[test]
fn prefix_and_large_sizes_equal_reference() {
    let mut s = 0x9999_1234_abcd_0001u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for l in 6..=17u32 {
        let words = 1usize << (l - 6);
        let nz = (next() as usize) % (words + 1);
        let mut a: Vec<u64> = (0..words).map(|_| next()).collect();
        a[nz..].fill(0);
        let mut r = a.clone();
        basis_cvt_reference(&mut r, l);
        let mut f = a.clone();
        basis_cvt_prefix(&mut f, l, nz);
        assert_eq!(r, f, "prefix L={l}, nz={nz}");
        // The portable word-level path (the AVX2 one is taken when the CPU has it).
        let mut p = a.clone();
        cvt_words(&mut p, l, nz);
        assert_eq!(r, p, "portable prefix L={l}, nz={nz}");
        icvt_words(&mut p, l);
        assert_eq!(p, a, "portable round trip L={l}");
        if l >= 15 {
            let full: Vec<u64> = (0..words).map(|_| next()).collect();
            let mut r = full.clone();
            basis_cvt_reference(&mut r, l);
            let mut f = full.clone();
            basis_cvt(&mut f, l);
            assert_eq!(r, f, "forward L={l}");
            ibasis_cvt(&mut f, l);
            assert_eq!(f, full, "round trip L={l}");
        }
    }
}

#[test]
fn fast_equals_reference_and_round_trips() {
    let mut s = 0x0f0f_1234_aaaa_5555u64;
    for l in 0..=14u32 {
        let words = (1usize << l).div_ceil(64);
        let nb = 1usize << l;
        for _ in 0..3 {
            let mut a: Vec<u64> = (0..words)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s
                })
                .collect();
            if nb < 64 {
                a[0] &= (1u64 << nb) - 1;
            }
            let mut r = a.clone();
            let mut f = a.clone();
            basis_cvt_reference(&mut r, l);
            basis_cvt(&mut f, l);
            assert_eq!(r, f, "forward L={l}");
            ibasis_cvt(&mut f, l);
            assert_eq!(f, a, "round trip L={l}");
            let mut g = r.clone();
            ibasis_cvt_reference(&mut g, l);
            assert_eq!(g, a, "reference round trip L={l}");
        }
    }
}
