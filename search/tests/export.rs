//! Tests of the firmware exporter (`search export`) against the published artifact tables
//! (`docs/firmware-layout.md`) and by reloading the exported files into a working multiplier.
//! The rules a configuration must meet and the output folder: `export_errors.rs`; the
//! artifact's drop-in layout: `export_layout.rs`.

mod common;

use algebra::bitmatrix::BitMatrix;
use algebra::cantor::CantorBasis;
use algebra::fafft::FafftPlan;
use algebra::field::Tower;
use algebra::gf2x::{Poly, SparsePoly};
use algebra::modulus::extract_plan_modulus;
use common::export_files::{
    check_program_against_matrix, export_dir, hqc1, parse_arrays, parse_define,
    quick_export as do_export, read_text, run_c_routine, ARTIFACT_BETA,
};
use fafft_config::spec::{Provenance, TOOL_VERSION};
use fafft_config::transform::{self, Chain};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::export::{
    checksum_of, inv_swap32, render, sha256_words, swap32, Derived, ExportConfig,
};
use std::path::Path;

/// The artifact's Encode columns r_j.
const PUBLISHED_R: [u32; 32] = [
    0x00000001, 0x00103674, 0x000842af, 0x2c2a8d4d, 0x0005c683, 0x5e3f5719, 0x4d4955a0, 0xbe378cbe,
    0x00028aaa, 0x36b94fbb, 0x52e802b4, 0xaed15786, 0x72526086, 0xe31f123f, 0x133e2901, 0x50893933,
    0x00011aa4, 0x8e858421, 0xc3bc9e2f, 0x92dbb73c, 0x9f14203a, 0xd4a2b618, 0x865a4cfd, 0xda4d4081,
    0xa5505732, 0x4e561a19, 0x4a08e877, 0x1e964986, 0xf1d2b605, 0x63905160, 0x8347b66a, 0x198a3838,
];
/// The artifact's Decode columns.
const PUBLISHED_D: [u32; 32] = [
    0x00000001, 0x617f1272, 0xe5c9eaa0, 0x276c8878, 0xb2909d26, 0x3687f4eb, 0xf1612ca5, 0x2a8f1229,
    0x1c9565ed, 0xc8d70a9b, 0x5f955eb4, 0x90ac52b4, 0xb5e67dc9, 0x9b69bdb6, 0x5591fb8f, 0x8151e75c,
    0x145d2984, 0x8331c2bb, 0x1c2f6132, 0x22946779, 0x29723b9a, 0xacab61ba, 0x74e754f1, 0xab59cadb,
    0x4df23242, 0x08498f88, 0xb0bbd548, 0xb0eec7d1, 0x6ab8e9f4, 0x6c621624, 0xb0f6614a, 0x4376527e,
];
/// The artifact's γ_0 … γ_10.
const PUBLISHED_G: [u32; 11] = [
    0x00103674, 0x002ae0a0, 0x00599a26, 0x008cb572, 0x011a2440, 0x028a6a54, 0x05c6b394, 0x08427fae,
    0x1036f9c0, 0x2ae076ca, 0x599a429e,
];

/// The 32 columns of a 32 × 32 matrix written row-major as 0/1 entries.
fn cols_of(flat: &[u64]) -> Vec<u32> {
    (0..32)
        .map(|j| (0..32).fold(0u32, |acc, i| acc | ((flat[32 * i + j] as u32) << i)))
        .collect()
}

#[test]
fn swap32_vectors() {
    assert_eq!(swap32(0x44c4_a9ff), 0x7b51_5b15);
    assert_eq!(inv_swap32(0x7b51_5b15), 0x44c4_a9ff);
    // bit permutation of docs/firmware-layout.md §5: plain bit 8q + r → 4r + σ(q), σ = (0, 2, 1, 3)
    let sigma = [0u32, 2, 1, 3];
    for q in 0..4u32 {
        for r in 0..8u32 {
            assert_eq!(swap32(1 << (8 * q + r)), 1 << (4 * r + sigma[q as usize]));
        }
    }
    assert_eq!(swap32(0xff), 0x1111_1111);
    assert_eq!(swap32(0xff00), 0x4444_4444);
    let mut x = 0x1234_5678u32;
    for _ in 0..1000 {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        assert_eq!(inv_swap32(swap32(x)), x);
    }
}

