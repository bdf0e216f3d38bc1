//! The multiplication kernels of the fast engine and the CPU features they need.

/// The multiplication kernel of the butterflies and pointwise products.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Constant-time portable product (integer multiplications with 4-bit holes).
    Portable,
    /// x86-64 PCLMULQDQ + SSE2, four field products per round.
    Pclmul,
    /// x86-64 VPCLMULQDQ + AVX2, eight field products per round.
    Vpclmul,
}

impl Kernel {
    /// All kernels.
    pub const ALL: [Kernel; 3] = [Kernel::Portable, Kernel::Pclmul, Kernel::Vpclmul];

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Pclmul => "pclmulqdq",
            Kernel::Vpclmul => "vpclmulqdq-avx2",
        }
    }

    /// Whether the running CPU supports this kernel.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            Kernel::Pclmul => pclmul_available(),
            Kernel::Vpclmul => vpclmul_available(),
        }
    }

    /// The fastest available kernel.
    pub fn best() -> Kernel {
        if Kernel::Vpclmul.is_available() {
            Kernel::Vpclmul
        } else if Kernel::Pclmul.is_available() {
            Kernel::Pclmul
        } else {
            Kernel::Portable
        }
    }

    /// Kernels usable on this CPU.
    pub fn available() -> Vec<Kernel> {
        Self::ALL.into_iter().filter(|k| k.is_available()).collect()
    }
}

#[cfg(target_arch = "x86_64")]
fn pclmul_available() -> bool {
    std::is_x86_feature_detected!("pclmulqdq") && std::is_x86_feature_detected!("sse2")
}

#[cfg(target_arch = "x86_64")]
fn vpclmul_available() -> bool {
    pclmul_available()
        && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("vpclmulqdq")
}

#[cfg(target_arch = "x86_64")]
pub(super) fn avx2_available() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
pub(super) fn avx2_available() -> bool {
    false
}

#[cfg(not(target_arch = "x86_64"))]
fn pclmul_available() -> bool {
    false
}

#[cfg(not(target_arch = "x86_64"))]
fn vpclmul_available() -> bool {
    false
}
