//! Keccak-f\[1600\] and the one sponge behind SHA3-256, SHA3-512 and SHAKE256 (FIPS 202),
//! docs/hqc.md §5.3.
//!
//! * [`keccak_f1600`]: the portable permutation on 25 64-bit lanes, written from the
//!   specification (θ, ρ, π, χ, ι; lane (x, y) at index x + 5y).
//! * [`PortableState`]: that permutation's state; [`InterleavedState`]: the bit-interleaved
//!   state of the Cortex-M4 routine (`board/m4kem/keccak_f1600.S`, docs/board.md §16): each
//!   lane as the 32-bit word of its even bits and the word of its odd bits, so a 64-bit
//!   rotation is two 32-bit rotations.
//! * [`NativeState`]: the state the hashes use. With feature `m4-asm` on the board
//!   (`target_os = "none"`, Arm) it is [`InterleavedState`] permuted by the Thumb-2 routine;
//!   everywhere else [`PortableState`].
//! * [`Sponge`]: absorb, pad (domain suffix, then `pad10*1`), squeeze in pieces of any size.
//!
//! Everything is constant time: no branch or address depends on the data, only on lengths.

/// Round constants RC\[i\] of ι (FIPS 202 Algorithm 6; the test `round_constants_from_lfsr`
/// regenerates them from rc(t) of Algorithm 5).
pub const ROUND_CONSTANTS: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808A,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808B,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008A,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000A,
    0x0000_0000_8000_808B,
    0x8000_0000_0000_008B,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800A,
    0x8000_0000_8000_000A,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// ρ offsets of lane x + 5y (FIPS 202 Algorithm 2; regenerated in the tests).
pub const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// π as a gather: lane `i` of B = ρ-rotated lane `PI_SRC[i]` of A (B\[y, 2x + 3y\] = A\[x, y\];
/// regenerated in the tests).
const PI_SRC: [usize; 25] = {
    let mut src = [0usize; 25];
    let mut x = 0;
    while x < 5 {
        let mut y = 0;
        while y < 5 {
            src[y + 5 * ((2 * x + 3 * y) % 5)] = x + 5 * y;
            y += 1;
        }
        x += 1;
    }
    src
};

/// Keccak-f\[1600\] on lanes `a[x + 5y]` (24 rounds), portable.
pub fn keccak_f1600(a: &mut [u64; 25]) {
    for rc in ROUND_CONSTANTS {
        // θ
        let c = [
            a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20],
            a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21],
            a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22],
            a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23],
            a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24],
        ];
        let d = [
            c[4] ^ c[1].rotate_left(1),
            c[0] ^ c[2].rotate_left(1),
            c[1] ^ c[3].rotate_left(1),
            c[2] ^ c[4].rotate_left(1),
            c[3] ^ c[0].rotate_left(1),
        ];
        // ρ and π (with θ's D folded in): B[y, 2x + 3y] = rot(A[x, y] ^ D[x], r[x, y]), written
        // out lane by lane so that every rotation amount is a constant
        macro_rules! rho_pi {
            ($($i:literal)*) => {
                [$({
                    const J: usize = PI_SRC[$i];
                    (a[J] ^ d[J % 5]).rotate_left(RHO[J])
                }),*]
            };
        }
        let b: [u64; 25] =
            rho_pi!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
        // χ
        macro_rules! chi {
            ($($y:literal)*) => {
                $(
                    let r = [b[5 * $y], b[5 * $y + 1], b[5 * $y + 2], b[5 * $y + 3], b[5 * $y + 4]];
                    a[5 * $y] = r[0] ^ (!r[1] & r[2]);
                    a[5 * $y + 1] = r[1] ^ (!r[2] & r[3]);
                    a[5 * $y + 2] = r[2] ^ (!r[3] & r[4]);
                    a[5 * $y + 3] = r[3] ^ (!r[4] & r[0]);
                    a[5 * $y + 4] = r[4] ^ (!r[0] & r[1]);
                )*
            };
        }
        chi!(0 1 2 3 4);
        // ι
        a[0] ^= rc;
    }
}

/// Gathers the even bits of `x` into the low half and the odd bits into the high half.
#[inline(always)]
fn unshuffle32(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^= t ^ (t << 8);
    x
}

/// The inverse of [`unshuffle32`].
#[inline(always)]
fn shuffle32(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    x
}