#[test]
fn hqc1_artifact_tables_and_reload() {
    let dir = export_dir("hqc1");
    let out = dir.join("hqc1");
    let e = do_export(&hqc1(), &out, false).expect("export").derived;
    assert_eq!(e.modulus.weight(), 165);
    // the one reader accepts what the exporter wrote
    let v = fafft_config::spec::load(&out.join("params.json"))
        .expect("load")
        .verify()
        .expect("verify");
    assert_eq!(v.params.weight, 165);
    for (name, _) in render(
        &e,
        &Provenance {
            command: "x".into(),
            tool_version: TOOL_VERSION.into(),
        },
    )
    .files
    {
        let bytes = std::fs::read(out.join(&name)).expect("exported file");
        assert!(bytes.is_ascii(), "{name} is not ASCII");
    }

    let pj = check_params_json(&out);
    let m_parsed = check_minpoly_mods(&out, &e);
    let il_poly = check_il(&out, &m_parsed);
    let (enc, em, dm) = check_encode_decode(&out);
    let (ph, gammas) = check_fafft_params(&out);
    let all_g = check_gamma_matrices(&out);
    check_s0(&out);
    check_xor_programs(&out, &pj, &e, &all_g, &enc, (&em, &dm));
    check_reload(&ph, &gammas, &m_parsed, &il_poly);
    let _ = std::fs::remove_dir_all(&dir);
}

/// params.json: checksum, fields.
fn check_params_json(out: &Path) -> serde_json::Value {
    let pj: serde_json::Value =
        serde_json::from_str(&read_text(out, "params.json")).expect("params.json");
    assert_eq!(pj["checksum"].as_str().expect("checksum"), checksum_of(&pj));
    for k in [
        "m",
        "l",
        "n",
        "c",
        "N",
        "beta",
        "basis_top",
        "P",
        "M",
        "IL",
        "encode_columns",
        "decode_columns",
        "chain",
        "gamma",
        "r",
        "weight",
        "residues",
        "tool_version",
        "xor_counts",
        "schema_version",
        "files",
        "config_id",
    ] {
        assert!(pj.get(k).is_some(), "params.json lacks {k}");
    }
    assert_eq!(pj["P"]["hex"], "0x107585e13");
    assert_eq!(pj["weight"], 165);
    assert_eq!(pj["chain"]["kind"], "artifact");
    assert_eq!(
        pj["IL"]["sha256_plain"],
        "b5d2cd61af6bdd6ffac0172adf74f5a75264ce68b7b23f63e4af5e0d115c2ebe"
    );
    assert_eq!(
        pj["IL"]["sha256_swapped"],
        "a52f7243e239b52a429b6e037de6c99e080f732617602fb0c3cf23242ee04c36"
    );
    assert_eq!(
        pj["s0_gft_sha256"],
        "57800d4a4cef6660b12fc0248c3038804555f423637efe8cecd759c864fde1ca"
    );
    // tampering is detected
    let mut bad = pj.clone();
    bad["weight"] = serde_json::json!(166);
    assert_ne!(
        checksum_of(&bad),
        pj["checksum"].as_str().expect("checksum")
    );

    pj
}

