//! `search modulus`: published reference points (docs/test-vectors.md §4, §5, §6).

mod common;
use common::*;
use serde_json::Value;

fn nums(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("number"))
        .collect()
}

const ARTIFACT_P: [u64; 15] = [0, 1, 4, 9, 10, 11, 12, 14, 19, 20, 22, 24, 25, 26, 32];

/// docs/test-vectors.md §5: M = P_β(s_10(x)) for the artifact β, weight 165.
const M_L10: [u64; 165] = [
    0, 1, 9, 10, 11, 17, 19, 20, 28, 33, 35, 41, 49, 52, 67, 68, 72, 74, 76, 82, 88, 96, 97, 98,
    100, 104, 128, 256, 264, 266, 272, 274, 288, 290, 296, 304, 322, 352, 520, 521, 529, 545, 577,
    584, 592, 608, 776, 784, 800, 832, 1040, 1048, 1072, 1088, 1096, 1120, 2049, 2050, 2051, 2068,
    2081, 2112, 2114, 2116, 2128, 2144, 2304, 2306, 2336, 2560, 2561, 2624, 2816, 3088, 3136, 4097,
    4099, 4100, 4108, 4129, 4132, 4162, 4168, 4352, 4354, 4384, 4609, 4672, 4864, 5120, 5128, 5152,
    6148, 6208, 7168, 8193, 8195, 8201, 8209, 8212, 8256, 8257, 8258, 8260, 8264, 8448, 8450, 8456,
    8464, 8512, 8705, 8768, 8960, 9232, 9280, 10241, 10304, 10496, 12289, 12292, 12544, 13312,
    16387, 16388, 16392, 16394, 16396, 16402, 16408, 16416, 16417, 16418, 16420, 16424, 16642,
    16672, 16897, 16904, 16912, 16928, 17152, 17408, 17416, 17440, 18432, 18434, 18436, 18448,
    18464, 18944, 19456, 20482, 20488, 20992, 22528, 24576, 24577, 24578, 24580, 24584, 24832,
    25088, 25600, 26624, 32768,
];

/// docs/test-vectors.md §5: M = P_β(s_11(x)) for the artifact β, weight 199.
const M_L11: [u64; 199] = [
    0, 1, 2, 9, 11, 13, 14, 18, 24, 28, 32, 41, 42, 44, 48, 72, 73, 88, 129, 131, 133, 134, 138,
    144, 148, 161, 162, 164, 168, 192, 193, 208, 264, 266, 268, 296, 328, 384, 386, 388, 416, 448,
    512, 521, 524, 528, 552, 641, 644, 648, 672, 776, 896, 1033, 1034, 1048, 1064, 1153, 1154,
    1168, 1184, 1288, 1408, 1544, 1664, 2049, 2051, 2053, 2054, 2064, 2068, 2081, 2082, 2084, 2112,
    2113, 2128, 2178, 2208, 2304, 2306, 2308, 2336, 2368, 2561, 2564, 2592, 2688, 2816, 3073, 3074,
    3088, 3104, 3328, 3584, 4098, 4104, 4108, 4128, 4168, 4224, 4228, 4288, 4608, 5128, 5248, 6144,
    6148, 6208, 7168, 8192, 8201, 8202, 8204, 8208, 8321, 8322, 8324, 8328, 8456, 8576, 8712, 8832,
    9224, 9344, 10241, 10242, 10244, 10368, 10496, 10752, 11264, 12288, 16392, 16393, 16408, 16512,
    16513, 16528, 16648, 16768, 18432, 18433, 18448, 18688, 20488, 20608, 22528, 32769, 32771,
    32773, 32774, 32778, 32784, 32788, 32801, 32802, 32804, 32808, 32832, 32833, 32848, 33024,
    33026, 33028, 33056, 33088, 33281, 33284, 33288, 33312, 33536, 33793, 33794, 33808, 33824,
    34048, 34304, 34818, 34848, 35328, 36864, 36868, 36928, 37888, 40961, 40962, 40964, 40968,
    41216, 41472, 41984, 43008, 49152, 49153, 49168, 49408, 53248, 65536,
];