/// A lane as (even bits, odd bits): bit j of the first word is bit 2j of `v`, bit j of the
/// second is bit 2j + 1.
#[inline(always)]
pub fn interleave(v: u64) -> (u32, u32) {
    let lo = unshuffle32(v as u32);
    let hi = unshuffle32((v >> 32) as u32);
    ((lo & 0xFFFF) | (hi << 16), (lo >> 16) | (hi & 0xFFFF_0000))
}

/// The inverse of [`interleave`].
#[inline(always)]
pub fn deinterleave(e: u32, o: u32) -> u64 {
    let lo = shuffle32((e & 0xFFFF) | (o << 16));
    let hi = shuffle32((e >> 16) | (o & 0xFFFF_0000));
    lo as u64 | (hi as u64) << 32
}

/// A Keccak-f\[1600\] state the sponge works on: lanes in, lanes out, the permutation.
pub trait KeccakState {
    /// The all-zero state.
    fn zero() -> Self;
    /// Lane `i` ^= `v` (i < 25, lane (x, y) at x + 5y).
    fn xor_lane(&mut self, i: usize, v: u64);
    /// Lane `i`.
    fn lane(&self, i: usize) -> u64;
    /// Keccak-f\[1600\].
    fn permute(&mut self);
}

/// The state of the portable permutation.
#[derive(Clone)]
pub struct PortableState(pub [u64; 25]);

impl KeccakState for PortableState {
    fn zero() -> Self {
        PortableState([0; 25])
    }
    #[inline]
    fn xor_lane(&mut self, i: usize, v: u64) {
        self.0[i] ^= v;
    }
    #[inline]
    fn lane(&self, i: usize) -> u64 {
        self.0[i]
    }
    fn permute(&mut self) {
        count_permutation();
        keccak_f1600(&mut self.0);
    }
}

/// The bit-interleaved state: lane i is the pair (`0[2i]` even bits, `0[2i + 1]` odd bits),
/// the layout of `board/m4kem/keccak_f1600.S`.
#[derive(Clone)]
pub struct InterleavedState(pub [u32; 50]);

impl KeccakState for InterleavedState {
    fn zero() -> Self {
        InterleavedState([0; 50])
    }
    #[inline]
    fn xor_lane(&mut self, i: usize, v: u64) {
        let (e, o) = interleave(v);
        self.0[2 * i] ^= e;
        self.0[2 * i + 1] ^= o;
    }
    #[inline]
    fn lane(&self, i: usize) -> u64 {
        deinterleave(self.0[2 * i], self.0[2 * i + 1])
    }
    fn permute(&mut self) {
        count_permutation();
        permute_interleaved(&mut self.0);
    }
}

/// Keccak-f\[1600\] on an interleaved state by the portable permutation (deinterleave,
/// [`keccak_f1600`], interleave): the reference of the Thumb-2 routine.
pub fn permute_interleaved_reference(s: &mut [u32; 50]) {
    let mut a = [0u64; 25];
    for (i, l) in a.iter_mut().enumerate() {
        *l = deinterleave(s[2 * i], s[2 * i + 1]);
    }
    keccak_f1600(&mut a);
    for (i, l) in a.iter().enumerate() {
        let (e, o) = interleave(*l);
        s[2 * i] = e;
        s[2 * i + 1] = o;
    }
}

/// Keccak-f\[1600\] on an interleaved state: the Thumb-2 routine `hqc_keccak_f1600_m4` on the
/// board with feature `m4-asm`, else [`permute_interleaved_reference`].
#[inline]
pub fn permute_interleaved(s: &mut [u32; 50]) {
    #[cfg(all(feature = "m4-asm", target_os = "none", target_arch = "arm"))]
    {
        extern "C" {
            fn hqc_keccak_f1600_m4(state: *mut u32);
        }
        // SAFETY: the routine reads and writes the 50 words of `s`, uses 436 bytes of stack
        // (`push {r4-r11, lr}`: 36 bytes, then a 400-byte frame: two state buffers) and the
        // FPU registers s0-s15 (caller-saved), and follows the AAPCS.
        unsafe { hqc_keccak_f1600_m4(s.as_mut_ptr()) }
    }
    #[cfg(not(all(feature = "m4-asm", target_os = "none", target_arch = "arm")))]
    permute_interleaved_reference(s);
}

/// The state the hashes of the core use (see the module documentation).
#[cfg(all(feature = "m4-asm", target_os = "none", target_arch = "arm"))]
pub type NativeState = InterleavedState;
/// The state the hashes of the core use (see the module documentation).
#[cfg(not(all(feature = "m4-asm", target_os = "none", target_arch = "arm")))]
pub type NativeState = PortableState;