/// minpoly_mods_defs.h (docs/firmware-layout.md §4, docs/test-vectors.md §5); returns M as
/// parsed from it.
fn check_minpoly_mods(out: &Path, e: &Derived) -> Poly {
    let mh = read_text(out, "minpoly_mods_defs.h");
    let a = parse_arrays(&mh);
    let m0 = &a["minpoly_mod_0"];
    assert_eq!(&m0[..8], &[1024, 832, 800, 784, 776, 768, 704, 656]);
    assert_eq!(&m0[m0.len() - 4..], &[8, 4, 3, 0]);
    let lens: Vec<u64> = vec![
        55, 19, 15, 6, 12, 0, 0, 0, 18, 4, 4, 1, 3, 0, 0, 0, 12, 4, 3, 1, 4, 0, 0, 0, 3, 0, 0, 0,
        1, 0, 0, 0,
    ];
    assert_eq!(a["minpoly_mod_lens"], lens);
    assert!(mh.contains("static const int minpoly_mod_5[0] = {"));
    assert!(mh.contains("static const int *minpoly_mods[32] = {"));
    let flat = &a["minpoly_flat"];
    let offs = &a["minpoly_offsets"];
    assert_eq!(offs.len(), 33);
    let mut exps = Vec::new();
    for r in 0..32usize {
        let cls = &a[&format!("minpoly_mod_{r}")];
        assert_eq!(cls.len() as u64, lens[r]);
        assert_eq!(
            &flat[offs[r] as usize..offs[r + 1] as usize],
            cls.as_slice()
        );
        assert!(cls.windows(2).all(|w| w[0] > w[1]), "decreasing");
        exps.extend(cls.iter().map(|&q| 32 * q as usize + r));
    }
    let m_parsed = Poly::from_exponents(&exps);
    assert_eq!(m_parsed, e.modulus);

    m_parsed
}

/// IL_defs.h (docs/firmware-layout.md §5); returns IL as a polynomial.
fn check_il(out: &Path, m_parsed: &Poly) -> Poly {
    let ih = read_text(out, "IL_defs.h");
    let ia = parse_arrays(&ih);
    let il_plain: Vec<u32> = ia["IL_plain"].iter().map(|&x| x as u32).collect();
    let il_sw: Vec<u32> = ia["IL_swapped"].iter().map(|&x| x as u32).collect();
    assert_eq!(il_plain.len(), 96);
    assert_eq!(
        &il_plain[..8],
        &[
            0x44c4a9ff, 0x216a4241, 0xafcef800, 0x583fc876, 0x882b6b9b, 0x7e422115, 0xb1d2463f,
            0xd74cdc42
        ]
    );
    assert_eq!(
        &il_plain[92..],
        &[0xbcab44ac, 0xa4b11e99, 0x06d7e886, 0xb2be9e15]
    );
    assert_eq!(&il_sw[..2], &[0x7b515b15, 0x07a02069]);
    assert_eq!(il_sw[95], 0xe0af67e1);
    assert_eq!(ia["IL_swapped_32768"], ia["IL_swapped"]);
    assert!(il_sw
        .iter()
        .zip(&il_plain)
        .all(|(&s, &p)| inv_swap32(s) == p));
    assert_eq!(
        sha256_words(&il_sw),
        "a52f7243e239b52a429b6e037de6c99e080f732617602fb0c3cf23242ee04c36"
    );
    let il_poly = Poly::from_words(
        il_plain
            .chunks(2)
            .map(|c| c[0] as u64 | ((c[1] as u64) << 32))
            .collect(),
    );
    assert!(
        il_poly.mul_mod_xn(m_parsed, 3072).is_one(),
        "IL·M ≡ 1 mod x^c"
    );

    il_poly
}

/// encode_matrix_defs.h (docs/firmware-layout.md §6); returns the Encode columns and both
/// matrices.
fn check_encode_decode(out: &Path) -> (Vec<u32>, BitMatrix, BitMatrix) {
    let eh = read_text(out, "encode_matrix_defs.h");
    let ea = parse_arrays(&eh);
    let enc = cols_of(&ea["encode_matrix"]);
    let dec = cols_of(&ea["decode_matrix"]);
    assert_eq!(enc, PUBLISHED_R);
    assert_eq!(dec, PUBLISHED_D);
    let em = BitMatrix::from_cols(enc.iter().map(|&c| c as u64).collect());
    let dm = BitMatrix::from_cols(dec.iter().map(|&c| c as u64).collect());
    assert!(dm.mul(&em).is_identity(), "Decode·Encode = I");

    (enc, em, dm)
}

