//! A fast FAFFT engine for m = 32 in the polynomial basis [`Poly32`] (`docs/fafft.md` §7, §8.2).
//!
//! The multiplier modulus `M_β = P_β(s_l(x))` does not depend on the representation of
//! F_{2^32} (§8.2): for a field isomorphism ψ from the plan's field F to
//! `Poly32 = F2[z]/(z^32 + z^7 + z^3 + z^2 + 1)`, running the FAFFT with every field constant
//! mapped through ψ computes `ψ(forward(f))` point by point, and pointwise products and the
//! inverse commute with ψ. So this engine
//!
//! * folds ψ into Encode and Decode (`E' = ψ∘E`, `D' = E'^{−1} = E^{−1}∘ψ^{−1}`, 32×32 bit
//!   matrices): a 32×64 bit transpose of the LCH words and byte tables, or with AVX2 (l ≥ 8)
//!   E' applied to the bitsliced words of four 64-point blocks at once ("four Russians" XOR
//!   tables) followed by the transpose;
//! * maps the butterfly constants once at plan time (`ψ(c(L, k))`);
//! * multiplies with one carry-less 32×32 product and a shift-and-XOR reduction: four products
//!   per PCLMULQDQ round ([`Kernel::Pclmul`]), eight per VPCLMULQDQ/AVX2 round
//!   ([`Kernel::Vpclmul`]), or the portable constant-time product ([`Kernel::Portable`], which
//!   also keeps Encode/Decode scalar). The kernel is chosen once, at construction
//!   ([`Kernel::best`]). The lowest two (PCLMULQDQ) or three (VPCLMULQDQ) butterfly layers run
//!   merged on groups of 8 or 16 elements with per-lane constants.
//!
//! ψ is [`FieldIso::from_cantor_top`] for the Cantor top of the plan's basis (§2.3). The outputs
//! are `ψ(reference values)` in the reference point order; [`Fafft32::to_field`] maps them back.
//! BasisCvt is [`crate::lch::basis_cvt_prefix`] / [`crate::lch::ibasis_cvt`] (shared with the
//! reference plan).

use crate::bitmatrix::BitMatrix;
use crate::error::AlgebraError;
use crate::fafft::{Evaluations, FafftPlan};
use crate::field::poly32::{mul_portable, Poly32};
use crate::field::BinaryField;
use crate::field_iso::FieldIso;
use crate::gf2x::{Gf2xError, Poly};
use crate::lch::{basis_cvt_prefix, ibasis_cvt};

mod kernel;

use kernel::avx2_available;
pub use kernel::Kernel;

/// A 32×32 bit matrix as four byte tables (one lookup per input byte).
#[derive(Clone)]
struct Lin32(Box<[[u32; 256]; 4]>);

impl Lin32 {
    fn new(m: &BitMatrix) -> Self {
        let mut t = Box::new([[0u32; 256]; 4]);
        for (k, tk) in t.iter_mut().enumerate() {
            for (b, slot) in tk.iter_mut().enumerate() {
                *slot = m.apply((b as u64) << (8 * k)) as u32;
            }
        }
        Lin32(t)
    }
    #[inline(always)]
    fn apply(&self, x: u32) -> u32 {
        let t = &*self.0;
        t[0][(x & 0xff) as usize]
            ^ t[1][((x >> 8) & 0xff) as usize]
            ^ t[2][((x >> 16) & 0xff) as usize]
            ^ t[3][(x >> 24) as usize]
    }
}

/// Values of a transformed operand in the [`Poly32`] representation (`ψ` of the reference
/// values, same point order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evals32 {
    /// `values[i]` = ψ(operand evaluated at point i), as the integer encoding of a [`Poly32`].
    pub values: Vec<u32>,
}