#[cfg(feature = "std")]
std::thread_local! {
    static PERMUTATIONS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

#[inline(always)]
fn count_permutation() {
    #[cfg(feature = "std")]
    PERMUTATIONS.with(|c| c.set(c.get() + 1));
}

/// Keccak-f\[1600\] calls of the sponges of this thread so far (host builds only; for the
/// per-operation counts of docs/board.md §16).
#[cfg(feature = "std")]
pub fn permutation_count() -> u64 {
    PERMUTATIONS.with(|c| c.get())
}

/// The largest rate used (SHAKE256, SHA3-256: 136 bytes).
pub const MAX_RATE: usize = 136;
/// Domain suffix of SHA3 (bits 01, then the first padding bit).
pub const SHA3_SUFFIX: u8 = 0x06;
/// Domain suffix of SHAKE (bits 1111, then the first padding bit).
pub const SHAKE_SUFFIX: u8 = 0x1F;

/// The Keccak\[c\] sponge with rate `rate` bytes (a multiple of 8, at most [`MAX_RATE`]).
///
/// Absorbing after the first squeeze is not possible: [`Sponge::squeeze`] pads first.
#[derive(Clone)]
pub struct Sponge<S: KeccakState> {
    state: S,
    /// Absorbing: the bytes of the current block. Squeezing: the current output block.
    buf: [u8; MAX_RATE],
    rate: usize,
    /// Absorbing: bytes in `buf`; squeezing: bytes of `buf` already read.
    pos: usize,
    /// Squeezing: bytes of the current output block extracted into `buf` so far (a multiple
    /// of 8: lanes are extracted when first read, so a short read extracts only its lanes).
    ready: usize,
    suffix: u8,
    squeezing: bool,
}

fn xor_block<S: KeccakState>(state: &mut S, block: &[u8]) {
    for (i, w) in block.chunks_exact(8).enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        state.xor_lane(i, u64::from_le_bytes(b));
    }
}

/// Lanes `first`, `first + 1`, .. of `state` as bytes into `block` (whole lanes).
fn extract_block<S: KeccakState>(state: &S, first: usize, block: &mut [u8]) {
    for (i, w) in block.chunks_exact_mut(8).enumerate() {
        w.copy_from_slice(&state.lane(first + i).to_le_bytes());
    }
}

impl<S: KeccakState> Sponge<S> {
    /// An empty sponge of rate `rate` bytes, a multiple of 8 in 8 ..= [`MAX_RATE`]: private,
    /// only the three named constructors below call it, with the constants 136 or 72 (and a
    /// bad rate is a debug assertion). The clamp is a no-op on those; it stays because it
    /// lets the compiler bound the rate (measured: without it the board KEM of hqc1-lightest
    /// executes 111 more instructions in KeyGen, 74 more in Encaps).
    fn new(rate: usize, suffix: u8) -> Self {
        debug_assert!((8..=MAX_RATE).contains(&rate) && rate.is_multiple_of(8));
        let rate = rate.clamp(8, MAX_RATE) & !7;
        Sponge {
            state: S::zero(),
            buf: [0; MAX_RATE],
            rate,
            pos: 0,
            ready: 0,
            suffix,
            squeezing: false,
        }
    }

    /// SHA3-256.
    pub fn sha3_256() -> Self {
        Self::new(136, SHA3_SUFFIX)
    }

    /// SHA3-512.
    pub fn sha3_512() -> Self {
        Self::new(72, SHA3_SUFFIX)
    }

    /// SHAKE256.
    pub fn shake256() -> Self {
        Self::new(136, SHAKE_SUFFIX)
    }