/// fafft_params.h; returns its text and its γ table.
fn check_fafft_params(out: &Path) -> (String, Vec<u32>) {
    let ph = read_text(out, "fafft_params.h");
    assert_eq!(parse_define(&ph, "FAFFT_M"), Some(32));
    assert_eq!(parse_define(&ph, "FAFFT_L"), Some(10));
    assert_eq!(parse_define(&ph, "FAFFT_N"), Some(32768));
    assert_eq!(parse_define(&ph, "CRT_C"), Some(3072));
    assert_eq!(parse_define(&ph, "HQC_N"), Some(17669));
    assert_eq!(parse_define(&ph, "FAFFT_BETA"), Some(ARTIFACT_BETA as u64));
    assert_eq!(parse_define(&ph, "FAFFT_P"), Some(0x1_0758_5e13));
    let pa = parse_arrays(&ph);
    let gammas: Vec<u32> = pa["fafft_gamma"].iter().map(|&x| x as u32).collect();
    assert_eq!(gammas, PUBLISHED_G);
    assert_eq!(
        pa["fafft_r"].iter().map(|&x| x as u32).collect::<Vec<_>>(),
        PUBLISHED_R
    );

    (ph, gammas)
}

/// gft_mul_s_inv_i_beta_matrix_defs.h (docs/firmware-layout.md §7): j = 1 … 11, γ_11 =
/// 0x8cb5cc64; returns γ_1 … γ_11.
fn check_gamma_matrices(out: &Path) -> Vec<u32> {
    let gh = read_text(out, "gft_mul_s_inv_i_beta_matrix_defs.h");
    assert_eq!(parse_define(&gh, "FAFFT_GFT_MATRICES"), Some(11));
    assert_eq!(parse_define(&gh, "FAFFT_HAVE_GAMMA_11"), Some(1));
    let ga = parse_arrays(&gh);
    let mut all_g = PUBLISHED_G[1..].to_vec();
    all_g.push(0x8cb5cc64);
    for (j, &g) in (1..=11).zip(&all_g) {
        let cols = cols_of(&ga[&format!("gft_mul_s_inv_{j}_beta_matrix")]);
        for (q, &c) in cols.iter().enumerate() {
            assert_eq!(c, transform::tmul(g, 1 << q), "γ_{j} column {q}");
        }
    }

    all_g
}

/// btfy_consts_gft.h (docs/firmware-layout.md §8).
fn check_s0(out: &Path) {
    let sh = read_text(out, "btfy_consts_gft.h");
    let s0: Vec<u32> = parse_arrays(&sh)["s0_gft"]
        .iter()
        .map(|&x| x as u32)
        .collect();
    assert_eq!(
        &s0[..16],
        &[
            0x000, 0x002, 0x005, 0x007, 0x009, 0x00b, 0x00c, 0x00e, 0x013, 0x011, 0x016, 0x014,
            0x01a, 0x018, 0x01f, 0x01d
        ]
    );
    assert_eq!(s0[2047], 0xfad);
    assert_eq!(
        sha256_words(&s0),
        "57800d4a4cef6660b12fc0248c3038804555f423637efe8cecd759c864fde1ca"
    );
}

/// gen_xor_programs.h: interpret the emitted C and compare with the matrices.
fn check_xor_programs(
    out: &Path,
    pj: &serde_json::Value,
    e: &Derived,
    all_g: &[u32],
    enc: &[u32],
    (em, dm): (&BitMatrix, &BitMatrix),
) {
    let xh = read_text(out, "gen_xor_programs.h");
    assert_eq!(parse_define(&xh, "HAVE_GEN_XOR"), Some(1));
    for (j, &g) in (1..=11).zip(all_g) {
        check_program_against_matrix(
            &xh,
            &format!("gft_mul_gamma_{j}"),
            &transform::mul_matrix(32, g),
            32,
            j as u64,
        );
        let count = pj["xor_counts"]["gamma"][j - 1].as_u64().expect("count");
        assert!(count > 0 && count < 32 * 31);
    }
    check_program_against_matrix(&xh, "encode_xor", em, 32, 100);
    check_program_against_matrix(&xh, "decode_xor", dm, 32, 101);
    let trunc = BitMatrix::from_cols(enc.iter().take(16).map(|&c| c as u64).collect::<Vec<_>>());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let input: Vec<u64> = (0..32).map(|_| rng.gen::<u32>() as u64).collect();
    let out_t = run_c_routine(&xh, "encode_trunc_xor", &input);
    for lane in 0..32 {
        let x = (0..16).fold(0u64, |acc, q| acc | (((input[q] >> lane) & 1) << q));
        let y = (0..16)
            .filter(|&q| (x >> q) & 1 == 1)
            .fold(0u64, |acc, q| acc ^ trunc.cols()[q]);
        for (i, o) in out_t.iter().enumerate() {
            assert_eq!((o >> lane) & 1, (y >> i) & 1);
        }
    }
    // The Rust programs themselves agree with BitMatrix::apply.
    for (p, mtx) in e.tp.gamma_programs.iter().zip(all_g) {
        let m = transform::mul_matrix(32, *mtx);
        let input: Vec<u64> = (0..32).map(|_| rng.gen()).collect();
        let o = p.eval(&input);
        for lane in [0usize, 17, 63] {
            let x = (0..32).fold(0u64, |acc, q| acc | (((input[q] >> lane) & 1) << q));
            let y = m.apply(x);
            assert!((0..32).all(|i| (o[i] >> lane) & 1 == (y >> i) & 1));
        }
    }
}