/// The fast m = 32 engine of a [`FafftPlan`].
#[derive(Clone)]
pub struct Fafft32 {
    l: u32,
    kernel: Kernel,
    psi: Lin32,
    psi_inv: Lin32,
    enc: Lin32,
    dec: Lin32,
    /// `tw[L−1][k] = ψ(c(L, k))`.
    tw: Vec<Vec<u32>>,
    /// Layer-1 constants in the lane order of the merged layer-2/1 kernel.
    tw1p: Vec<u32>,
    /// Layer-2 constants, each repeated twice.
    tw2x: Vec<u32>,
    /// Layer-3 constants, each repeated four times.
    tw3x: Vec<u32>,
    /// Rows of E' (for the bitsliced Encode): row k lists the j with `E'[k][j] = 1`.
    enc_rows: RowLists,
    /// Rows of D'.
    dec_rows: RowLists,
    /// AVX2 Encode/Decode (4 blocks of 64 points at a time): a SIMD kernel, AVX2 and l ≥ 8.
    wide: bool,
}

/// The rows of a 32×32 bit matrix as nibbles: `nib[k][g]` = bits `4g … 4g+3` of row k
/// (for the "four Russians" product with bitsliced words).
#[derive(Clone, Debug)]
struct RowLists {
    nib: [[u8; 8]; 32],
}

impl RowLists {
    fn new(m: &BitMatrix) -> Self {
        let mut nib = [[0u8; 8]; 32];
        for (k, row) in nib.iter_mut().enumerate() {
            for j in 0..32 {
                if m.get(k, j) {
                    row[j / 4] |= 1 << (j % 4);
                }
            }
        }
        RowLists { nib }
    }
}

impl core::fmt::Debug for Fafft32 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Fafft32")
            .field("l", &self.l)
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

