//! The (m, l) a search accepts: l < m/2 (the FAFFT's admissibility, `docs/fafft.md` §7.1) and
//! N = m·2^l at most 2^[`MAX_LOG_N`] (the sizes the scans, plans and exports are built for).

use crate::error::{Result, SearchError};

/// Largest supported log2 N (N = m·2^l, the degree of M).
pub const MAX_LOG_N: u32 = 22;

/// Check `l < m/2` and `N = m·2^l ≤ 2^MAX_LOG_N` for m a supported power of two.
pub fn check_ml(m: u32, l: u32) -> Result<()> {
    if l >= m / 2 {
        return Err(SearchError::InadmissibleL { m, l, half: m / 2 });
    }
    if m.trailing_zeros() + l > MAX_LOG_N {
        return Err(SearchError::TooLarge {
            m,
            l,
            max_log: MAX_LOG_N,
        });
    }
    Ok(())
}
