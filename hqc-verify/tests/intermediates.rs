//! Count-0 intermediate values of all 3 levels × 2 flavours against their committed pins
//! (`kat/entries/count0-intermediates.txt`: SHA-256 of each value's text; every pinned
//! value is recomputed and every recomputed value is pinned). With `$HQC_KAT_DIR` set, the
//! pins are also checked to be those of the official intermediate-values file.

mod common;

use std::collections::BTreeMap;

use common::{kat_dir, sha256_hex};
use hqc_verify::core::code::{rm, rs};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet, MAX_WEIGHT};
use hqc_verify::core::pke::expand_h;
use hqc_verify::core::prng::{kat_seeds, RandomSource, ShakePrng};
use hqc_verify::core::ring::words_to_bytes;
use hqc_verify::core::sampling::{encrypt_supports, keygen_supports};
use hqc_verify::core::xof::{hash_g, hash_h, hash_i, hash_j, Xof};
use hqc_verify::kat::pins::{
    intermediate_pins, intermediates_pin_text, INTERMEDIATES_FILE, INTERMEDIATES_TXT,
};
use hqc_verify::multiplier::ReferenceMul;

/// The recomputed values of one flavour and level, by their names in the official file.
type Values = BTreeMap<&'static str, String>;

fn sorted(s: &[u32]) -> String {
    let mut v = s.to_vec();
    v.sort_unstable();
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn values<P: ParamSet>(flavour: Flavour) -> Values {
    let mut v = Values::new();
    let tag = format!("{} {}", P::LEVEL, flavour);
    let mut seeds = [[0u8; 48]; 1];
    kat_seeds(&mut seeds);
    v.insert("kat_seed(count=0)", hex::encode(seeds[0]));

    let mut prng = ShakePrng::new(&seeds[0], &[]);
    let mut seed_kem = [0u8; 32];
    prng.fill(&mut seed_kem);
    v.insert("seed_kem", hex::encode(seed_kem));
    let mut x = Xof::new(&seed_kem, flavour);
    let mut seed_pke = [0u8; 32];
    x.read(&mut seed_pke);
    let mut sigma = vec![0u8; P::K];
    x.read(&mut sigma);
    v.insert("seed_pke", hex::encode(seed_pke));
    v.insert("sigma", hex::encode(&sigma));
    let (seed_dk, seed_ek) = hash_i(&seed_pke);
    v.insert("seed_dk", hex::encode(seed_dk));
    v.insert("seed_ek", hex::encode(seed_ek));

    let mut y = [0u32; MAX_WEIGHT];
    let mut xs = [0u32; MAX_WEIGHT];
    keygen_supports::<P>(&seed_dk, flavour, &mut y[..P::W], &mut xs[..P::W]);
    v.insert("y_support_sorted", sorted(&y[..P::W]));
    v.insert("x_support_sorted", sorted(&xs[..P::W]));

    let mut h = vec![0u64; P::WORDS];
    expand_h::<P>(&seed_ek, &mut h);
    let mut h64 = [0u8; 64];
    words_to_bytes(&h, &mut h64);
    v.insert("h_first64B_le", hex::encode(h64));

    let kem = Hqc::<P, _>::new(ReferenceMul::new(P::N), flavour).expect("degree matches");
    let (ek, dk) = kem.keygen(&seed_kem);
    v.insert("sha256(pk)", sha256_hex(ek.as_bytes()));

    let mut m = vec![0u8; P::K];
    let mut salt = [0u8; 16];
    prng.fill(&mut m);
    prng.fill(&mut salt);
    v.insert("m", hex::encode(&m));
    v.insert("salt", hex::encode(salt));
    let h_ek = hash_h(ek.as_bytes());
    v.insert("H(ek)", hex::encode(h_ek));
    let (k, theta) = hash_g(&h_ek, &m, &salt);
    v.insert("K", hex::encode(k));
    v.insert("theta", hex::encode(theta));

    let mut r2 = [0u32; MAX_WEIGHT];
    let mut e = [0u32; MAX_WEIGHT];
    let mut r1 = [0u32; MAX_WEIGHT];
    encrypt_supports::<P>(
        &theta,
        flavour,
        &mut r2[..P::WR],
        &mut e[..P::WE],
        &mut r1[..P::WR],
    );
    v.insert("r2_support_sorted", sorted(&r2[..P::WR]));
    v.insert("e_support_sorted", sorted(&e[..P::WE]));
    v.insert("r1_support_sorted", sorted(&r1[..P::WR]));

    let mut cw = vec![0u8; P::N1];
    rs::encode::<P>(&m, &mut cw);
    v.insert("RS_codeword(n1 bytes)", hex::encode(&cw));
    let mut cm = vec![0u64; P::V_WORDS];
    rm::encode::<P>(&cw, &mut cm);
    let mut c64 = [0u8; 64];
    words_to_bytes(&cm, &mut c64);
    v.insert("C.encode(m)_first64B_le", hex::encode(c64));

    let (ct, ss) = kem.encaps(&ek, &m, &salt).expect("message length is k");
    v.insert("sha256(ct)", sha256_hex(ct.as_bytes()));
    assert_eq!(hex::encode(ss.0), hex::encode(k), "{tag}: ss is K");
    let kbar = hash_j(&h_ek, &sigma, ct.as_bytes());
    v.insert("K_reject", hex::encode(kbar));
    assert_eq!(kem.decaps(&dk, &ct), ss, "{tag} decaps");
    v
}

fn values_of(level: Level, flavour: Flavour) -> Values {
    match level {
        Level::Hqc1 => values::<Hqc1>(flavour),
        Level::Hqc3 => values::<Hqc3>(flavour),
        Level::Hqc5 => values::<Hqc5>(flavour),
    }
}

#[test]
fn count0_intermediates_match_the_pins() {
    let pins = intermediate_pins().expect("pins parse");
    for flavour in Flavour::ALL {
        for level in Level::ALL {
            let tag = format!("{level} {flavour}");
            let got = values_of(level, flavour);
            let mine: Vec<_> = pins
                .iter()
                .filter(|p| p.flavour == flavour && p.level == level)
                .collect();
            for p in &mine {
                let v = got
                    .get(p.name.as_str())
                    .unwrap_or_else(|| panic!("{tag}: pinned value {} is not recomputed", p.name));
                assert_eq!(sha256_hex(v.as_bytes()), p.sha256, "{tag} {}: {v}", p.name);
            }
            for name in got.keys() {
                assert!(
                    mine.iter().any(|p| p.name == *name),
                    "{tag}: recomputed value {name} is not pinned"
                );
            }
            assert_eq!(mine.len(), got.len(), "{tag}: one pin per value");
        }
    }
}

#[test]
fn pins_are_those_of_the_official_file() {
    let Some(dir) = kat_dir() else {
        eprintln!("SKIPPED: HQC_KAT_DIR not set; the pins alone are checked");
        return;
    };
    let path = dir.join(INTERMEDIATES_FILE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        intermediates_pin_text(&text).expect("official file parses"),
        INTERMEDIATES_TXT,
        "kat/entries/{INTERMEDIATES_FILE} is stale: regenerate it with `hqc-verify pin --kat-dir DIR`"
    );
}

#[test]
fn malformed_intermediates_file_names_the_line() {
    let e = intermediates_pin_text("variant = v5.0.0\nparam = HQC-1\nno equals sign\n")
        .expect_err("refused");
    assert_eq!(e.line, 3, "{e}");
    let e = intermediates_pin_text("variant = v9\nparam = HQC-1\nm = 00\n").expect_err("refused");
    assert!(e.reason.contains("unknown variant"), "{e}");
}
