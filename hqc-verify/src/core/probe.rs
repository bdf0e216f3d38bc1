//! Per-component instrumentation hooks for profiling (used by `hqc-verify profile`).
//!
//! The algorithm brackets each leaf step with [`Probe::enter`]/[`Probe::leave`]; regions
//! never nest. [`NoProbe`] compiles to nothing. What each component covers:
//!
//! | Component | Covers |
//! |---|---|
//! | [`Component::RingMul`] | `prepare` and every ring product, incl. the §11 correction |
//! | [`Component::Hash`] | G, H, I, J, XOF(seed_kem) reads and the expansion of h |
//! | [`Component::Sampling`] | both samplers incl. their XOF squeezing, and support → dense |
//! | [`Component::RsEncode`] / [`Component::RmEncode`] | the two stages of C.Encode |
//! | [`Component::RmDecode`] / [`Component::RsDecode`] | the two stages of C.Decode |
//!
//! Everything else (serialization, XOR of vectors, the comparison) is "other".

/// A profiled component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// Ring products (and `prepare`).
    RingMul,
    /// SHA3 / SHAKE hashing and seed expansion.
    Hash,
    /// Fixed-weight sampling and support expansion.
    Sampling,
    /// Reed–Solomon encoding.
    RsEncode,
    /// Reed–Muller encoding.
    RmEncode,
    /// Reed–Muller decoding.
    RmDecode,
    /// Reed–Solomon decoding.
    RsDecode,
}

impl Component {
    /// All components in table order.
    pub const ALL: [Component; 7] = [
        Component::RingMul,
        Component::Hash,
        Component::Sampling,
        Component::RsEncode,
        Component::RmEncode,
        Component::RmDecode,
        Component::RsDecode,
    ];

    /// Column label.
    pub const fn label(self) -> &'static str {
        match self {
            Component::RingMul => "ring",
            Component::Hash => "hash",
            Component::Sampling => "sampling",
            Component::RsEncode => "RS enc",
            Component::RmEncode => "RM enc",
            Component::RmDecode => "RM dec",
            Component::RsDecode => "RS dec",
        }
    }

    /// Index in [`Component::ALL`].
    pub const fn index(self) -> usize {
        self as usize
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

/// Runs `f` inside a region of component `c`.
#[inline(always)]
pub fn region<R, Pr: Probe + ?Sized>(probe: &mut Pr, c: Component, f: impl FnOnce() -> R) -> R {
    probe.enter(c);
    let r = f();
    probe.leave(c);
    r
}