/// Transpose two 32×32 bit matrices at once: `a[k]` holds row k of the first matrix in its low
/// 32 bits and row k of the second in its high 32 bits (recursive block swaps).
#[inline(always)]
fn transpose32x2(a: &mut [u64; 32]) {
    let mut j = 16usize;
    let mut m: u64 = 0x0000_ffff_0000_ffff;
    while j != 0 {
        let mut k = 0usize;
        while k < 32 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

impl Fafft32 {
    /// The engine for an m = 32 plan with the fastest available kernel.
    pub fn from_plan<F: BinaryField>(plan: &FafftPlan<F>) -> Result<Self, AlgebraError> {
        Self::with_kernel(plan, Kernel::best())
    }

    /// The engine with an explicit kernel (an unavailable one is a typed error).
    pub fn with_kernel<F: BinaryField>(
        plan: &FafftPlan<F>,
        kernel: Kernel,
    ) -> Result<Self, AlgebraError> {
        if F::DEGREE != 32 {
            return Err(AlgebraError::DegreeMismatch {
                left: F::DEGREE,
                right: 32,
            });
        }
        if !kernel.is_available() {
            return Err(AlgebraError::Gf2x(Gf2xError::BackendUnavailable {
                backend: kernel.name(),
            }));
        }
        let iso = FieldIso::<F, Poly32>::from_cantor_top(plan.basis().top())?;
        let psi_m = BitMatrix::from_cols(
            (0..32)
                .map(|i| iso.apply(F::from_bits(1u64 << i)).to_bits())
                .collect(),
        );
        let psi_inv_m = psi_m.inverse()?;
        let enc_m = psi_m.mul(plan.encode_matrix());
        let dec_m = enc_m.inverse()?;
        let psi = Lin32::new(&psi_m);
        let tw: Vec<Vec<u32>> = plan
            .twiddles()
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|c| psi.apply(c.to_bits() as u32))
                    .collect()
            })
            .collect();
        let l = plan.l();
        let (mut tw1p, mut tw2x, mut tw3x) = (Vec::new(), Vec::new(), Vec::new());
        if l >= 4 {
            tw3x = (0..1usize << (l - 1)).map(|j| tw[2][j / 4]).collect();
        }
        if l >= 3 {
            tw2x = (0..1usize << (l - 1)).map(|j| tw[1][j / 2]).collect();
            tw1p = (0..1usize << (l - 1))
                .map(|j| tw[0][(j & !3) | [0, 2, 1, 3][j & 3]])
                .collect();
        }
        Ok(Fafft32 {
            l,
            kernel,
            psi,
            psi_inv: Lin32::new(&psi_inv_m),
            enc_rows: RowLists::new(&enc_m),
            dec_rows: RowLists::new(&dec_m),
            wide: kernel != Kernel::Portable && l >= 8 && avx2_available(),
            enc: Lin32::new(&enc_m),
            dec: Lin32::new(&dec_m),
            tw,
            tw1p,
            tw2x,
            tw3x,
        })
    }

    /// l.
    pub fn l(&self) -> u32 {
        self.l
    }
    /// The multiplication kernel in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }
    /// Transform size in bits, `N = 32·2^l`.
    pub fn n_bits(&self) -> usize {
        32usize << self.l
    }
    /// Number of points 2^l.
    pub fn n_points(&self) -> usize {
        1usize << self.l
    }
    /// Words of an N-bit operand.
    pub fn n_words(&self) -> usize {
        self.n_bits().div_ceil(64)
    }
    /// ψ of a field element of the plan's field (as its integer encoding).
    pub fn psi(&self, x: u32) -> u32 {
        self.psi.apply(x)
    }
    /// ψ^{−1}.
    pub fn psi_inverse(&self, x: u32) -> u32 {
        self.psi_inv.apply(x)
    }
    /// Map values back to the plan's field: the reference [`Evaluations`].
    pub fn to_field<F: BinaryField>(&self, e: &Evals32) -> Evaluations<F> {
        Evaluations {
            values: e
                .values
                .iter()
                .map(|&x| F::from_bits(self.psi_inv.apply(x) as u64))
                .collect(),
        }
    }
    /// Map reference values into this engine's representation.
    pub fn from_field<F: BinaryField>(&self, e: &Evaluations<F>) -> Evals32 {
        Evals32 {
            values: e
                .values
                .iter()
                .map(|x| self.psi.apply(x.to_bits() as u32))
                .collect(),
        }
    }

    /// Copy an operand (little-endian words, bits ≥ N must be 0) into an N-bit buffer.
    fn load(&self, f: &[u64], buf: &mut [u64]) -> Result<(), AlgebraError> {
        let n = self.n_bits();
        let nw = buf.len();
        let take = f.len().min(nw);
        buf[..take].copy_from_slice(&f[..take]);
        buf[take..].fill(0);
        let over_words = f[take..].iter().rposition(|&w| w != 0).map(|i| take + i);
        let top = if !n.is_multiple_of(64) {
            buf[nw - 1] >> (n % 64)
        } else {
            0
        };
        if let Some(i) = over_words {
            let degree = 64 * i + 63 - f[i].leading_zeros() as usize;
            return Err(AlgebraError::InputTooLong { degree, n });
        }
        if top != 0 {
            let degree = 64 * (nw - 1) + 63 - buf[nw - 1].leading_zeros() as usize;
            return Err(AlgebraError::InputTooLong { degree, n });
        }
        Ok(())
    }

    /// Encode: N LCH bits (`lch` has at least [`Self::n_words`] words) → 2^l values
    /// `out[i] = ψ(Σ_j r_j g_{j·2^l+i})` (`out` has at least 2^l entries).
    pub fn encode(&self, lch: &[u64], out: &mut [u32]) {
        let np = self.n_points();
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            assert!(
                lch.len() >= 32 * np / 64 && out.len() >= np,
                "encode: short buffers"
            );
            // SAFETY: AVX2 was detected at construction; the lengths were checked.
            unsafe { wide::encode(lch, &mut out[..np], &self.enc_rows) };
            return;
        }
        if np >= 64 {
            let stride = np / 64;
            let mut a = [0u64; 32];
            for (b, o) in out[..np].chunks_exact_mut(64).enumerate() {
                for (j, aj) in a.iter_mut().enumerate() {
                    *aj = lch[j * stride + b];
                }
                transpose32x2(&mut a);
                let (o0, o1) = o.split_at_mut(32);
                for ((x0, x1), &w) in o0.iter_mut().zip(o1.iter_mut()).zip(a.iter()) {
                    *x0 = self.enc.apply(w as u32);
                    *x1 = self.enc.apply((w >> 32) as u32);
                }
            }
        } else {
            for (i, o) in out[..np].iter_mut().enumerate() {
                let x = (0..32).fold(0u32, |acc, j| {
                    acc | ((crate::bits::get(lch, j * np + i) as u32) << j)
                });
                *o = self.enc.apply(x);
            }
        }
    }

    /// Decode: inverse of [`Self::encode`] (writes all N bits of `out`, which has at least
    /// [`Self::n_words`] words).
    pub fn decode(&self, vals: &[u32], out: &mut [u64]) {
        let np = self.n_points();
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            assert!(
                out.len() >= 32 * np / 64 && vals.len() >= np,
                "decode: short buffers"
            );
            // SAFETY: AVX2 was detected at construction; the lengths were checked.
            unsafe { wide::decode(&vals[..np], out, &self.dec_rows) };
            return;
        }
        if np >= 64 {
            let stride = np / 64;
            let mut a = [0u64; 32];
            for (b, v) in vals[..np].chunks_exact(64).enumerate() {
                let (v0, v1) = v.split_at(32);
                for ((aj, &x0), &x1) in a.iter_mut().zip(v0).zip(v1) {
                    *aj = self.dec.apply(x0) as u64 | ((self.dec.apply(x1) as u64) << 32);
                }
                transpose32x2(&mut a);
                for (j, &aj) in a.iter().enumerate() {
                    out[j * stride + b] = aj;
                }
            }
        } else {
            out.fill(0);
            for (i, &v) in vals[..np].iter().enumerate() {
                let x = self.dec.apply(v);
                for j in 0..32 {
                    if (x >> j) & 1 == 1 {
                        crate::bits::flip(out, j * np + i);
                    }
                }
            }
        }
    }

    /// Forward butterflies in place.
    pub fn btfy(&self, v: &mut [u32]) {
        assert_eq!(v.len(), self.n_points(), "btfy: wrong length");
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Vpclmul if self.l >= 4 => {
                // SAFETY: the kernel was checked to be available at construction.
                unsafe { vpclmul::btfy(v, &self.tw, &self.tw1p, &self.tw2x, &self.tw3x) }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Pclmul | Kernel::Vpclmul if self.l >= 3 => {
                // SAFETY: the kernel was checked to be available at construction (VPCLMULQDQ
                // availability includes PCLMULQDQ).
                unsafe { pclmul::btfy(v, &self.tw, &self.tw1p, &self.tw2x) }
            }
            _ => portable_btfy(v, &self.tw),
        }
    }

    /// Inverse butterflies in place.
    pub fn ibtfy(&self, v: &mut [u32]) {
        assert_eq!(v.len(), self.n_points(), "ibtfy: wrong length");
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Vpclmul if self.l >= 4 => {
                // SAFETY: the kernel was checked to be available at construction.
                unsafe { vpclmul::ibtfy(v, &self.tw, &self.tw1p, &self.tw2x, &self.tw3x) }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Pclmul | Kernel::Vpclmul if self.l >= 3 => {
                // SAFETY: as in `btfy`.
                unsafe { pclmul::ibtfy(v, &self.tw, &self.tw1p, &self.tw2x) }
            }
            _ => portable_ibtfy(v, &self.tw),
        }
    }

    /// `a ← a ⊙ b` (pointwise products in [`Poly32`]).
    pub fn pointwise_assign(&self, a: &mut [u32], b: &[u32]) {
        assert_eq!(a.len(), b.len(), "pointwise: lengths differ");
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Pclmul => {
                // SAFETY: the kernel was checked to be available at construction.
                unsafe { pclmul::pointwise(a, b) }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Vpclmul => {
                // SAFETY: the kernel was checked to be available at construction.
                unsafe { vpclmul::pointwise(a, b) }
            }
            _ => {
                for (x, &y) in a.iter_mut().zip(b) {
                    *x = mul_portable(*x, y);
                }
            }
        }
    }

    /// Pointwise product.
    pub fn pointwise(&self, a: &Evals32, b: &Evals32) -> Evals32 {
        let mut v = a.values.clone();
        self.pointwise_assign(&mut v, &b.values);
        Evals32 { values: v }
    }

    /// Forward transform of little-endian words (bits ≥ N must be zero) into `out` (2^l values).
    pub fn forward_into(&self, f: &[u64], out: &mut [u32]) -> Result<(), AlgebraError> {
        if out.len() != self.n_points() {
            return Err(AlgebraError::LengthMismatch {
                expected: self.n_points(),
                got: out.len(),
            });
        }
        let mut buf = vec![0u64; self.n_words()];
        self.load(f, &mut buf)?;
        let nz = buf.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        basis_cvt_prefix(&mut buf, self.l + 5, nz);
        self.encode(&buf, out);
        self.btfy(out);
        Ok(())
    }

    /// Forward transform of little-endian words.
    pub fn forward_words(&self, f: &[u64]) -> Result<Evals32, AlgebraError> {
        let mut v = vec![0u32; self.n_points()];
        self.forward_into(f, &mut v)?;
        Ok(Evals32 { values: v })
    }

    /// Forward transform of a binary polynomial of degree < N.
    pub fn forward(&self, f: &Poly) -> Result<Evals32, AlgebraError> {
        self.forward_words(f.words())
    }

    /// Inverse transform, consuming the values in `v` (used as scratch): writes the N bits of the
    /// unique binary polynomial of degree < N with these values into `out[..n_words]`.
    pub fn inverse_in_place(&self, v: &mut [u32], out: &mut [u64]) -> Result<(), AlgebraError> {
        if v.len() != self.n_points() {
            return Err(AlgebraError::LengthMismatch {
                expected: self.n_points(),
                got: v.len(),
            });
        }
        let nw = self.n_words();
        if out.len() < nw {
            return Err(AlgebraError::LengthMismatch {
                expected: nw,
                got: out.len(),
            });
        }
        self.ibtfy(v);
        let out = &mut out[..nw];
        self.decode(v, out);
        ibasis_cvt(out, self.l + 5);
        Ok(())
    }

    /// Inverse transform.
    pub fn inverse(&self, e: &Evals32) -> Result<Poly, AlgebraError> {
        let mut v = e.values.clone();
        let mut out = vec![0u64; self.n_words()];
        self.inverse_in_place(&mut v, &mut out)?;
        Ok(Poly::from_words(out))
    }

    /// `f·g mod M_β` for binary f, g of degree < N.
    pub fn mul(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        let mut a = self.forward(f)?;
        let b = self.forward(g)?;
        self.pointwise_assign(&mut a.values, &b.values);
        let mut out = vec![0u64; self.n_words()];
        self.inverse_in_place(&mut a.values, &mut out)?;
        Ok(Poly::from_words(out))
    }
}

