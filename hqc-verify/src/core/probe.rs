//! Per-component instrumentation hooks for profiling: `hqc-verify profile` (host, wall-clock
//! time, [`crate::profile`]) and `hqc-verify board --profile` (the emulated Cortex-M4, executed
//! instructions and estimated cycles, `hqc-verify/board/m4kem` and `hqc_board::profile`).
//! Both use the components defined here, and only these.
//!
//! The algorithm brackets each leaf step with [`Probe::enter`]/[`Probe::leave`]; regions
//! never nest (a probe may check it, [`NestCheck`]). [`NoProbe`] compiles to nothing.
//! Everything outside the regions is "other" (the operation's total minus the components).
//!
//! | Component | key | Covers |
//! |---|---|---|
//! | [`Component::Hash`] | `hash` | SHAKE/Keccak of the KEM: G, H(ek), I, J and the XOF(seed_kem) reads of KeyGen |
//! | [`Component::Sampling`] | `sampling` | seed expansion (h from seed_ek) and both fixed-weight samplers, their XOF squeezing included: positions only |
//! | [`Component::SupportExpand`] | `support` | support expansion: positions → dense vector (every `support_to_dense`) |
//! | [`Component::RingHY`] | `ring_hy` | the product s = h·y of KeyGen (x added outside) |
//! | [`Component::RingHR2`] | `ring_hr2` | u = h·r2 of Encrypt, incl. the transform of r2 (`prepare`), and of h when cached |
//! | [`Component::RingSR2`] | `ring_sr2` | s·r2 of Encrypt, incl. the padding correction (§11), and the transform of s when cached |
//! | [`Component::RingUY`] | `ring_uy` | u·y of Decrypt, incl. the transform of y |
//! | [`Component::RsEncode`] / [`Component::RmEncode`] | `rs_enc` / `rm_enc` | the two stages of C.Encode |
//! | [`Component::RmDecode`] / [`Component::RsDecode`] | `rm_dec` / `rs_dec` | the two stages of C.Decode |
//! | [`Component::Compare`] | `compare` | the FO re-encryption compare of Decaps: ct′ = ct in constant time and the K′/K̄ selection |
//!
//! Keccak inside seed expansion and sampling is counted there, not under `hash`.
//! "Other" is serialisation, parsing, copies, XORs of vectors, zeroisation and call glue.

/// A profiled component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// SHAKE/Keccak: G, H, I, J, XOF(seed_kem).
    Hash,
    /// Seed expansion (h) and fixed-weight sampling (positions).
    Sampling,
    /// Support expansion: positions → dense vectors.
    SupportExpand,
    /// s = h·y (KeyGen).
    RingHY,
    /// u = h·r2 (Encrypt), with the transform of r2.
    RingHR2,
    /// s·r2 (Encrypt), with the padding correction.
    RingSR2,
    /// u·y (Decrypt), with the transform of y.
    RingUY,
    /// Reed–Solomon encoding.
    RsEncode,
    /// Reed–Muller encoding.
    RmEncode,
    /// Reed–Muller decoding.
    RmDecode,
    /// Reed–Solomon decoding.
    RsDecode,
    /// The FO re-encryption compare (and the key selection) of Decaps.
    Compare,
}

impl Component {
    /// Number of components.
    pub const COUNT: usize = 12;

    /// All components in table order.
    pub const ALL: [Component; Component::COUNT] = [
        Component::Hash,
        Component::Sampling,
        Component::SupportExpand,
        Component::RingHY,
        Component::RingHR2,
        Component::RingSR2,
        Component::RingUY,
        Component::RsEncode,
        Component::RmEncode,
        Component::RmDecode,
        Component::RsDecode,
        Component::Compare,
    ];