/// Reload: rebuild a multiplier from the parsed numbers and compare with Poly::mul.
fn check_reload(ph: &str, gammas: &[u32], m_parsed: &Poly, il_poly: &Poly) {
    let basis = CantorBasis::tower32();
    let beta = parse_define(ph, "FAFFT_BETA").expect("beta") as u32;
    let plan = FafftPlan::with_shift(&basis, 10, Tower::<32>(beta), Tower::<32>(gammas[10]))
        .expect("plan");
    assert_eq!(&extract_plan_modulus(&plan).expect("M"), m_parsed);
    let sparse_m = SparsePoly::from_dense(m_parsed);
    let c = 3072usize;
    let n = 17_669usize;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let ones = Poly::from_exponents(&(0..n).collect::<Vec<_>>());
    let mut cases = vec![(ones.clone(), ones)];
    for _ in 0..2 {
        let f = Poly::from_exponents(&(0..n).filter(|_| rng.gen::<bool>()).collect::<Vec<_>>());
        let g = Poly::from_exponents(&(0..n).filter(|_| rng.gen::<bool>()).collect::<Vec<_>>());
        cases.push((f, g));
    }
    for (f, g) in cases {
        let c_m = plan.mul(&f, &g).expect("fafft");
        let c_r = f.mul_mod_xn(&g, c);
        let u = c_r.add(&c_m.truncate(c)).mul_mod_xn(il_poly, c);
        let h = c_m.add(&sparse_m.mul_dense(&u));
        assert_eq!(h, f.mul(&g), "reloaded tables rebuild the exact product");
    }
}

