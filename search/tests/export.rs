//! Tests of the firmware exporter (`search export`) against the published artifact tables
//! (`docs/firmware-layout.md`) and by reloading the exported files into a working multiplier.

use algebra::bitmatrix::BitMatrix;
use algebra::cantor::CantorBasis;
use algebra::fafft::FafftPlan;
use algebra::field::Tower;
use algebra::gf2x::{Poly, SparsePoly};
use algebra::modulus::extract_plan_modulus;
use fafft_config::rules::RuleError;
use fafft_config::spec::{Provenance, TOOL_VERSION};
use fafft_config::ConfigError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::codegen::{self, Chain};
use search::export::{
    self, checksum_of, command_of, export as do_export, inv_swap32, render, sha256_words, swap32,
    ExportArgs, ExportConfig, ExportError,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const ARTIFACT_BETA: u32 = 0x0010_3674;

fn tmp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("search-export-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn hqc1() -> ExportConfig {
    ExportConfig {
        m: 32,
        l: 10,
        beta: ARTIFACT_BETA,
        c: 3072,
        n: 17_669,
        chain: Chain::Artifact,
        split: None,
        second: None,
    }
}

/// Parse every `name[...] = { numbers };` array of a C header (2-D arrays flattened row-major).
fn parse_arrays(text: &str) -> HashMap<String, Vec<u64>> {
    let mut out = HashMap::new();
    let mut rest = text;
    while let Some(eq) = rest.find("] = {") {
        let head = &rest[..eq];
        let decl_start = head.rfind('\n').map_or(0, |i| i + 1);
        let decl = &head[decl_start..];
        let name = decl
            .split('[')
            .next()
            .and_then(|s| s.split_whitespace().last())
            .unwrap_or("")
            .trim_start_matches('*')
            .to_string();
        let body_start = eq + "] = {".len();
        let end = rest[body_start..]
            .find("};")
            .map(|i| body_start + i)
            .unwrap_or(rest.len());
        let body = &rest[body_start..end];
        let nums: Vec<u64> = body
            .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .filter_map(|t| {
                if let Some(h) = t.strip_prefix("0x") {
                    u64::from_str_radix(h.trim_end_matches('u'), 16).ok()
                } else {
                    t.parse().ok()
                }
            })
            .collect();
        out.insert(name, nums);
        rest = &rest[end..];
    }
    out
}

fn parse_define(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        if it.next()? == "#define" && it.next()? == name {
            let v = it.next()?.trim_end_matches("ULL").trim_end_matches('u');
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => v.parse().ok(),
            }
        } else {
            None
        }
    })
}

/// Interpret a generated C routine of gen_xor_programs.h on 32 input words.
fn run_c_routine(text: &str, name: &str, input: &[u64]) -> Vec<u64> {
    let start = text
        .find(&format!(" {name}("))
        .unwrap_or_else(|| panic!("routine {name} missing"));
    let body_start = start + text[start..].find('{').expect("body");
    let body_end = body_start + text[body_start..].find("\n}").expect("end");
    let mut vars: HashMap<String, u64> = HashMap::new();
    let mut out: Vec<(usize, u64)> = Vec::new();
    let eval = |expr: &str, vars: &HashMap<String, u64>| -> u64 {
        expr.split('^')
            .map(|t| t.trim())
            .filter(|t| *t != "0")
            .fold(0u64, |acc, t| {
                if let Some(idx) = t.strip_suffix(']').and_then(|s| s.split('[').nth(1)) {
                    acc ^ input[idx.parse::<usize>().expect("index")]
                } else {
                    acc ^ vars[t]
                }
            })
    };
    for line in text[body_start + 1..body_end].lines() {
        let line = line.trim().trim_end_matches(';');
        if line.is_empty() {
            continue;
        }
        let (lhs, rhs) = line.split_once('=').expect("assignment");
        let v = eval(rhs, &vars);
        let lhs = lhs.trim();
        if let Some(var) = lhs.strip_prefix("const uint32_t ") {
            vars.insert(var.trim().to_string(), v);
        } else {
            let idx = lhs
                .split('[')
                .nth(1)
                .and_then(|s| s.strip_suffix(']'))
                .expect("output index");
            out.push((idx.parse().expect("index"), v));
        }
    }
    out.sort();
    out.into_iter().map(|(_, v)| v).collect()
}

