//! Trivial `no_std` kernel for the Cortex-M4 (thumbv7em-none-eabihf): a 32x32 -> 64 carry-less
//! product from integer multiplies (four residue classes of bit positions), exported to C.
#![no_std]

use core::panic::PanicInfo;

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    loop {}
}

/// Carry-less product of two 32-bit polynomials over F2 (bit i = x^i).
#[unsafe(no_mangle)]
pub extern "C" fn m4_clmul32(a: u32, b: u32) -> u64 {
    const M: [u32; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
    let av = [a & M[0], a & M[1], a & M[2], a & M[3]];
    let bv = [b & M[0], b & M[1], b & M[2], b & M[3]];
    let mut r = 0u64;
    for k in 0..4 {
        let mut z = 0u64;
        for i in 0..4 {
            z ^= (av[i] as u64) * (bv[(k + 4 - i) & 3] as u64);
        }
        let m = (M[k] as u64) | ((M[k] as u64) << 32);
        r |= z & m;
    }
    r
}
