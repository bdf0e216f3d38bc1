//! Key caching (`core::keycache`, docs/hqc.md §8.1): cached Encaps/Decaps equal the uncached
//! ones under one reused key and under alternating keys (valid and modified ciphertexts), the
//! lookup compares the whole key, and KAT entries regenerated through the cache match the
//! committed per-entry pins, with the portable and the fafft-crt multiplier.

use std::path::PathBuf;

use hqc_verify::core::kem::{Ciphertext, DecapsKey, EncapsKey, Hqc};
use hqc_verify::core::keycache::{CacheStats, KeyCache};
use hqc_verify::core::mul::{Multiplier, PortableMul};
use hqc_verify::core::params::{Flavour, Hqc1, Level, ParamSet, MAX_K, SALT_BYTES};
use hqc_verify::core::prng::{kat_seeds, RandomSource, ShakePrng};
use hqc_verify::fafft_mul::FafftCrtMul;
use hqc_verify::kat::pins::board_digest;
use sha3::{Digest, Sha3_256};

type Keys = (EncapsKey<Hqc1>, DecapsKey<Hqc1>);

fn keys<M: Multiplier>(kem: &Hqc<Hqc1, M>, n: u8) -> Vec<Keys> {
    (0..n).map(|i| kem.keygen(&[0x40 + i; 32])).collect()
}

fn m_salt(i: usize) -> ([u8; MAX_K], [u8; SALT_BYTES]) {
    let mut p = ShakePrng::new(&[i as u8; 48], b"keycache");
    let mut m = [0u8; MAX_K];
    let mut s = [0u8; SALT_BYTES];
    p.fill(&mut m[..Hqc1::K]);
    p.fill(&mut s);
    (m, s)
}

/// Runs `rounds` Encaps + Decaps (and a Decaps of a modified ciphertext) with and without
/// the cache on the key sequence `pick(i)`, asserting equal results; returns the stats.
fn compare<M: Multiplier>(
    kem: &Hqc<Hqc1, M>,
    ks: &[Keys],
    rounds: usize,
    pick: impl Fn(usize) -> usize,
) -> CacheStats {
    let mut cache = KeyCache::<Hqc1, M>::new();
    for i in 0..rounds {
        let (ek, dk) = &ks[pick(i)];
        let (m, salt) = m_salt(i);
        let (ct, ss) = kem
            .encaps(ek, &m[..Hqc1::K], &salt)
            .expect("k-byte message");
        let (ct_c, ss_c) = kem
            .encaps_cached(&mut cache, ek, &m[..Hqc1::K], &salt)
            .expect("k-byte message");
        assert!(ct == ct_c && ss == ss_c, "round {i}: cached Encaps differs");
        let d = kem.decaps(dk, &ct);
        assert_eq!(d, ss, "round {i}: Decaps");
        assert_eq!(
            kem.decaps_cached(&mut cache, dk, &ct),
            d,
            "round {i}: cached Decaps"
        );
        let mut bad = ct.as_bytes().to_vec();
        let at = (i * 997) % bad.len();
        bad[at] ^= 1;
        let bad = Ciphertext::<Hqc1>::from_bytes(&bad).expect("ct length");
        let r = kem.decaps(dk, &bad);
        assert_ne!(r, ss, "round {i}: a modified ct is rejected");
        assert_eq!(
            kem.decaps_cached(&mut cache, dk, &bad),
            r,
            "round {i}: rejection"
        );
    }
    cache.stats()
}

fn one_and_alternating<M: Multiplier>(mul: M) {
    let kem = Hqc::<Hqc1, _>::new(mul, Flavour::V2026_02).expect("HQC-1 multiplier");
    let ks = keys(&kem, 2);
    // One key: a miss at the first lookup, hits after (3 ek and 2 dk lookups per round).
    let s = compare(&kem, &ks, 4, |_| 0);
    let want = CacheStats {
        hits: 11,
        misses: 1,
        dk_hits: 7,
        dk_misses: 1,
    };
    assert_eq!(s, want);
    // Alternating keys: every round starts with a miss of ek and of dk.
    let s = compare(&kem, &ks, 4, |i| i % 2);
    let want = CacheStats {
        hits: 8,
        misses: 4,
        dk_hits: 4,
        dk_misses: 4,
    };
    assert_eq!(s, want);
}