    /// Absorbs `data`. Must not be called after the first squeeze (a debug assertion; in a
    /// release build the data would be ignored, since [`Sponge::squeeze`] has already padded).
    pub fn absorb(&mut self, mut data: &[u8]) {
        debug_assert!(!self.squeezing, "Sponge::absorb after squeeze");
        if self.squeezing {
            return;
        }
        let rate = self.rate;
        if self.pos > 0 {
            let take = (rate - self.pos).min(data.len());
            self.buf[self.pos..self.pos + take].copy_from_slice(&data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < rate {
                return;
            }
            xor_block(&mut self.state, &self.buf[..rate]);
            self.state.permute();
            self.pos = 0;
        }
        while data.len() >= rate {
            xor_block(&mut self.state, &data[..rate]);
            self.state.permute();
            data = &data[rate..];
        }
        self.buf[..data.len()].copy_from_slice(data);
        self.pos = data.len();
    }

    fn pad(&mut self) {
        let rate = self.rate;
        self.buf[self.pos..rate].fill(0);
        self.buf[self.pos] ^= self.suffix;
        self.buf[rate - 1] ^= 0x80;
        xor_block(&mut self.state, &self.buf[..rate]);
        self.state.permute();
        self.pos = 0;
        self.ready = 0;
        self.squeezing = true;
    }

    /// Makes bytes `..end` (`end` <= rate) of the current output block available in `buf`.
    /// How many lanes this extracts depends only on the lengths read.
    #[inline(always)]
    fn extract_to(&mut self, end: usize) {
        if self.ready < end {
            self.extract_lanes(end);
        }
    }

    #[inline(never)]
    fn extract_lanes(&mut self, end: usize) {
        let (from, to) = (self.ready, end.div_ceil(8) * 8);
        extract_block(&self.state, from / 8, &mut self.buf[from..to]);
        self.ready = to;
    }

    /// Squeezes the next `out.len()` bytes (pads on the first call).
    pub fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
            self.pad();
        }
        let rate = self.rate;
        let mut done = 0;
        while done < out.len() {
            if self.pos == rate {
                self.state.permute();
                self.pos = 0;
                self.ready = 0;
            }
            if self.pos == 0 && self.ready == 0 && out.len() - done >= rate {
                // a whole fresh block: its lanes straight into `out`, none into `buf`
                extract_block(&self.state, 0, &mut out[done..done + rate]);
                self.pos = rate;
                done += rate;
                continue;
            }
            let take = (rate - self.pos).min(out.len() - done);
            self.extract_to(self.pos + take);
            out[done..done + take].copy_from_slice(&self.buf[self.pos..self.pos + take]);
            self.pos += take;
            done += take;
        }
    }
}

impl<S: KeccakState> Sponge<S> {
    /// The next `8·out.len()` bytes (same as [`Sponge::squeeze`]) as little-endian words.
    /// From a lane boundary the words are the state's lanes themselves: no byte buffer, no
    /// copy, no byte-to-word conversion. The branches depend only on the lengths read.
    pub fn squeeze_words(&mut self, out: &mut [u64]) {
        if !self.squeezing {
            self.pad();
        }
        let rate = self.rate;
        let mut done = 0;
        while done < out.len() {
            if self.pos == rate {
                self.state.permute();
                self.pos = 0;
                self.ready = 0;
            }
            if self.pos.is_multiple_of(8) {
                let first = self.pos / 8;
                let take = (rate / 8 - first).min(out.len() - done);
                for (j, w) in out[done..done + take].iter_mut().enumerate() {
                    *w = self.state.lane(first + j);
                }
                self.pos += 8 * take;
                done += take;
            } else {
                let mut b = [0u8; 8];
                self.squeeze(&mut b);
                out[done] = u64::from_le_bytes(b);
                done += 1;
            }
        }
    }

    /// The next `N` bytes (same as [`Sponge::squeeze`]); short reads inside the current block
    /// are a fixed-size copy. The branch depends only on how many bytes were read.
    #[inline]
    pub fn squeeze_array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        // `ready` is 0 until the first squeeze, so this also means "squeezing"
        if self.pos + N <= self.ready {
            out.copy_from_slice(&self.buf[self.pos..self.pos + N]);
            self.pos += N;
        } else {
            self.squeeze(&mut out);
            // short reads come in runs (the samplers): the rest of the block at once
            if self.pos < self.rate {
                self.extract_to(self.rate);
            }
        }
        out
    }
}

/// SHA3-256 of the concatenation of `parts`.
pub fn sha3_256(parts: &[&[u8]]) -> [u8; 32] {
    let mut s = Sponge::<NativeState>::sha3_256();
    for p in parts {
        s.absorb(p);
    }
    let mut out = [0u8; 32];
    s.squeeze(&mut out);
    out
}

/// SHA3-512 of the concatenation of `parts`.
pub fn sha3_512(parts: &[&[u8]]) -> [u8; 64] {
    let mut s = Sponge::<NativeState>::sha3_512();
    for p in parts {
        s.absorb(p);
    }
    let mut out = [0u8; 64];
    s.squeeze(&mut out);
    out
}

#[cfg(test)]
mod tests;
