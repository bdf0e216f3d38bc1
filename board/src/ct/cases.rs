//! Case selection on the host: the KAT entries' randomness and the keygen sampler's draws.

use serde::Serialize;

use super::{BoardError, MAX_ENTRY};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::mul::PortableMul;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};
use hqc_verify::core::prng::{RandomSource, ShakePrng};
use hqc_verify::core::sampling::barrett_reduce;
use hqc_verify::core::xof::Xof;

/// seed_kem, m (k bytes), salt of KAT entry `entry` (the outer KAT PRNG, then the entry's
/// PRNG, as the KAT generator and `m4kem_kat_randomness` draw them).
pub fn entry_randomness(entry: usize, k: usize) -> ([u8; 32], Vec<u8>, [u8; 16]) {
    let mut outer = ShakePrng::kat_outer();
    let mut seed = [0u8; 48];
    for _ in 0..=entry {
        outer.fill(&mut seed);
    }
    let mut prng = ShakePrng::new(&seed, &[]);
    let mut seed_kem = [0u8; 32];
    let mut m = vec![0u8; k];
    let mut salt = [0u8; 16];
    prng.fill(&mut seed_kem);
    prng.fill(&mut m);
    prng.fill(&mut salt);
    (seed_kem, m, salt)
}

/// The accepted positions and the number of candidates drawn by one run of the keygen
/// sampler (weight `w`) on `xof`. A test oracle of `core::sampling::sample_keygen` (checked
/// against it position for position): that function is constant time apart from this count,
/// which it does not expose.
pub fn sampler_draws<P: ParamSet>(xof: &mut Xof, flavour: Flavour, w: usize) -> (Vec<u32>, usize) {
    let (n, t) = (P::N as u32, P::REJECTION_THRESHOLD);
    let mut acc: Vec<u32> = Vec::with_capacity(w);
    let mut drawn = 0;
    let mut chunk = vec![0u8; 3 * w];
    let mut pos = chunk.len();
    while acc.len() < w {
        let c = match flavour {
            Flavour::V5_0_0 => {
                if pos >= chunk.len() {
                    xof.read(&mut chunk);
                    pos = 0;
                }
                let b = &chunk[pos..pos + 3];
                pos += 3;
                u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2])
            }
            Flavour::V2026_02 => {
                let mut b = [0u8; 3];
                xof.read(&mut b);
                u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16
            }
        };
        drawn += 1;
        let p = barrett_reduce(c, n, P::BARRETT_MU);
        if c < t && !acc.contains(&p) {
            acc.push(p);
        }
    }
    (acc, drawn)
}

/// Candidates drawn by KeyGen's sampler for y and x (each at least w) from `seed_kem`: the
/// host KeyGen gives seed_dk (bytes EK..EK+32 of the decapsulation key).
pub fn keygen_draws<P: ParamSet>(flavour: Flavour, seed_kem: &[u8; 32]) -> (usize, usize) {
    let hqc = Hqc::<P, PortableMul<P>>::new(PortableMul::new(), flavour);
    let Ok(hqc) = hqc else {
        // PortableMul is made for P::N: cannot fail
        return (0, 0);
    };
    let (_, dk) = hqc.keygen(seed_kem);
    let mut seed_dk = [0u8; 32];
    seed_dk.copy_from_slice(&dk.as_bytes()[P::EK_BYTES..P::EK_BYTES + 32]);
    let mut xof = Xof::new(&seed_dk, flavour);
    let (_, y) = sampler_draws::<P>(&mut xof, flavour, P::W);
    let (_, x) = sampler_draws::<P>(&mut xof, flavour, P::W);
    (y, x)
}

/// One case of the driver, chosen on the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseChoice {
    /// KAT entry.
    pub entry: usize,
    /// Candidates drawn by the keygen sampler for y and for x.
    pub keygen_draws: [usize; 2],
    /// True when no candidate was rejected or repeated a position (draws = w for both).
    pub no_rejection: bool,
}

pub(super) fn choose<P: ParamSet>(
    flavour: Flavour,
    cases: usize,
) -> Result<Vec<CaseChoice>, BoardError> {
    let mut clean = Vec::new();
    let mut rejecting = None;
    for entry in 0..MAX_ENTRY {
        if clean.len() >= cases && rejecting.is_some() {
            break;
        }
        let (seed_kem, _, _) = entry_randomness(entry, P::K);
        let (y, x) = keygen_draws::<P>(flavour, &seed_kem);
        let c = CaseChoice {
            entry,
            keygen_draws: [y, x],
            no_rejection: y == P::W && x == P::W,
        };
        if c.no_rejection && clean.len() < cases {
            clean.push(c);
        } else if !c.no_rejection && rejecting.is_none() {
            rejecting = Some(c);
        }
    }
    if clean.len() < cases {
        return Err(BoardError::Params(format!(
            "fewer than {cases} of KAT entries 0..{MAX_ENTRY} have a keygen without rejected or repeated candidates"
        )));
    }
    clean.extend(rejecting);
    Ok(clean)
}

/// The cases of one level and flavour: the first `cases` KAT entries whose keygen sampler
/// rejects or repeats no candidate (w draws for y and for x), then the first entry whose
/// sampler does (if any below [`MAX_ENTRY`]).
pub fn choose_cases(
    level: Level,
    flavour: Flavour,
    cases: usize,
) -> Result<Vec<CaseChoice>, BoardError> {
    match level {
        Level::Hqc1 => choose::<Hqc1>(flavour, cases),
        Level::Hqc3 => choose::<Hqc3>(flavour, cases),
        Level::Hqc5 => choose::<Hqc5>(flavour, cases),
    }
}
