//! Count-0 intermediate values of all 3 levels × 2 flavours against
//! `shared/kat/count0-intermediates.txt` (parsed here; every field is checked).

mod common;

use std::collections::BTreeMap;

use common::{kat_dir, sha256_hex, unhex};
use hqc_verify::core::code::{rm, rs};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, MAX_WEIGHT};
use hqc_verify::core::pke::expand_h;
use hqc_verify::core::prng::{kat_seeds, RandomSource, ShakePrng};
use hqc_verify::core::ring::words_to_bytes;
use hqc_verify::core::sampling::{encrypt_supports, keygen_supports};
use hqc_verify::core::xof::{hash_g, hash_h, hash_i, hash_j, Xof};
use hqc_verify::multiplier::ReferenceMul;

type Block = BTreeMap<String, String>;

fn parse_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut cur = Block::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !cur.is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let (k, _) = line.split_once(" = ").expect("`key = value` line");
        let v = line.rsplit_once(" = ").expect("`key = value` line").1;
        cur.insert(k.trim().to_string(), v.trim().to_string());
    }
    if !cur.is_empty() {
        blocks.push(cur);
    }
    blocks
}

fn get<'a>(b: &'a Block, k: &str) -> &'a str {
    b.get(k)
        .unwrap_or_else(|| panic!("field {k} missing in {:?}", b.get("param")))
}

fn sorted(s: &[u32]) -> String {
    let mut v = s.to_vec();
    v.sort_unstable();
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn check<P: ParamSet>(b: &Block, flavour: Flavour) {
    let tag = format!("{} {}", P::LEVEL, flavour);
    let mut seeds = [[0u8; 48]; 1];
    kat_seeds(&mut seeds);
    assert_eq!(
        hex::encode(seeds[0]),
        get(b, "kat_seed(count=0)"),
        "{tag} seed"
    );

    let mut prng = ShakePrng::new(&seeds[0], &[]);
    let mut seed_kem = [0u8; 32];
    prng.fill(&mut seed_kem);
    assert_eq!(hex::encode(seed_kem), get(b, "seed_kem"), "{tag}");
    let mut x = Xof::new(&seed_kem, flavour);
    let mut seed_pke = [0u8; 32];
    x.read(&mut seed_pke);
    let mut sigma = vec![0u8; P::K];
    x.read(&mut sigma);
    assert_eq!(hex::encode(seed_pke), get(b, "seed_pke"), "{tag}");
    assert_eq!(hex::encode(&sigma), get(b, "sigma"), "{tag}");
    let (seed_dk, seed_ek) = hash_i(&seed_pke);
    assert_eq!(hex::encode(seed_dk), get(b, "seed_dk"), "{tag}");
    assert_eq!(hex::encode(seed_ek), get(b, "seed_ek"), "{tag}");

    let mut y = [0u32; MAX_WEIGHT];
    let mut xs = [0u32; MAX_WEIGHT];
    keygen_supports::<P>(&seed_dk, flavour, &mut y[..P::W], &mut xs[..P::W]);
    assert_eq!(sorted(&y[..P::W]), get(b, "y_support_sorted"), "{tag} y");
    assert_eq!(sorted(&xs[..P::W]), get(b, "x_support_sorted"), "{tag} x");

    let mut h = vec![0u64; P::WORDS];
    expand_h::<P>(&seed_ek, &mut h);
    let mut h64 = [0u8; 64];
    words_to_bytes(&h, &mut h64);
    assert_eq!(hex::encode(h64), get(b, "h_first64B_le"), "{tag} h");

    let kem = Hqc::<P, _>::new(ReferenceMul::new(P::N), flavour).expect("degree matches");
    let (ek, dk) = kem.keygen(&seed_kem);
    assert_eq!(sha256_hex(ek.as_bytes()), get(b, "sha256(pk)"), "{tag} pk");

    let mut m = vec![0u8; P::K];
    let mut salt = [0u8; 16];
    prng.fill(&mut m);
    prng.fill(&mut salt);
    assert_eq!(hex::encode(&m), get(b, "m"), "{tag}");
    assert_eq!(hex::encode(salt), get(b, "salt"), "{tag}");
    let h_ek = hash_h(ek.as_bytes());
    assert_eq!(hex::encode(h_ek), get(b, "H(ek)"), "{tag}");
    let (k, theta) = hash_g(&h_ek, &m, &salt);
    assert_eq!(hex::encode(k), get(b, "K"), "{tag}");
    assert_eq!(hex::encode(theta), get(b, "theta"), "{tag}");

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
    assert_eq!(
        sorted(&r2[..P::WR]),
        get(b, "r2_support_sorted"),
        "{tag} r2"
    );
    assert_eq!(sorted(&e[..P::WE]), get(b, "e_support_sorted"), "{tag} e");
    assert_eq!(
        sorted(&r1[..P::WR]),
        get(b, "r1_support_sorted"),
        "{tag} r1"
    );

    let mut cw = vec![0u8; P::N1];
    rs::encode::<P>(&m, &mut cw);
    assert_eq!(hex::encode(&cw), get(b, "RS_codeword(n1 bytes)"), "{tag}");
    let mut cm = vec![0u64; P::V_WORDS];
    rm::encode::<P>(&cw, &mut cm);
    let mut c64 = [0u8; 64];
    words_to_bytes(&cm, &mut c64);
    assert_eq!(hex::encode(c64), get(b, "C.encode(m)_first64B_le"), "{tag}");

    let (ct, ss) = kem.encaps(&ek, &m, &salt).expect("message length is k");
    assert_eq!(sha256_hex(ct.as_bytes()), get(b, "sha256(ct)"), "{tag} ct");
    assert_eq!(hex::encode(ss.0), get(b, "K"), "{tag} ss");
    let kbar = hash_j(&h_ek, &sigma, ct.as_bytes());
    assert_eq!(hex::encode(kbar), get(b, "K_reject"), "{tag} K_reject");
    assert_eq!(kem.decaps(&dk, &ct), ss, "{tag} decaps");
    let _ = unhex(get(b, "seed_kem"));
}

#[test]
fn count0_intermediates_all_levels_and_flavours() {
    let Some(dir) = kat_dir() else {
        eprintln!(
            "SKIPPED: shared/kat not found (set HQC_KAT_DIR); count-0 intermediates not checked"
        );
        return;
    };
    let path = dir.join("count0-intermediates.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let blocks = parse_blocks(&text);
    assert_eq!(blocks.len(), 6, "six blocks expected");
    let mut seen = 0;
    for b in &blocks {
        let flavour = match get(b, "variant") {
            v if v.starts_with("v5.0.0") => Flavour::V5_0_0,
            v if v.starts_with("next-release") => Flavour::V2026_02,
            v => panic!("unknown variant {v}"),
        };
        match get(b, "param") {
            "HQC-1" => check::<Hqc1>(b, flavour),
            "HQC-3" => check::<Hqc3>(b, flavour),
            "HQC-5" => check::<Hqc5>(b, flavour),
            p => panic!("unknown param {p}"),
        }
        seen += 1;
    }
    assert_eq!(seen, 6);
}
