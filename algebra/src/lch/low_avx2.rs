use core::arch::x86_64::*;

#[inline(always)]
unsafe fn x(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

/// 4×4 transpose of 64-bit lanes (an involution).
#[inline(always)]
unsafe fn tr4(v: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi64(v[0], v[1]);
    let t1 = _mm256_unpackhi_epi64(v[0], v[1]);
    let t2 = _mm256_unpacklo_epi64(v[2], v[3]);
    let t3 = _mm256_unpackhi_epi64(v[2], v[3]);
    [
        _mm256_permute2x128_si256(t0, t2, 0x20),
        _mm256_permute2x128_si256(t1, t3, 0x20),
        _mm256_permute2x128_si256(t0, t2, 0x31),
        _mm256_permute2x128_si256(t1, t3, 0x31),
    ]
}

/// `(Σ_d v << d, Σ_d v >> (64 − d))` for d = 1, 2, 4, 8, 16, 32 (the 128-bit spread).
#[inline(always)]
unsafe fn spread7(v: __m256i) -> (__m256i, __m256i) {
    let lo = x(
        x(
            x(_mm256_slli_epi64(v, 1), _mm256_slli_epi64(v, 2)),
            x(_mm256_slli_epi64(v, 4), _mm256_slli_epi64(v, 8)),
        ),
        x(_mm256_slli_epi64(v, 16), _mm256_slli_epi64(v, 32)),
    );
    let hi = x(
        x(
            x(_mm256_srli_epi64(v, 63), _mm256_srli_epi64(v, 62)),
            x(_mm256_srli_epi64(v, 60), _mm256_srli_epi64(v, 56)),
        ),
        x(_mm256_srli_epi64(v, 48), _mm256_srli_epi64(v, 32)),
    );
    (lo, hi)
}

/// Level 7 quarter step: source word `s` into words `d0`, `d0 + 1` (exponents 1 … 64).
#[inline(always)]
unsafe fn l7(w: &mut [__m256i; 4], src: usize, d0: usize) {
    let v = w[src];
    let (lo, hi) = spread7(v);
    w[d0] = x(w[d0], lo);
    w[d0 + 1] = x(w[d0 + 1], x(hi, v));
}

/// Level 6 on the word pair (a, b): `s_6 = x^64 + x^16 + x^4 + x`.
#[inline(always)]
unsafe fn l6_top(a: &mut __m256i, b: &mut __m256i) {
    let top = _mm256_srli_epi64(*b, 32);
    *a = x(
        *a,
        x(
            x(_mm256_slli_epi64(top, 33), _mm256_slli_epi64(top, 36)),
            _mm256_slli_epi64(top, 48),
        ),
    );
    *b = x(
        *b,
        x(
            x(_mm256_srli_epi64(top, 31), _mm256_srli_epi64(top, 28)),
            _mm256_srli_epi64(top, 16),
        ),
    );
}

#[inline(always)]
unsafe fn l6_mid(a: &mut __m256i, b: __m256i) {
    let mid = _mm256_and_si256(b, _mm256_set1_epi64x(0xffff_ffff));
    *a = x(
        *a,
        x(
            x(_mm256_slli_epi64(mid, 1), _mm256_slli_epi64(mid, 4)),
            _mm256_slli_epi64(mid, 16),
        ),
    );
}

/// One in-word quarter step: `w ^= Σ_{s ∈ SH} (w & mask) >> s`.
#[inline(always)]
unsafe fn qstep<const N: usize>(w: __m256i, mask: u64, sh: [i32; N]) -> __m256i {
    let t = _mm256_and_si256(w, _mm256_set1_epi64x(mask as i64));
    let mut acc = w;
    for &s in sh.iter() {
        acc = x(acc, _mm256_srl_epi64(t, _mm_cvtsi32_si128(s)));
    }
    acc
}

#[inline(always)]
unsafe fn inword_fwd(w: __m256i) -> __m256i {
    // k = 5: h = 32, d ∈ {1, 2, 16}
    let w = qstep(w, 0xffff_0000_0000_0000, [31, 30, 16]);
    let w = qstep(w, 0x0000_ffff_0000_0000, [31, 30, 16]);
    // k = 4: h = 16, d = 1
    let w = qstep(w, 0xff00_0000_ff00_0000, [15]);
    let w = qstep(w, 0x00ff_0000_00ff_0000, [15]);
    // k = 3: h = 8, d ∈ {1, 2, 4}
    let w = qstep(w, 0xf000_f000_f000_f000, [7, 6, 4]);
    let w = qstep(w, 0x0f00_0f00_0f00_0f00, [7, 6, 4]);
    // k = 2: h = 4, d = 1
    let w = qstep(w, 0xc0c0_c0c0_c0c0_c0c0, [3]);
    let w = qstep(w, 0x3030_3030_3030_3030, [3]);
    // k = 1: h = 2, d = 1
    let w = qstep(w, 0x8888_8888_8888_8888, [1]);
    qstep(w, 0x4444_4444_4444_4444, [1])
}

#[inline(always)]
unsafe fn inword_inv(w: __m256i) -> __m256i {
    let w = qstep(w, 0x4444_4444_4444_4444, [1]);
    let w = qstep(w, 0x8888_8888_8888_8888, [1]);
    let w = qstep(w, 0x3030_3030_3030_3030, [3]);
    let w = qstep(w, 0xc0c0_c0c0_c0c0_c0c0, [3]);
    let w = qstep(w, 0x0f00_0f00_0f00_0f00, [7, 6, 4]);
    let w = qstep(w, 0xf000_f000_f000_f000, [7, 6, 4]);
    let w = qstep(w, 0x00ff_0000_00ff_0000, [15]);
    let w = qstep(w, 0xff00_0000_ff00_0000, [15]);
    let w = qstep(w, 0x0000_ffff_0000_0000, [31, 30, 16]);
    qstep(w, 0xffff_0000_0000_0000, [31, 30, 16])
}

/// Levels 7 … 0 (division) on four segments held as `W_0 … W_3`.
#[inline(always)]
unsafe fn low_fwd(w: &mut [__m256i; 4]) {
    l7(w, 3, 1);
    l7(w, 2, 0);
    let [a, b, cc, d] = w;
    l6_top(a, b);
    l6_mid(a, *b);
    l6_top(cc, d);
    l6_mid(cc, *d);
    for v in w.iter_mut() {
        *v = inword_fwd(*v);
    }
}

/// Levels 0 … 7 (multiplication).
#[inline(always)]
unsafe fn low_inv(w: &mut [__m256i; 4]) {
    for v in w.iter_mut() {
        *v = inword_inv(*v);
    }
    let [a, b, cc, d] = w;
    l6_mid(a, *b);
    l6_top(a, b);
    l6_mid(cc, *d);
    l6_top(cc, d);
    l7(w, 2, 0);
    l7(w, 3, 1);
}

/// Level 8 (`s_8 = x^256 + x`) quarter step: words `src, src+1` shifted by one bit into
/// words `dst … dst+2`.
#[inline(always)]
unsafe fn l8(lo: &mut [__m256i; 4], hi: &mut [__m256i; 4], src_hi: bool, dst: usize) {
    let (s0, s1) = if src_hi {
        (hi[2], hi[3])
    } else {
        (hi[0], hi[1])
    };
    let t0 = _mm256_slli_epi64(s0, 1);
    let t1 = x(_mm256_slli_epi64(s1, 1), _mm256_srli_epi64(s0, 63));
    let t2 = _mm256_srli_epi64(s1, 63);
    // dst = 2 (step A: words 2, 3, 4) or 0 (step B: words 0, 1, 2)
    if dst == 2 {
        lo[2] = x(lo[2], t0);
        lo[3] = x(lo[3], t1);
        hi[0] = x(hi[0], t2);
    } else {
        lo[0] = x(lo[0], t0);
        lo[1] = x(lo[1], t1);
        lo[2] = x(lo[2], t2);
    }
}

/// Levels 8 … 0 (or their inverse) on the 32 words of `c` (four 512-bit segments).
///
/// # Safety
/// The CPU must support AVX2; `c` has 32 words.
#[target_feature(enable = "avx2")]
pub unsafe fn low_levels(c: &mut [u64], inverse: bool) {
    assert!(c.len() >= 32, "low_levels: 32 words");
    let p = c.as_mut_ptr() as *mut __m256i;
    // segment s occupies vectors 2s (words 0–3) and 2s + 1 (words 4–7)
    let mut lo = tr4([
        _mm256_loadu_si256(p),
        _mm256_loadu_si256(p.add(2)),
        _mm256_loadu_si256(p.add(4)),
        _mm256_loadu_si256(p.add(6)),
    ]);
    let mut hi = tr4([
        _mm256_loadu_si256(p.add(1)),
        _mm256_loadu_si256(p.add(3)),
        _mm256_loadu_si256(p.add(5)),
        _mm256_loadu_si256(p.add(7)),
    ]);
    if inverse {
        low_inv(&mut lo);
        low_inv(&mut hi);
        l8(&mut lo, &mut hi, false, 0);
        l8(&mut lo, &mut hi, true, 2);
    } else {
        l8(&mut lo, &mut hi, true, 2);
        l8(&mut lo, &mut hi, false, 0);
        low_fwd(&mut lo);
        low_fwd(&mut hi);
    }
    let lo = tr4(lo);
    let hi = tr4(hi);
    for s in 0..4 {
        _mm256_storeu_si256(p.add(2 * s), lo[s]);
        _mm256_storeu_si256(p.add(2 * s + 1), hi[s]);
    }
}