    /// Column label (text tables).
    pub const fn label(self) -> &'static str {
        match self {
            Component::Hash => "SHAKE",
            Component::Sampling => "sampling",
            Component::SupportExpand => "support",
            Component::RingHY => "h*y",
            Component::RingHR2 => "h*r2",
            Component::RingSR2 => "s*r2",
            Component::RingUY => "u*y",
            Component::RsEncode => "RS enc",
            Component::RmEncode => "RM enc",
            Component::RmDecode => "RM dec",
            Component::RsDecode => "RS dec",
            Component::Compare => "compare",
        }
    }

    /// Machine name (JSON keys, the board's marker symbols `m4kem_probe_enter_<key>` /
    /// `m4kem_probe_leave_<key>` and the plugin's region names).
    pub const fn key(self) -> &'static str {
        match self {
            Component::Hash => "hash",
            Component::Sampling => "sampling",
            Component::SupportExpand => "support",
            Component::RingHY => "ring_hy",
            Component::RingHR2 => "ring_hr2",
            Component::RingSR2 => "ring_sr2",
            Component::RingUY => "ring_uy",
            Component::RsEncode => "rs_enc",
            Component::RmEncode => "rm_enc",
            Component::RmDecode => "rm_dec",
            Component::RsDecode => "rs_dec",
            Component::Compare => "compare",
        }
    }

    /// The component of machine name `key`.
    pub fn from_key(key: &str) -> Option<Component> {
        Component::ALL.into_iter().find(|c| c.key() == key)
    }

    /// Index in [`Component::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// True for the ring products.
    pub const fn is_ring_product(self) -> bool {
        matches!(
            self,
            Component::RingHY | Component::RingHR2 | Component::RingSR2 | Component::RingUY
        )
    }
}

/// Receives enter/leave events around each component region.
pub trait Probe {
    /// A region of component `c` starts.
    fn enter(&mut self, c: Component);
    /// The region of component `c` ends.
    fn leave(&mut self, c: Component);
}

/// The probe that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbe;

impl Probe for NoProbe {
    #[inline(always)]
    fn enter(&mut self, _c: Component) {}
    #[inline(always)]
    fn leave(&mut self, _c: Component) {}
}

/// Wraps a probe and counts violations of the region discipline: an `enter` while a region
/// is open, or a `leave` of a region that is not the open one.
#[derive(Clone, Debug, Default)]
pub struct NestCheck<Pr> {
    /// The wrapped probe.
    pub inner: Pr,
    open: Option<Component>,
    /// Violations seen.
    pub violations: u32,
}

impl<Pr> NestCheck<Pr> {
    /// Wraps `inner`.
    pub const fn new(inner: Pr) -> Self {
        NestCheck {
            inner,
            open: None,
            violations: 0,
        }
    }

    /// True when no region is open and no violation was seen.
    pub fn clean(&self) -> bool {
        self.open.is_none() && self.violations == 0
    }
}

impl<Pr: Probe> Probe for NestCheck<Pr> {
    #[inline(always)]
    fn enter(&mut self, c: Component) {
        if self.open.is_some() {
            self.violations = self.violations.saturating_add(1);
        }
        self.open = Some(c);
        self.inner.enter(c);
    }
    #[inline(always)]
    fn leave(&mut self, c: Component) {
        if self.open != Some(c) {
            self.violations = self.violations.saturating_add(1);
        }
        self.open = None;
        self.inner.leave(c);
    }
}

/// Runs `f` inside a region of component `c`.
#[inline(always)]
pub fn region<R, Pr: Probe + ?Sized>(probe: &mut Pr, c: Component, f: impl FnOnce() -> R) -> R {
    probe.enter(c);
    let r = f();
    probe.leave(c);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_indices_are_one_to_one() {
        for (i, c) in Component::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Component::from_key(c.key()), Some(c));
            assert!(c.key().len() < 24 && c.key().is_ascii());
        }
        assert_eq!(Component::from_key("total"), None);
    }

    #[test]
    fn nest_check_sees_nesting() {
        let mut p = NestCheck::new(NoProbe);
        region(&mut p, Component::Hash, || ());
        assert!(p.clean());
        p.enter(Component::Hash);
        p.enter(Component::Sampling);
        p.leave(Component::Sampling);
        assert_eq!(p.violations, 1);
        p.leave(Component::Hash);
        assert_eq!(p.violations, 2);
    }
}
