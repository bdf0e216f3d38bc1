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
//! * **Decaps** also keeps the decapsulation key and its prepared y (the third fixed
//!   multiplicand, u·y): looked up by a constant-time compare of the whole dk (secret), and on a
//!   miss re-derived from seed_dk and transformed. The stored dk is zeroized when dropped.
//!
//! Results are identical to the uncached operations (tests/keycache.rs). Branching on hit or
//! miss reveals only whether the same key is presented again, not its bytes.

use super::ct::{ct_eq_bytes, zeroize};
use super::mul::Multiplier;
use super::params::{Buffer, Flavour, ParamSet, SEED_BYTES};
use super::pke::{self, EncryptionKey};
use super::probe::{region, Component, Probe};
use super::xof::hash_h;

/// One cached key.
struct Entry<P: ParamSet, M: Multiplier> {
    ek: P::Ek,
    h_ek: [u8; 32],
    key: EncryptionKey<P, M>,
}

/// A cached decapsulation key and its prepared y.
struct DkEntry<P: ParamSet, M: Multiplier> {
    dk: P::Dk,
    y: M::Prepared,
}

impl<P: ParamSet, M: Multiplier> Drop for DkEntry<P, M> {
    fn drop(&mut self) {
        zeroize(self.dk.as_mut());
    }
}

/// Hit and miss counts of a [`KeyCache`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// ek lookups that found the presented key.
    pub hits: u32,
    /// ek lookups that stored a new key.
    pub misses: u32,
    /// dk lookups (Decaps) that found the presented key.
    pub dk_hits: u32,
    /// dk lookups that stored a new key (and its y).
    pub dk_misses: u32,
}

/// A one-entry cache of H(ek) and the transforms of h and s (see the module docs).
pub struct KeyCache<P: ParamSet, M: Multiplier> {
    entry: Option<Entry<P, M>>,
    dk_entry: Option<DkEntry<P, M>>,
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
            dk_entry: None,
            stats: CacheStats {
                hits: 0,
                misses: 0,
                dk_hits: 0,
                dk_misses: 0,
            },
        }
    }

    /// Hit and miss counts since creation.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// Drops the cached keys (and their transforms).
    pub fn clear(&mut self) {
        self.dk_entry = None;
        self.entry = None;
    }

    /// Bytes of this cache object itself (the stored ek, H(ek), h, s, and the prepared h, s
    /// as far as they live inside `M::Prepared`; a multiplier that keeps its transforms
    /// elsewhere, like the board's C FAFFT slots, reports those separately).
    pub const fn ram_bytes() -> usize {
        core::mem::size_of::<Self>()
    }

    /// Looks `ek` up (`ek.len() == P::EK_BYTES`): true on a hit. On a miss the key, its hash
    /// and the parsed h, s are stored, without transforms.
    pub fn lookup<Pr: Probe>(&mut self, ek: &[u8], probe: &mut Pr) -> bool {
        entry_for(&mut self.entry, &mut self.stats, ek, probe).1
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
        let (e, _) = entry_for(&mut self.entry, &mut self.stats, ek, probe);
        if e.key.prepared.is_none() {
            e.key.prepare(mul, probe);
        }
        (&e.key, &e.h_ek)
    }

    /// For Decaps with `dk` (`dk.len() == P::DK_BYTES`): [`Self::get`] for its embedded ek,
    /// and the prepared y of `dk` (constant-time compare of the whole dk; on a miss y is
    /// re-derived from seed_dk in `flavour` and transformed). Returns the parsed key, H(ek)
    /// and the prepared y.
    pub fn get_decaps<Pr: Probe>(
        &mut self,
        dk: &[u8],
        flavour: Flavour,
        mul: &M,
        probe: &mut Pr,
    ) -> (&EncryptionKey<P, M>, &[u8; 32], &M::Prepared) {
        let hit = matches!(&self.dk_entry, Some(d) if ct_eq_bytes(d.dk.as_ref(), dk) == 0xFF);
        if hit {
            self.stats.dk_hits = self.stats.dk_hits.wrapping_add(1);
        } else {
            self.stats.dk_misses = self.stats.dk_misses.wrapping_add(1);
            // Free the old y (and its transform) first.
            self.dk_entry = None;
        }
        let (e, _) = entry_for(&mut self.entry, &mut self.stats, &dk[..P::EK_BYTES], probe);
        if e.key.prepared.is_none() {
            e.key.prepare(mul, probe);
        }
        let d = self.dk_entry.get_or_insert_with(|| {
            let mut seed = [0u8; 32];
            seed.copy_from_slice(&dk[P::EK_BYTES..P::EK_BYTES + SEED_BYTES]);
            let mut y = P::Poly::zeroed();
            pke::decryption_y::<P, Pr>(&seed, flavour, y.as_mut(), probe);
            let py = region(probe, Component::RingUY, || mul.prepare(y.as_ref()));
            zeroize(y.as_mut());
            zeroize(&mut seed);
            let mut stored = P::Dk::zeroed();
            stored.as_mut().copy_from_slice(dk);
            DkEntry { dk: stored, y: py }
        });
        (&e.key, &e.h_ek, &d.y)
    }
}

/// The entry for `ek` (`ek.len() == P::EK_BYTES`) in `slot` and whether it was a hit. On a
/// miss the old entry is dropped, and the key, its hash and the parsed h, s are stored,
/// without transforms.
fn entry_for<'a, P: ParamSet, M: Multiplier, Pr: Probe>(
    slot: &'a mut Option<Entry<P, M>>,
    stats: &mut CacheStats,
    ek: &[u8],
    probe: &mut Pr,
) -> (&'a mut Entry<P, M>, bool) {
    let hit = matches!(slot, Some(e) if ct_eq_bytes(e.ek.as_ref(), ek) == 0xFF);
    if hit {
        stats.hits = stats.hits.wrapping_add(1);
    } else {
        stats.misses = stats.misses.wrapping_add(1);
        // Free the old transforms before new ones are built.
        *slot = None;
    }
    let e = slot.get_or_insert_with(|| {
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