fn portable_btfy(v: &mut [u32], tw: &[Vec<u32>]) {
    for layer in (1..=tw.len()).rev() {
        let half = 1usize << (layer - 1);
        for (blk, &c) in v.chunks_exact_mut(2 * half).zip(&tw[layer - 1]) {
            let (lo, hi) = blk.split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                *x ^= mul_portable(c, *y);
                *y ^= *x;
            }
        }
    }
}

fn portable_ibtfy(v: &mut [u32], tw: &[Vec<u32>]) {
    for layer in 1..=tw.len() {
        let half = 1usize << (layer - 1);
        for (blk, &c) in v.chunks_exact_mut(2 * half).zip(&tw[layer - 1]) {
            let (lo, hi) = blk.split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                *y ^= *x;
                *x ^= mul_portable(c, *y);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod pclmul;

#[cfg(target_arch = "x86_64")]
mod wide;

#[cfg(target_arch = "x86_64")]
mod vpclmul;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn transpose_is_transpose() {
        let mut s = 0x5eed_1234_9876_abcdu64;
        let mut a = [0u64; 32];
        for w in a.iter_mut() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *w = s;
        }
        let orig = a;
        transpose32x2(&mut a);
        for i in 0..32 {
            for j in 0..32 {
                assert_eq!((a[i] >> j) & 1, (orig[j] >> i) & 1);
                assert_eq!((a[i] >> (32 + j)) & 1, (orig[j] >> (32 + i)) & 1);
            }
        }
    }
}