fn check_program_against_matrix(text: &str, name: &str, m: &BitMatrix, n_in: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..4 {
        let input: Vec<u64> = (0..32).map(|_| rng.gen::<u32>() as u64).collect();
        let out = run_c_routine(text, name, &input);
        assert_eq!(out.len(), 32, "{name}");
        for lane in 0..32 {
            let x = (0..n_in).fold(0u64, |acc, q| acc | (((input[q] >> lane) & 1) << q));
            let y = m.apply(x);
            for (i, o) in out.iter().enumerate() {
                assert_eq!((o >> lane) & 1, (y >> i) & 1, "{name} lane {lane} out {i}");
            }
        }
    }
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"))
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
    let dir = tmp_dir("hqc1");
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

    // params.json: checksum, fields
    let pj: serde_json::Value =
        serde_json::from_str(&read(&out, "params.json")).expect("params.json");
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

    // minpoly_mods_defs.h (docs/firmware-layout.md §4, docs/test-vectors.md §5)
    let mh = read(&out, "minpoly_mods_defs.h");
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

    // IL_defs.h (docs/firmware-layout.md §5)
    let ih = read(&out, "IL_defs.h");
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
        il_poly.mul_mod_xn(&m_parsed, 3072).is_one(),
        "IL·M ≡ 1 mod x^c"
    );

    // encode_matrix_defs.h (docs/firmware-layout.md §6)
    let eh = read(&out, "encode_matrix_defs.h");
    let ea = parse_arrays(&eh);
    let cols_of = |flat: &Vec<u64>| -> Vec<u32> {
        (0..32)
            .map(|j| (0..32).fold(0u32, |acc, i| acc | ((flat[32 * i + j] as u32) << i)))
            .collect()
    };
    let enc = cols_of(&ea["encode_matrix"]);
    let dec = cols_of(&ea["decode_matrix"]);
    let published_r: [u32; 32] = [
        0x00000001, 0x00103674, 0x000842af, 0x2c2a8d4d, 0x0005c683, 0x5e3f5719, 0x4d4955a0,
        0xbe378cbe, 0x00028aaa, 0x36b94fbb, 0x52e802b4, 0xaed15786, 0x72526086, 0xe31f123f,
        0x133e2901, 0x50893933, 0x00011aa4, 0x8e858421, 0xc3bc9e2f, 0x92dbb73c, 0x9f14203a,
        0xd4a2b618, 0x865a4cfd, 0xda4d4081, 0xa5505732, 0x4e561a19, 0x4a08e877, 0x1e964986,
        0xf1d2b605, 0x63905160, 0x8347b66a, 0x198a3838,
    ];
    let published_d: [u32; 32] = [
        0x00000001, 0x617f1272, 0xe5c9eaa0, 0x276c8878, 0xb2909d26, 0x3687f4eb, 0xf1612ca5,
        0x2a8f1229, 0x1c9565ed, 0xc8d70a9b, 0x5f955eb4, 0x90ac52b4, 0xb5e67dc9, 0x9b69bdb6,
        0x5591fb8f, 0x8151e75c, 0x145d2984, 0x8331c2bb, 0x1c2f6132, 0x22946779, 0x29723b9a,
        0xacab61ba, 0x74e754f1, 0xab59cadb, 0x4df23242, 0x08498f88, 0xb0bbd548, 0xb0eec7d1,
        0x6ab8e9f4, 0x6c621624, 0xb0f6614a, 0x4376527e,
    ];
    assert_eq!(enc, published_r);
    assert_eq!(dec, published_d);
    let em = BitMatrix::from_cols(enc.iter().map(|&c| c as u64).collect());
    let dm = BitMatrix::from_cols(dec.iter().map(|&c| c as u64).collect());
    assert!(dm.mul(&em).is_identity(), "Decode·Encode = I");

    // fafft_params.h
    let ph = read(&out, "fafft_params.h");
    assert_eq!(parse_define(&ph, "FAFFT_M"), Some(32));
    assert_eq!(parse_define(&ph, "FAFFT_L"), Some(10));
    assert_eq!(parse_define(&ph, "FAFFT_N"), Some(32768));
    assert_eq!(parse_define(&ph, "CRT_C"), Some(3072));
    assert_eq!(parse_define(&ph, "HQC_N"), Some(17669));
    assert_eq!(parse_define(&ph, "FAFFT_BETA"), Some(ARTIFACT_BETA as u64));
    assert_eq!(parse_define(&ph, "FAFFT_P"), Some(0x1_0758_5e13));
    let pa = parse_arrays(&ph);
    let gammas: Vec<u32> = pa["fafft_gamma"].iter().map(|&x| x as u32).collect();
    let published_g: [u32; 11] = [
        0x00103674, 0x002ae0a0, 0x00599a26, 0x008cb572, 0x011a2440, 0x028a6a54, 0x05c6b394,
        0x08427fae, 0x1036f9c0, 0x2ae076ca, 0x599a429e,
    ];
    assert_eq!(gammas, published_g);
    assert_eq!(
        pa["fafft_r"].iter().map(|&x| x as u32).collect::<Vec<_>>(),
        published_r
    );

    // gft_mul_s_inv_i_beta_matrix_defs.h (docs/firmware-layout.md §7): j = 1 … 11, γ_11 = 0x8cb5cc64
    let gh = read(&out, "gft_mul_s_inv_i_beta_matrix_defs.h");
    assert_eq!(parse_define(&gh, "FAFFT_GFT_MATRICES"), Some(11));
    assert_eq!(parse_define(&gh, "FAFFT_HAVE_GAMMA_11"), Some(1));
    let ga = parse_arrays(&gh);
    let mut all_g = published_g[1..].to_vec();
    all_g.push(0x8cb5cc64);
    for (j, &g) in (1..=11).zip(&all_g) {
        let cols = cols_of(&ga[&format!("gft_mul_s_inv_{j}_beta_matrix")]);
        for (q, &c) in cols.iter().enumerate() {
            assert_eq!(c, codegen::tmul(g, 1 << q), "γ_{j} column {q}");
        }
    }

    // btfy_consts_gft.h (docs/firmware-layout.md §8)
    let sh = read(&out, "btfy_consts_gft.h");
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

    // gen_xor_programs.h: interpret the emitted C and compare with the matrices
    let xh = read(&out, "gen_xor_programs.h");
    assert_eq!(parse_define(&xh, "HAVE_GEN_XOR"), Some(1));
    for (j, &g) in (1..=11).zip(&all_g) {
        check_program_against_matrix(
            &xh,
            &format!("gft_mul_gamma_{j}"),
            &codegen::mul_matrix(32, g),
            32,
            j as u64,
        );
        let count = pj["xor_counts"]["gamma"][j - 1].as_u64().expect("count");
        assert!(count > 0 && count < 32 * 31);
    }
    check_program_against_matrix(&xh, "encode_xor", &em, 32, 100);
    check_program_against_matrix(&xh, "decode_xor", &dm, 32, 101);
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
    for (p, mtx) in e.tp.gamma_programs.iter().zip(&all_g) {
        let m = codegen::mul_matrix(32, *mtx);
        let input: Vec<u64> = (0..32).map(|_| rng.gen()).collect();
        let o = p.eval(&input);
        for lane in [0usize, 17, 63] {
            let x = (0..32).fold(0u64, |acc, q| acc | (((input[q] >> lane) & 1) << q));
            let y = m.apply(x);
            assert!((0..32).all(|i| (o[i] >> lane) & 1 == (y >> i) & 1));
        }
    }

    // Reload: rebuild a multiplier from the parsed numbers and compare with Poly::mul.
    let basis = CantorBasis::tower32();
    let beta = parse_define(&ph, "FAFFT_BETA").expect("beta") as u32;
    let plan = FafftPlan::with_shift(&basis, 10, Tower::<32>(beta), Tower::<32>(gammas[10]))
        .expect("plan");
    assert_eq!(extract_plan_modulus(&plan).expect("M"), m_parsed);
    let sparse_m = SparsePoly::from_dense(&m_parsed);
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
        let u = c_r.add(&c_m.truncate(c)).mul_mod_xn(&il_poly, c);
        let h = c_m.add(&sparse_m.mul_dense(&u));
        assert_eq!(h, f.mul(&g), "reloaded tables rebuild the exact product");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hqc3_and_hqc5_tables() {
    let dir = tmp_dir("hqc35");
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
    let a = parse_arrays(&read(&dir.join("hqc3"), "minpoly_mods_defs.h"));
    let lens: Vec<u64> = vec![
        68, 22, 16, 3, 15, 3, 3, 0, 24, 7, 6, 1, 5, 1, 1, 0, 15, 0, 1, 0, 3, 0, 0, 0, 4, 0, 0, 0,
        1, 0, 0, 0,
    ];
    assert_eq!(a["minpoly_mod_lens"], lens);
    assert_eq!(a["minpoly_mod_0"][0], 2048);
    assert!(e3.gamma_extra.is_empty());
    assert_eq!(e3.tp.gammas[11], 0x8cb5cc64);
    let ih = read(&dir.join("hqc3"), "IL_defs.h");
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
    let ph = read(&out5, "fafft_params.h");
    assert_eq!(parse_define(&ph, "CRT_C"), Some(0));
    assert_eq!(parse_define(&ph, "FAFFT_N"), Some(131072));
    let ih = read(&out5, "IL_defs.h");
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
    let beta = codegen::element((1 << 21) | 0x1234);
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
    let e = cfg.derive().expect("derive");
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
    let wrong = codegen::element(codegen::coords(0x8cb5cc64) ^ (1 << 11));
    assert!(matches!(
        Chain::Gamma(wrong).gamma_top(32, 11, ARTIFACT_BETA),
        Err(codegen::ChainError::NotPreimage { .. })
    ));
    assert_eq!(
        Chain::parse("gamma:0x8cb5cc64").expect("parse"),
        Chain::Gamma(0x8cb5cc64)
    );
    assert!(Chain::parse("bogus").is_err());
}