#[test]
fn hqc3_and_hqc5_tables() {
    let dir = export_dir("hqc35");
    let cfg3 = ExportConfig {
        m: 32,
        l: 11,
        beta: ARTIFACT_BETA,
        c: 8192,
        n: 35_851,
        chain: Chain::Artifact,
        split: None,
        second: None,
    };
    let e3 = do_export(&cfg3, &dir.join("hqc3"), false)
        .expect("export hqc3")
        .derived;
    assert_eq!(e3.modulus.weight(), 199);
    assert_eq!(
        sha256_words(&e3.il_plain),
        "b6d5075e1f08483324dec26c2365b77eb1a0d38bfc37dcd2f2666f96a944fb2a"
    );
    assert_eq!(
        sha256_words(&e3.il_swapped),
        "bddb6c90e7dc7a5c82a46f432c40f79dee27de94650fb9562d0f122bfc08a66c"
    );
    assert_eq!(
        &e3.il_plain[..8],
        &[
            0x4734f4db, 0x724c78d4, 0xed65ef78, 0x3a5c4643, 0x30a978ea, 0x1ea1e8c0, 0x850df915,
            0xc3062d30
        ]
    );
    assert_eq!(
        &e3.il_swapped[248..],
        &[
            0x775a22cf, 0x6c947485, 0xdfe75ba3, 0x859819a4, 0xc9a25ba3, 0x4cb88641, 0x8554c3ff,
            0x9fd7b489
        ]
    );
    let a = parse_arrays(&read_text(&dir.join("hqc3"), "minpoly_mods_defs.h"));
    let lens: Vec<u64> = vec![
        68, 22, 16, 3, 15, 3, 3, 0, 24, 7, 6, 1, 5, 1, 1, 0, 15, 0, 1, 0, 3, 0, 0, 0, 4, 0, 0, 0,
        1, 0, 0, 0,
    ];
    assert_eq!(a["minpoly_mod_lens"], lens);
    assert_eq!(a["minpoly_mod_0"][0], 2048);
    assert!(e3.gamma_extra.is_empty());
    assert_eq!(e3.tp.gammas[11], 0x8cb5cc64);
    let ih = read_text(&dir.join("hqc3"), "IL_defs.h");
    assert!(ih.contains("IL_swapped_65536[256]"));

    // HQC-5: canonical β = v16, l = 12, no residue ring.
    let cfg5 = ExportConfig {
        m: 32,
        l: 12,
        beta: 0x0001_2f9a,
        c: 0,
        n: 57_637,
        chain: Chain::Default,
        split: None,
        second: None,
    };
    let out5 = dir.join("hqc5");
    let e5 = do_export(&cfg5, &out5, false).expect("export hqc5").derived;
    assert_eq!(e5.modulus.weight(), 821);
    let ph = read_text(&out5, "fafft_params.h");
    assert_eq!(parse_define(&ph, "CRT_C"), Some(0));
    assert_eq!(parse_define(&ph, "FAFFT_N"), Some(131072));
    let ih = read_text(&out5, "IL_defs.h");
    assert_eq!(parse_define(&ih, "FAFFT_HAVE_IL"), Some(0));
    assert!(!ih.contains("IL_plain["));
    // default chain: coords(γ_j) = coords(β) << j → γ_j = v_{16+j} for the canonical β
    let b = CantorBasis::tower32();
    for j in 0..=12usize {
        assert_eq!(e5.tp.gammas[j], b.v(16 + j).0, "γ_{j}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gamma_11_is_omitted_outside_v21() {
    // β ∈ V_22 \ V_21 is admissible for l = 10 but has no γ_11.
    let beta = transform::element((1 << 21) | 0x1234);
    let cfg = ExportConfig {
        m: 32,
        l: 10,
        beta,
        c: 3072,
        n: 17_669,
        chain: Chain::Default,
        split: None,
        second: None,
    };
    let e = cfg
        .derive_with(&fafft_config::artefacts::Baseline)
        .expect("derive");
    assert!(e.gamma_extra.is_empty());
    assert!(e.gamma_extra_note.contains("omitted"));
    let prov = Provenance {
        command: "test".into(),
        tool_version: TOOL_VERSION.into(),
    };
    let files = render(&e, &prov).files;
    let gft = &files
        .iter()
        .find(|(n, _)| n == "gft_mul_s_inv_i_beta_matrix_defs.h")
        .expect("file")
        .1;
    assert_eq!(parse_define(gft, "FAFFT_HAVE_GAMMA_11"), Some(0));
    assert_eq!(parse_define(gft, "FAFFT_GFT_MATRICES"), Some(10));
    // the artifact chain of the published β agrees with the artifact's γ_11 and is a valid chain
    let g = Chain::Artifact
        .gamma_top(32, 11, ARTIFACT_BETA)
        .expect("γ_11");
    assert_eq!(g, 0x8cb5cc64);
    // γ_11 + v_0 is another preimage (it only reorders the points); γ_11 + v_11 is not.
    assert_eq!(
        Chain::Gamma(0x8cb5cc65)
            .gamma_top(32, 11, ARTIFACT_BETA)
            .expect("valid"),
        0x8cb5cc65
    );
    let wrong = transform::element(transform::coords(0x8cb5cc64) ^ (1 << 11));
    assert!(matches!(
        Chain::Gamma(wrong).gamma_top(32, 11, ARTIFACT_BETA),
        Err(transform::ChainError::NotPreimage { .. })
    ));
    assert_eq!(
        Chain::parse("gamma:0x8cb5cc64").expect("parse"),
        Chain::Gamma(0x8cb5cc64)
    );
    assert!(Chain::parse("bogus").is_err());
}