#[test]
fn artifact_beta_reproduces_165_and_199() {
    for (l, want, occupied, counts) in [
        (
            "10",
            &M_L10[..],
            17,
            [
                55, 19, 15, 6, 12, 0, 0, 0, 18, 4, 4, 1, 3, 0, 0, 0, 12, 4, 3, 1, 4, 0, 0, 0, 3, 0,
                0, 0, 1, 0, 0, 0,
            ],
        ),
        (
            "11",
            &M_L11[..],
            19,
            [
                68, 22, 16, 3, 15, 3, 3, 0, 24, 7, 6, 1, 5, 1, 1, 0, 15, 0, 1, 0, 3, 0, 0, 0, 4, 0,
                0, 0, 1, 0, 0, 0,
            ],
        ),
    ] {
        let j = search(&[
            "modulus",
            "--m",
            "32",
            "--l",
            l,
            "--beta",
            "0x00103674",
            "--json",
        ])
        .ok()
        .json();
        assert_eq!(j["beta"], "0x00103674");
        assert_eq!(j["basis"], "tower32, v_31 = 0x92f9c989");
        assert_eq!(j["beta_coords"], "0x13b761");
        assert_eq!(j["p"], "0x107585e13");
        assert_eq!(nums(&j["minpoly_exponents"]), ARTIFACT_P);
        assert_eq!(j["weight"].as_u64(), Some(want.len() as u64));
        assert_eq!(nums(&j["exponents"]), want);
        assert_eq!(j["degree"].as_u64(), want.last().copied());
        assert_eq!(j["residues_mod_32"].as_u64(), Some(occupied));
        assert_eq!(nums(&j["residue_counts"]), counts);
        assert_eq!(j["verified"], true);
    }
}

#[test]
fn canonical_beta_501_473_821() {
    for (l, w) in [("10", 501u64), ("11", 473), ("12", 821)] {
        let j = search(&[
            "modulus",
            "--m",
            "32",
            "--l",
            l,
            "--beta",
            "canonical",
            "--json",
        ])
        .ok()
        .json();
        assert_eq!(j["beta"], "0x00012f9a");
        assert_eq!(j["p"], "0x178e39d09");
        assert_eq!(
            nums(&j["minpoly_exponents"]),
            [0, 3, 8, 10, 11, 12, 15, 16, 17, 21, 22, 23, 27, 28, 29, 30, 32]
        );
        assert_eq!(j["weight"].as_u64(), Some(w), "l = {l}");
        assert_eq!(j["verified"], true);
    }
}

#[test]
fn small_field_and_m64_vectors() {
    // docs/test-vectors.md §4 worked examples.
    let j = search(&[
        "modulus",
        "--m",
        "8",
        "--l",
        "2",
        "--beta",
        "canonical",
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["beta"], "0x13");
    assert_eq!(j["p"], "0x169");
    assert_eq!(nums(&j["exponents"]), [0, 3, 5, 9, 17, 18, 20, 24, 32]);
    let j = search(&[
        "modulus", "--m", "16", "--l", "3", "--beta", "0x012f", "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["p"], "0x16db3");
    assert_eq!(
        nums(&j["exponents"]),
        [0, 1, 2, 5, 6, 7, 8, 16, 20, 22, 32, 36, 37, 52, 65, 66, 67, 80, 82, 96, 97, 112, 128]
    );
    // m = 64, bitpolymul2 basis: canonical weights 939, 1711, 1225 (l = 9, 10, 11).
    for (l, w) in [("9", 939u64), ("10", 1711), ("11", 1225)] {
        let j = search(&[
            "modulus",
            "--m",
            "64",
            "--l",
            l,
            "--beta",
            "canonical",
            "--json",
        ])
        .ok()
        .json();
        assert_eq!(j["beta"], "0xed57ce778f0d6244");
        assert_eq!(j["p"], "0x178e4883bf1c91703");
        assert_eq!(
            j["basis"],
            "poly64 (bitpolymul2 basis), v_63 = 0x9dc338f8399031b4"
        );
        assert_eq!(j["weight"].as_u64(), Some(w));
        assert_eq!(j["verified"], true);
    }
}

#[test]
fn out_file_has_the_json_bytes_and_text_mode_works() {
    let d = tmp_dir("modulus-out");
    let f = d.join("m.json");
    let r = search(&[
        "modulus",
        "--m",
        "32",
        "--l",
        "10",
        "--beta",
        "0x00103674",
        "--json",
        "--out",
        p(&f),
    ])
    .ok();
    assert_eq!(read(&f), r.stdout);
    let t = search(&["modulus", "--m", "32", "--l", "10", "--beta", "0x103674"]).ok();
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(text.contains("weight 165"), "{text}");
    assert!(text.contains("verified       yes"), "{text}");
    // the hex written is accepted back
    let j: serde_json::Value = serde_json::from_slice(&r.stdout).expect("json");
    let beta = j["beta"].as_str().expect("beta");
    let again = search(&[
        "modulus", "--m", "32", "--l", "10", "--beta", beta, "--json",
    ])
    .ok();
    assert_eq!(again.stdout, r.stdout);
    let _ = std::fs::remove_dir_all(&d);
}
