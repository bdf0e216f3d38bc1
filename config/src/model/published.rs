//! Published and notable shifts β and configurations, with their sources, in ONE place
//! (`docs/fafft.md` §8.1, `docs/test-vectors.md` §5; docs/params-json.md for the exported
//! configurations). Every reader (`search crt`, `search plot`, the notebooks' tables through
//! the exported files, `hqc-verify`) takes them from here.

use crate::model::transform::Chain;

/// β of the published Cortex-M4 artifact (HQC-1 with l = 10, HQC-3 with l = 11): wt(M) = 165
/// for l = 10, 199 for l = 11.
pub const ARTIFACT_BETA: u32 = 0x0010_3674;

/// The canonical shift β = v_16 (HQC-5 with l = 12: wt(M) = 821).
pub const CANONICAL_BETA: u32 = 0x0001_2f9a;

/// The lightest l = 10 modulus of the exhaustive m = 32 scan (`results/moduli-m32-l10.json`):
/// wt(M) = 85.
pub const LIGHTEST_L10_BETA: u32 = 0x0028_b51f;

/// The unique lightest l = 10 modulus with β ∈ V_21 (`results/moduli-m32-l10-within21.json`,
/// the range of the artifact's β): wt(M) = 109, as reported by Jang et al. (β unpublished).
pub const LIGHTEST_L10_V21_BETA: u32 = 0x0011_2dcf;

/// A published configuration (m = 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Published {
    /// Level name.
    pub level: &'static str,
    /// n.
    pub n: u64,
    /// l.
    pub l: u32,
    /// c (0 = no residue ring).
    pub c: u64,
    /// β.
    pub beta: u32,
    /// Chain of the published tables.
    pub chain: Chain,
    /// Source.
    pub source: &'static str,
}

/// The published HQC configurations for m = 32.
pub const PUBLISHED: [Published; 3] = [
    Published {
        level: "HQC-1",
        n: 17_669,
        l: 10,
        c: 3072,
        beta: ARTIFACT_BETA,
        chain: Chain::Artifact,
        source: "HQC-1 published: 2^15 + x^3072, artifact β (ePrint 2026/739)",
    },
    Published {
        level: "HQC-3",
        n: 35_851,
        l: 11,
        c: 8192,
        beta: ARTIFACT_BETA,
        chain: Chain::Artifact,
        source: "HQC-3 published: 2^16 + x^8192, artifact β (ePrint 2026/739)",
    },
    Published {
        level: "HQC-5",
        n: 57_637,
        l: 12,
        c: 0,
        beta: CANONICAL_BETA,
        chain: Chain::Default,
        source: "HQC-5 published: 2^17 alone, canonical β (ePrint 2026/739, IoT-J'25)",
    },
];

/// A published modulus weight for (m, l), with the β that gives it when β is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedWeight {
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// wt(M).
    pub weight: u32,
    /// β, when published.
    pub beta: Option<u32>,
    /// Label with the source.
    pub label: &'static str,
}

/// Published weights (for plot marks and tables).
pub const PUBLISHED_WEIGHTS: [PublishedWeight; 6] = [
    PublishedWeight {
        m: 32,
        l: 10,
        weight: 165,
        beta: Some(ARTIFACT_BETA),
        label: "artifact β 0x00103674 (ePrint 2026/739): 165",
    },
    PublishedWeight {
        m: 32,
        l: 10,
        weight: 109,
        beta: None,
        label: "Jang et al. (β unpublished): 109",
    },
    PublishedWeight {
        m: 32,
        l: 10,
        weight: 501,
        beta: Some(CANONICAL_BETA),
        label: "canonical β = v16: 501",
    },
    PublishedWeight {
        m: 32,
        l: 11,
        weight: 199,
        beta: Some(ARTIFACT_BETA),
        label: "artifact β 0x00103674; Jang et al.: minimal, 199",
    },
    PublishedWeight {
        m: 32,
        l: 11,
        weight: 473,
        beta: Some(CANONICAL_BETA),
        label: "canonical β = v16: 473",
    },
    PublishedWeight {
        m: 32,
        l: 12,
        weight: 821,
        beta: Some(CANONICAL_BETA),
        label: "canonical β = v16 (HQC-5): 821",
    },
];

/// The published weights for (m, l).
pub fn published_weights(m: u32, l: u32) -> impl Iterator<Item = &'static PublishedWeight> {
    PUBLISHED_WEIGHTS
        .iter()
        .filter(move |w| w.m == m && w.l == l)
}