#[test]
fn errors_write_nothing() {
    let dir = tmp_dir("errors");
    let out = dir.join("x");
    let no_files = |d: &Path| std::fs::read_dir(d).map(|r| r.count()).unwrap_or(0) == 0;
    let try_cfg = |cfg: ExportConfig| do_export(&cfg, &out, false);

    let rule = |r: &Result<export::Export, ExportError>| match r {
        Err(ExportError::Config(ConfigError::Rule(e))) => Some(e.clone()),
        _ => None,
    };
    // bad n
    for n in [0u64, 1, 40_000, u64::MAX] {
        let r = try_cfg(ExportConfig { n, ..hqc1() });
        assert!(
            matches!(rule(&r), Some(RuleError::BadN { .. })),
            "n = {n}: {r:?}"
        );
    }
    // c too small for N: the smallest admissible c is 2592
    match rule(&try_cfg(ExportConfig { c: 2560, ..hqc1() })) {
        Some(RuleError::CTooSmall { min_c, need, .. }) => {
            assert_eq!(need, 35_337);
            assert_eq!(min_c, 2592);
        }
        other => panic!("expected CTooSmall, got {other:?}"),
    }
    // c not a multiple of 32
    assert!(matches!(
        rule(&try_cfg(ExportConfig { c: 3000, ..hqc1() })),
        Some(RuleError::CNotWordMultiple { .. })
    ));
    // huge c is refused, not wrapped (18446744073709551584 = 2^64 - 32)
    for c in [18_446_744_073_709_551_584u64, u64::MAX] {
        let r = try_cfg(ExportConfig { c, ..hqc1() });
        assert!(rule(&r).is_some(), "c = {c}: {r:?}");
    }
    // inadmissible β (subfield, outside V_22) and l
    for beta in [0x0000_1234u32, 0x92f9_c989] {
        assert!(matches!(
            try_cfg(ExportConfig { beta, ..hqc1() }),
            Err(ExportError::Config(ConfigError::Algebra(_)))
        ));
    }
    assert!(matches!(
        rule(&try_cfg(ExportConfig { m: 16, ..hqc1() })),
        Some(RuleError::UnsupportedM { .. })
    ));
    // a split (search export --split-k K --split-words W) the rule refuses, with c = 0
    let split = |k: u64, residual_words: u64, c: u64| ExportConfig {
        c,
        split: Some(fafft_config::rules::Split { k, residual_words }),
        ..hqc1()
    };
    for (k, w, c, want) in [
        (16161, 48, 0, "not a multiple of 32"),
        (16416, 48, 0, "2k = 32832 > N = 32768"),
        (8832, 300, 0, "smallest valid k is 8864"),
        (16160, 40, 0, "shorter than n - k"),
        (16160, 48, 3072, "no residue ring"),
    ] {
        match rule(&try_cfg(split(k, w, c))) {
            Some(RuleError::Split(e)) => assert!(e.to_string().contains(want), "k = {k}: {e}"),
            other => panic!("k = {k}: expected a split error, got {other:?}"),
        }
    }
    // a second modulus (search export --second-l L --second-beta B) the rule refuses: HQC-3
    // with M1 of l = 11, c = 0 (docs/fafft.md §9.8)
    let second = |l: u32, c: u64| ExportConfig {
        l: 11,
        beta: 0x0011_2c53,
        n: 35_851,
        c,
        chain: Chain::Default,
        second: Some(fafft_config::rules::Second {
            l,
            beta: 0x0093_b187,
        }),
        ..hqc1()
    };
    for (l, c, want) in [
        (7, 0, "N1 + N2 = 65536 + 4096 = 69632 < 2n - 1 = 71701"),
        (4, 0, "outside 5..=11"),
        (12, 0, "outside 5..=11"),
        (8, 6912, "no residue ring"),
    ] {
        match rule(&try_cfg(second(l, c))) {
            Some(RuleError::Second(e)) => assert!(e.to_string().contains(want), "l = {l}: {e}"),
            other => panic!("l = {l}: expected a second-modulus error, got {other:?}"),
        }
    }
    // a wrong explicit chain
    assert!(matches!(
        try_cfg(ExportConfig {
            chain: Chain::Gamma(0x1234_5678),
            ..hqc1()
        }),
        Err(ExportError::Config(ConfigError::Chain(_)))
    ));
    assert!(no_files(&dir), "rejected configurations wrote nothing");

    // unwritable DIR: the parent is a regular file
    let file = dir.join("plainfile");
    std::fs::write(&file, b"x").expect("write");
    let r = do_export(&hqc1(), &file.join("sub"), false);
    assert!(matches!(r, Err(ExportError::OutDir { .. })), "{r:?}");
    // existing DIR: refused without --force, replaced with --force, no leftovers
    std::fs::create_dir(&out).expect("mkdir");
    std::fs::write(out.join("stale.txt"), b"old").expect("write");
    assert!(matches!(
        do_export(&hqc1(), &out, false),
        Err(ExportError::Exists { .. })
    ));
    assert!(out.join("stale.txt").exists());
    do_export(&hqc1(), &out, true).expect("forced export");
    assert!(!out.join("stale.txt").exists());
    assert!(out.join("params.json").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // the command recorded in the headers is the canonical one
    let ph = read(&out, "fafft_params.h");
    assert!(ph.contains(&command_of(&hqc1(), &out)));
    // a symbolic link as DIR is refused, not replaced
    #[cfg(unix)]
    {
        let link = dir.join("link");
        std::os::unix::fs::symlink(&out, &link).expect("symlink");
        let r = do_export(&hqc1(), &link, true);
        assert!(matches!(r, Err(ExportError::OutDir { .. })), "{r:?}");
        assert!(std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
    }
    // the smallest c of the one c rule exports and verifies
    let out2 = dir.join("c2592");
    do_export(&ExportConfig { c: 2592, ..hqc1() }, &out2, false).expect("c = 2592");
    fafft_config::spec::load(&out2.join("params.json"))
        .expect("load")
        .verify()
        .expect("c = 2592 verifies");
    // a valid split exports (c = 0 at N = 2^15 < 2n - 1), records the split in params.json
    // and the command, and verifies
    let out3 = dir.join("split");
    let cfg = ExportConfig {
        c: 0,
        split: Some(fafft_config::rules::Split {
            k: 16160,
            residual_words: 48,
        }),
        ..hqc1()
    };
    do_export(&cfg, &out3, false).expect("split export");
    let v = fafft_config::spec::load(&out3.join("params.json"))
        .expect("load")
        .verify()
        .expect("split verifies");
    assert_eq!(v.params.split, cfg.split);
    assert!(v
        .params
        .command
        .contains("--split-k 16160 --split-words 48"));
    assert!(read(&out3, "fafft_params.h").contains("#define SPLIT_K 16160"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(export::s0_gft().len(), 2048);
}

#[test]
fn beta_parses_as_everywhere() {
    let args = |beta: &str| ExportArgs {
        m: 32,
        l: Some(10),
        beta: Some(beta.into()),
        c: 3072,
        n: Some(17_669),
        plan: None,
        rank: None,
        out: "unused".into(),
        chain: "default".into(),
        force: false,
        layout: "project".into(),
        split_k: None,
        split_words: None,
        second_l: None,
        second_beta: None,
        seeds: 1,
        moves: fafft_config::routines::emit_options().budget.polish as u64,
    };
    for bad in ["+28b51f", "-1", "0x", "0x123456789", "28_b51f"] {
        assert!(
            matches!(
                args(bad).config(),
                Err(ExportError::Config(ConfigError::Beta(_)))
            ),
            "{bad}"
        );
    }
    assert_eq!(args("0x0028b51f").config().expect("ok").beta, 0x0028_b51f);
    assert_eq!(args("28B51F").config().expect("ok").beta, 0x0028_b51f);
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).expect("prefix");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn have_arm_gcc() -> bool {
    std::process::Command::new("arm-none-eabi-gcc")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// `--layout artifact`: exactly the drop-in files, ASCII, every one in `files`, verify passes,
/// the headers and routines compile for the Cortex-M4, and each routine computes its matrix in
/// the Thumb-2 simulator (the lightest HQC-1 β is not in V_21: γ_11 is the placeholder).
#[test]
fn artifact_layout_is_the_drop_in_set() {
    use fafft_config::export::{artifact_routine_names, Layout};
    use fafft_config::routines::{sim, Matrix};
    let dir = tmp_dir("artifact");
    let out = dir.join("hqc1-lightest-artifact");
    let cfg = ExportConfig {
        beta: 0x0028_b51f,
        chain: Chain::Default,
        split: None,
        second: None,
        ..hqc1()
    };
    let e = export::export_layout(&cfg, &out, false, Layout::Artifact, false).expect("export");
    let mut got = Vec::new();
    walk(&out, &out, &mut got);
    got.sort();
    let mut want: Vec<String> = vec![
        "README.md".into(),
        "gen/IL_defs.h".into(),
        "gen/encode_matrix_defs.h".into(),
        "gen/gft_mul_s_inv_i_beta_matrix_defs.h".into(),
        "gen/minpoly_mods_defs.h".into(),
        "params.json".into(),
    ];
    let names = artifact_routine_names();
    assert_eq!(names.len(), 13);
    want.extend(names.iter().map(|n| format!("m4f/{n}.S")));
    want.sort();
    assert_eq!(got, want);
    for f in [
        "btfy_consts_gft.h",
        "fafft_params.h",
        "gen/btfy_consts_gft.h",
    ] {
        assert!(
            !got.iter().any(|g| g == f),
            "{f} would clash with the firmware"
        );
    }
    // every file but params.json in `files`, ASCII
    let params = &e.rendered.params;
    let listed: Vec<String> = params.files.keys().cloned().collect();
    let mut others: Vec<String> = got
        .iter()
        .filter(|f| *f != "params.json")
        .cloned()
        .collect();
    others.sort();
    assert_eq!(listed, others);
    for f in &got {
        let bytes = std::fs::read(out.join(f)).expect("read");
        assert!(bytes.is_ascii(), "{f} is not ASCII");
    }
    let il = read(&out, "gen/IL_defs.h");
    assert!(!il.contains("#include \"fafft_params.h\""));
    // reload and verify (detects the layout from `files`)
    let loaded = fafft_config::spec::load(&out.join("params.json")).expect("load");
    loaded.verify().expect("verify");
    // a changed routine is caught
    let r1 = out.join("m4f/gft_mul_s_inv_1_beta.S");
    let orig = std::fs::read_to_string(&r1).expect("read");
    std::fs::write(&r1, orig.replace("eor", "orr")).expect("write");
    assert!(fafft_config::spec::load(&out.join("params.json"))
        .expect("load")
        .verify()
        .is_err());
    std::fs::write(&r1, &orig).expect("write");
    // each routine on its matrix in the simulator
    let d = &e.derived;
    assert!(d.routines.iter().all(|r| r.matrix != Matrix::Gamma(11)));
    let p11 = read(&out, "m4f/gft_mul_s_inv_11_beta.S");
    assert!(p11.contains("PLACEHOLDER") && p11.contains("udf #11"));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for j in 1..=10u32 {
        let text = read(&out, &format!("m4f/gft_mul_s_inv_{j}_beta.S"));
        let m = codegen::mul_matrix(32, d.tp.gammas[j as usize]);
        check_routine(&text, &format!("gft_mul_s_inv_{j}_beta"), &m, &mut rng);
    }
    check_routine(
        &read(&out, "m4f/encode_to_gft_full_length.S"),
        "encode_to_gft_full_length",
        &d.tp.encode_matrix(),
        &mut rng,
    );
    check_routine(
        &read(&out, "m4f/decode_from_gft_full_length.S"),
        "decode_from_gft_full_length",
        &d.tp.decode_matrix(),
        &mut rng,
    );
    fn check_routine(text: &str, name: &str, m: &BitMatrix, rng: &mut ChaCha8Rng) {
        for _ in 0..4 {
            let input: Vec<u32> = (0..32).map(|_| rng.gen()).collect();
            let outw = sim::run(text, name, &input, 32).expect("simulate");
            for lane in 0..32 {
                let x = (0..32).fold(0u64, |acc, q| {
                    acc | (u64::from((input[q] >> lane) & 1) << q)
                });
                let y = m.apply(x);
                for (i, o) in outw.iter().enumerate() {
                    assert_eq!(
                        u64::from((o >> lane) & 1),
                        (y >> i) & 1,
                        "{name} output {i}"
                    );
                }
            }
        }
    }
    // compile for the Cortex-M4: every .S, every header on its own
    if !have_arm_gcc() {
        eprintln!("arm-none-eabi-gcc not found: compile checks skipped");
        return;
    }
    let arch = [
        "-mcpu=cortex-m4",
        "-mthumb",
        "-mfloat-abi=hard",
        "-mfpu=fpv4-sp-d16",
    ];
    for f in got.iter().filter(|f| f.ends_with(".S")) {
        let o = dir.join("x.o");
        let st = std::process::Command::new("arm-none-eabi-gcc")
            .args(arch)
            .arg("-c")
            .arg(out.join(f))
            .arg("-o")
            .arg(&o)
            .status()
            .expect("gcc");
        assert!(st.success(), "{f} does not assemble");
    }
    for f in got.iter().filter(|f| f.ends_with(".h")) {
        let c = dir.join("inc.c");
        std::fs::write(&c, format!("#include \"{f}\"\nint x;\n")).expect("write");
        let st = std::process::Command::new("arm-none-eabi-gcc")
            .args(arch)
            .args(["-std=gnu11", "-Wall", "-c", "-I"])
            .arg(&out)
            .arg(&c)
            .arg("-o")
            .arg(dir.join("inc.o"))
            .status()
            .expect("gcc");
        assert!(st.success(), "{f} does not compile on its own");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
