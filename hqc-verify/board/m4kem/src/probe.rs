//! The board's profiling probe (feature `profile`): every component region of the core
//! (`hqc_verify::core::probe`) is bracketed by calls to two marker functions of its own,
//! `m4kem_probe_enter_<key>` and `m4kem_probe_leave_<key>` (`<key>` = `Component::key`). The
//! counting plugin gets one `pair=<key>:<enter>:<leave>` per component (docs/board.md §13), so
//! each region's instructions and instruction classes are counted exactly.
//!
//! The markers are `#[inline(never)]` functions whose body is an empty `asm!` with a distinct
//! comment: distinct, so that no two are merged, and without `nomem`, so that it is a compiler
//! barrier for memory like the firmware's `bench_start`/`bench_stop`. Regions never nest
//! ([`NestCheck`]); violations are added up in [`VIOLATIONS`] and reported by the harness.

use core::sync::atomic::{AtomicU32, Ordering};

use hqc_verify::core::probe::{Component, NestCheck, Probe};

/// Region-discipline violations seen since reset (an `enter` inside an open region, or a
/// `leave` of another component).
pub static VIOLATIONS: AtomicU32 = AtomicU32::new(0);

macro_rules! markers {
    ($($c:ident => $enter:ident, $leave:ident;)*) => {
        $(
            #[doc = concat!("Start marker of `", stringify!($c), "` regions.")]
            #[unsafe(no_mangle)]
            #[inline(never)]
            pub extern "C" fn $enter() {
                #[cfg(target_arch = "arm")]
                // SAFETY: an empty instruction sequence (a comment).
                unsafe { core::arch::asm!(concat!("@ ", stringify!($enter)), options(nostack, preserves_flags)) };
                #[cfg(not(target_arch = "arm"))]
                core::sync::atomic::compiler_fence(Ordering::SeqCst);
            }
            #[doc = concat!("Stop marker of `", stringify!($c), "` regions.")]
            #[unsafe(no_mangle)]
            #[inline(never)]
            pub extern "C" fn $leave() {
                #[cfg(target_arch = "arm")]
                // SAFETY: an empty instruction sequence (a comment).
                unsafe { core::arch::asm!(concat!("@ ", stringify!($leave)), options(nostack, preserves_flags)) };
                #[cfg(not(target_arch = "arm"))]
                core::sync::atomic::compiler_fence(Ordering::SeqCst);
            }
        )*

        fn enter(c: Component) {
            match c { $(Component::$c => $enter(),)* }
        }

        fn leave(c: Component) {
            match c { $(Component::$c => $leave(),)* }
        }

        /// (component, enter symbol, leave symbol) of every marker pair.
        pub const MARKERS: &[(Component, &str, &str)] =
            &[$((Component::$c, stringify!($enter), stringify!($leave)),)*];
    };
}

markers! {
    Hash => m4kem_probe_enter_hash, m4kem_probe_leave_hash;
    Sampling => m4kem_probe_enter_sampling, m4kem_probe_leave_sampling;
    SupportExpand => m4kem_probe_enter_support, m4kem_probe_leave_support;
    RingHY => m4kem_probe_enter_ring_hy, m4kem_probe_leave_ring_hy;
    RingHR2 => m4kem_probe_enter_ring_hr2, m4kem_probe_leave_ring_hr2;
    RingSR2 => m4kem_probe_enter_ring_sr2, m4kem_probe_leave_ring_sr2;
    RingUY => m4kem_probe_enter_ring_uy, m4kem_probe_leave_ring_uy;
    RsEncode => m4kem_probe_enter_rs_enc, m4kem_probe_leave_rs_enc;
    RmEncode => m4kem_probe_enter_rm_enc, m4kem_probe_leave_rm_enc;
    RmDecode => m4kem_probe_enter_rm_dec, m4kem_probe_leave_rm_dec;
    RsDecode => m4kem_probe_enter_rs_dec, m4kem_probe_leave_rs_dec;
    Compare => m4kem_probe_enter_compare, m4kem_probe_leave_compare;
}

/// Calls the markers of each region.
#[derive(Clone, Copy, Debug, Default)]
pub struct Markers;

impl Probe for Markers {
    #[inline(always)]
    fn enter(&mut self, c: Component) {
        enter(c);
    }
    #[inline(always)]
    fn leave(&mut self, c: Component) {
        leave(c);
    }
}

/// The probe of one KEM operation: the markers, with the region discipline checked.
pub type BoardProbe = NestCheck<Markers>;

/// A fresh probe for one operation.
pub fn probe() -> BoardProbe {
    NestCheck::new(Markers)
}

/// Adds the violations of `p` (and an open region at the end) to [`VIOLATIONS`].
pub fn finish(p: &BoardProbe) {
    let v = p.violations + u32::from(!p.clean() && p.violations == 0);
    VIOLATIONS.fetch_add(v, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_component_has_its_markers() {
        assert_eq!(MARKERS.len(), Component::COUNT);
        for (i, (c, e, l)) in MARKERS.iter().enumerate() {
            assert_eq!(*c, Component::ALL[i]);
            assert_eq!(*e, format!("m4kem_probe_enter_{}", c.key()));
            assert_eq!(*l, format!("m4kem_probe_leave_{}", c.key()));
        }
    }
}
