//! Key caching for a reused encapsulation key (docs/hqc.md §8.1): an optional, caller-held
//! cache of one ek, its hash H(ek), the parsed h and s and their prepared forms (the
//! multiplier's transforms), used by [`crate::core::kem::Hqc::encaps_cached`] and
//! [`crate::core::kem::Hqc::decaps_cached`].
//!
//! * **Lookup**: the presented ek is compared with the stored one over its full length in
//!   constant time ([`ct_eq_bytes`]: every byte is read, no early exit), so the time of a
//!   lookup does not tell how many leading bytes agree.
//! * **Hit**: H(ek), h, s and the transforms of h and s are reused; Encaps then costs one
//!   transform (r2) and two products from prepared operands.
//! * **Miss**: the key and its hash are stored, h and s are parsed, and the transforms are
//!   rebuilt at the next product (the one that needs them, in the same call). The previous
//!   entry is dropped first (its transforms freed).
//!
//! Results are identical to the uncached operations (tests/keycache.rs). The ek is public,
//! so branching on hit/miss is allowed; what the cache holds for Decaps is derived from the
//! dk's embedded ek only (y is not cached).

use super::ct::ct_eq_bytes;
use super::mul::Multiplier;
use super::params::{Buffer, ParamSet};
use super::pke::EncryptionKey;
use super::probe::{region, Component, Probe};
use super::xof::hash_h;

/// One cached key.
struct Entry<P: ParamSet, M: Multiplier> {
    ek: P::Ek,
    h_ek: [u8; 32],
    key: EncryptionKey<P, M>,
}

/// Hit and miss counts of a [`KeyCache`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups that found the presented key.
    pub hits: u32,
    /// Lookups that stored a new key.
    pub misses: u32,
}

/// A one-entry cache of H(ek) and the transforms of h and s (see the module docs).
pub struct KeyCache<P: ParamSet, M: Multiplier> {
    entry: Option<Entry<P, M>>,
    stats: CacheStats,
}

impl<P: ParamSet, M: Multiplier> Default for KeyCache<P, M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: ParamSet, M: Multiplier> KeyCache<P, M> {
    /// An empty cache (`const`, so it can be a static on the board).
    pub const fn new() -> Self {
        KeyCache {
            entry: None,
            stats: CacheStats { hits: 0, misses: 0 },
        }
    }

    /// Hit and miss counts since creation.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// Drops the cached key (and its transforms).
    pub fn clear(&mut self) {
        self.entry = None;
    }

    /// Bytes of this cache object itself (the stored ek, H(ek), h, s, and the prepared h, s
    /// as far as they live inside `M::Prepared`; a multiplier that keeps its transforms
    /// elsewhere, like the board's C FAFFT slots, reports those separately).
    pub const fn ram_bytes() -> usize {
        core::mem::size_of::<Self>()
    }

    /// The entry for `ek` (`ek.len() == P::EK_BYTES`) and whether it was a hit. On a miss the
    /// old entry is dropped, and the key, its hash and the parsed h, s are stored, without
    /// transforms.
    fn entry_for<Pr: Probe>(&mut self, ek: &[u8], probe: &mut Pr) -> (&mut Entry<P, M>, bool) {
        let hit = matches!(&self.entry, Some(e) if ct_eq_bytes(e.ek.as_ref(), ek) == 0xFF);
        if hit {
            self.stats.hits = self.stats.hits.wrapping_add(1);
        } else {
            self.stats.misses = self.stats.misses.wrapping_add(1);
            // Free the old transforms before new ones are built.
            self.entry = None;
        }
        let e = self.entry.get_or_insert_with(|| {
            let mut stored = P::Ek::zeroed();
            stored.as_mut().copy_from_slice(ek);
            let h_ek = region(probe, Component::Hash, || hash_h(ek));
            let key = EncryptionKey::<P, M>::from_ek(ek, probe);
            Entry {
                ek: stored,
                h_ek,
                key,
            }
        });
        (e, hit)
    }

    /// Looks `ek` up (`ek.len() == P::EK_BYTES`): true on a hit. On a miss the key, its hash
    /// and the parsed h, s are stored, without transforms.
    pub fn lookup<Pr: Probe>(&mut self, ek: &[u8], probe: &mut Pr) -> bool {
        self.entry_for(ek, probe).1
    }

    /// The entry for `ek` with its transforms, building whatever is missing: the lookup, then
    /// the transforms of h and s when the entry has none (after a miss: "rebuilt at the next
    /// product"). Returns the parsed key and H(ek).
    pub fn get<Pr: Probe>(
        &mut self,
        ek: &[u8],
        mul: &M,
        probe: &mut Pr,
    ) -> (&EncryptionKey<P, M>, &[u8; 32]) {
        let (e, _) = self.entry_for(ek, probe);
        if e.key.prepared.is_none() {
            e.key.prepare(mul, probe);
        }
        (&e.key, &e.h_ek)
    }
}