#[test]
fn portable_one_key_and_alternating_keys() {
    one_and_alternating(PortableMul::<Hqc1>::new());
}

fn fafft_crt() -> FafftCrtMul {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../results/export/hqc1-published/params.json");
    FafftCrtMul::from_params_file(&p, Hqc1::N).expect("committed HQC-1 export loads")
}

#[test]
fn fafft_crt_one_key_and_alternating_keys() {
    one_and_alternating(fafft_crt());
}

#[test]
fn lookup_compares_the_whole_key() {
    let kem = Hqc::<Hqc1, _>::new(PortableMul::<Hqc1>::new(), Flavour::V5_0_0).expect("kem");
    let (ek, _) = kem.keygen(&[7; 32]);
    let mut cache = KeyCache::<Hqc1, PortableMul<Hqc1>>::new();
    assert!(!cache.lookup(ek.as_bytes(), &mut hqc_verify::core::probe::NoProbe));
    assert!(cache.lookup(ek.as_bytes(), &mut hqc_verify::core::probe::NoProbe));
    for pos in [0, Hqc1::EK_BYTES / 2, Hqc1::EK_BYTES - 1] {
        let mut other = ek.as_bytes().to_vec();
        other[pos] ^= 0x80;
        let mut c2 = KeyCache::<Hqc1, PortableMul<Hqc1>>::new();
        c2.lookup(ek.as_bytes(), &mut hqc_verify::core::probe::NoProbe);
        assert!(
            !c2.lookup(&other, &mut hqc_verify::core::probe::NoProbe),
            "byte {pos} differs: must miss"
        );
    }
    assert!(KeyCache::<Hqc1, PortableMul<Hqc1>>::ram_bytes() >= Hqc1::EK_BYTES + 32);
}

/// KAT entries 0..5 of both flavours through one cache (a miss per entry, then hits), judged
/// by the committed board digests SHA3-256(pk || sk || ct || ss).
#[test]
fn kat_entries_through_the_cache_match_the_pins() {
    let mut seeds = [[0u8; 48]; 5];
    kat_seeds(&mut seeds);
    for flavour in [Flavour::V5_0_0, Flavour::V2026_02] {
        let kem = Hqc::<Hqc1, _>::new(PortableMul::<Hqc1>::new(), flavour).expect("kem");
        let mut cache = KeyCache::<Hqc1, PortableMul<Hqc1>>::new();
        for (i, seed) in seeds.iter().enumerate() {
            let mut prng = ShakePrng::new(seed, &[]);
            let mut seed_kem = [0u8; 32];
            let mut m = [0u8; MAX_K];
            let mut salt = [0u8; SALT_BYTES];
            prng.fill(&mut seed_kem);
            prng.fill(&mut m[..Hqc1::K]);
            prng.fill(&mut salt);
            let (ek, dk) = kem.keygen(&seed_kem);
            let (ct, ss) = kem
                .encaps_cached(&mut cache, &ek, &m[..Hqc1::K], &salt)
                .expect("k-byte message");
            assert_eq!(kem.decaps_cached(&mut cache, &dk, &ct), ss, "entry {i}");
            let mut h = Sha3_256::new();
            for part in [ek.as_bytes(), dk.as_bytes(), ct.as_bytes(), ss.as_bytes()] {
                h.update(part);
            }
            let got = hex::encode(h.finalize());
            let pin = board_digest(flavour, Level::Hqc1, i)
                .expect("pins parse")
                .expect("entry pinned");
            assert_eq!(got, pin, "{flavour:?} entry {i}");
        }
        let want = CacheStats {
            hits: 5,
            misses: 5,
            dk_hits: 0,
            dk_misses: 5,
        };
        assert_eq!(cache.stats(), want);
    }
}
