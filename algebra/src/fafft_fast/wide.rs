//! AVX2 Encode/Decode on four blocks of 64 points at a time: lane t of every register
//! belongs to block b + t. Encode applies E' to the bitsliced LCH words (row k of E' lists
//! the words XORed into output bit k) and then transposes; Decode transposes and applies D'.
use super::RowLists;
use core::arch::x86_64::*;

/// `out[k] = ⊕_j M[k][j]·a[j]` for 32 bitsliced vectors: XOR tables of the 16 combinations
/// of each group of four inputs, then eight lookups per output row.
#[inline(always)]
unsafe fn matvec(a: &[__m256i; 32], rows: &RowLists, out: &mut [__m256i; 32]) {
    let mut tab = [[_mm256_setzero_si256(); 16]; 8];
    for (g, t) in tab.iter_mut().enumerate() {
        for bit in 0..4 {
            let v = a[4 * g + bit];
            let h = 1usize << bit;
            for i in 0..h {
                t[h + i] = _mm256_xor_si256(t[i], v);
            }
        }
    }
    for (o, row) in out.iter_mut().zip(rows.nib.iter()) {
        let mut acc = _mm256_setzero_si256();
        for (t, &n) in tab.iter().zip(row.iter()) {
            acc = _mm256_xor_si256(acc, t[(n & 15) as usize]);
        }
        *o = acc;
    }
}

/// Two 32×32 transposes in each 64-bit lane (the vector form of `transpose32x2`).
#[inline(always)]
unsafe fn transpose(a: &mut [__m256i; 32]) {
    let mut j = 16usize;
    let mut m: u64 = 0x0000_ffff_0000_ffff;
    while j != 0 {
        let mv = _mm256_set1_epi64x(m as i64);
        let sh = _mm_cvtsi32_si128(j as i32);
        let mut k = 0usize;
        while k < 32 {
            let t = _mm256_and_si256(_mm256_xor_si256(_mm256_srl_epi64(a[k], sh), a[k + j]), mv);
            a[k + j] = _mm256_xor_si256(a[k + j], t);
            a[k] = _mm256_xor_si256(a[k], _mm256_sll_epi64(t, sh));
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// # Safety
/// AVX2; `lch` holds 32 rows of `out.len()/64` words, `out.len()` a multiple of 256.
#[target_feature(enable = "avx2")]
pub unsafe fn encode(lch: &[u64], out: &mut [u32], rows: &RowLists) {
    let stride = out.len() / 64;
    let mut a = [_mm256_setzero_si256(); 32];
    let mut o = [_mm256_setzero_si256(); 32];
    for b in (0..stride).step_by(4) {
        for (j, aj) in a.iter_mut().enumerate() {
            *aj = _mm256_loadu_si256(
                lch[j * stride + b..j * stride + b + 4].as_ptr() as *const __m256i
            );
        }
        matvec(&a, rows, &mut o);
        transpose(&mut o);
        // o[i] lane t = (point 64(b+t) + i) | (point 64(b+t) + 32 + i) << 32.
        let blk = &mut out[64 * b..64 * b + 256];
        let sep = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        for i0 in (0..32).step_by(4) {
            let r = tr4([o[i0], o[i0 + 1], o[i0 + 2], o[i0 + 3]]);
            for (t, rt) in r.iter().enumerate() {
                let v = _mm256_permutevar8x32_epi32(*rt, sep);
                let q = blk[64 * t + i0..64 * t + i0 + 4].as_mut_ptr() as *mut __m128i;
                _mm_storeu_si128(q, _mm256_castsi256_si128(v));
                let q = blk[64 * t + 32 + i0..64 * t + 36 + i0].as_mut_ptr() as *mut __m128i;
                _mm_storeu_si128(q, _mm256_extracti128_si256(v, 1));
            }
        }
    }
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

/// # Safety
/// AVX2; `vals.len()` a multiple of 256, `out` holds 32 rows of `vals.len()/64` words.
#[target_feature(enable = "avx2")]
pub unsafe fn decode(vals: &[u32], out: &mut [u64], rows: &RowLists) {
    let stride = vals.len() / 64;
    let mut y = [_mm256_setzero_si256(); 32];
    let mut g = [_mm256_setzero_si256(); 32];
    for b in (0..stride).step_by(4) {
        let blk = &vals[64 * b..64 * b + 256];
        let mix = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for i0 in (0..32).step_by(4) {
            let mut r = [_mm256_setzero_si256(); 4];
            for (t, rt) in r.iter_mut().enumerate() {
                let lo =
                    _mm_loadu_si128(blk[64 * t + i0..64 * t + i0 + 4].as_ptr() as *const __m128i);
                let hi = _mm_loadu_si128(
                    blk[64 * t + 32 + i0..64 * t + 36 + i0].as_ptr() as *const __m128i
                );
                let v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
                *rt = _mm256_permutevar8x32_epi32(v, mix);
            }
            let o = tr4(r);
            y[i0..i0 + 4].copy_from_slice(&o);
        }
        transpose(&mut y);
        matvec(&y, rows, &mut g);
        for (j, gj) in g.iter().enumerate() {
            _mm256_storeu_si256(
                out[j * stride + b..j * stride + b + 4].as_mut_ptr() as *mut __m256i,
                *gj,
            );
        }
    }
}
