//! Host-side checks of m4kem's C entry points against the committed KAT pins
//! (`hqc-verify/kat/entries/<flavour>-hqc-<L>.txt`, docs/kat.md); no official file needed.
//!
//! * The entry points, compiled for the host, regenerate the first entries of every level and
//!   flavour; their digest SHA3-256(pk ‖ sk ‖ ct ‖ ss) must equal the pinned board digest,
//!   and the split API (keygen/encaps/decaps) must give the pinned ss and digest.
//! * With `M4KEM_BOARD_OUT=<file>` (a board run's output, e.g. `build/board-run/<export>/logs/kat-*.out` of `hqc-verify board`), every
//!   `count=… digest=… ok=…` line of that file is checked against the pins too, and the
//!   first differing entry is named (the check `hqc-verify board` makes, from this crate's side).
//! * Only when `$HQC_KAT_DIR` names the official KAT folder (optional), the split API's
//!   bytes are also compared with the `.rsp` files field by field.
//!
//! The pin files are parsed here (test code; the product's parser is
//! `hqc_verify::kat::pins`, which needs `std` features this `no_std` crate does not enable).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use m4kem::{
    M4kemStatus, hqc_kat_entry, m4kem_decaps, m4kem_encaps, m4kem_entry_digest,
    m4kem_kat_randomness, m4kem_kat_seeds, m4kem_keygen, m4kem_sizes,
};
use sha3::{Digest, Sha3_256};

const LEVELS: [u32; 3] = [1, 3, 5];
/// (code, name in the board output and the pin files, official folder)
const FLAVOURS: [(u32, &str, &str); 2] = [
    (0, "v5.0.0", "v5.0.0"),
    (1, "2026-02", "2026-02-sampling-update"),
];

/// One pinned entry: `count seed[0..8] sha256(pk)[0..8] sha256(sk)[0..8] sha256(ct)[0..8] ss board`.
#[derive(Clone, Debug)]
struct Pin {
    seed8: String,
    ss: String,
    board: String,
}

fn pin_text(flavour: &str, level: u32) -> &'static str {
    match (flavour, level) {
        ("v5.0.0", 1) => include_str!("../../../kat/entries/v5.0.0-hqc-1.txt"),
        ("v5.0.0", 3) => include_str!("../../../kat/entries/v5.0.0-hqc-3.txt"),
        ("v5.0.0", 5) => include_str!("../../../kat/entries/v5.0.0-hqc-5.txt"),
        ("2026-02", 1) => include_str!("../../../kat/entries/2026-02-hqc-1.txt"),
        ("2026-02", 3) => include_str!("../../../kat/entries/2026-02-hqc-3.txt"),
        ("2026-02", 5) => include_str!("../../../kat/entries/2026-02-hqc-5.txt"),
        _ => panic!("no pins for {flavour} HQC-{level}"),
    }
}

/// The pins of one flavour and level, indexed by count (all 100 entries).
fn pins(flavour: &str, level: u32) -> Vec<Pin> {
    let mut out = Vec::new();
    for (i, line) in pin_text(flavour, level).lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let c: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            c.len(),
            7,
            "{flavour} HQC-{level} pins line {}: 7 columns",
            i + 1
        );
        assert_eq!(
            c[0],
            out.len().to_string(),
            "{flavour} HQC-{level}: counts in order"
        );
        out.push(Pin {
            seed8: c[1].to_string(),
            ss: c[5].to_string(),
            board: c[6].to_string(),
        });
    }
    assert_eq!(out.len(), 100, "{flavour} HQC-{level}: 100 pinned entries");
    out
}

/// The official KAT folder, only when `$HQC_KAT_DIR` names it.
fn kat_dir() -> Option<PathBuf> {
    let v = std::env::var_os("HQC_KAT_DIR").filter(|v| !v.is_empty())?;
    let p = PathBuf::from(v);
    assert!(p.is_dir(), "HQC_KAT_DIR={} is not a folder", p.display());
    Some(p)
}

type Entry = BTreeMap<String, Vec<u8>>;

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Entries 0 .. `upto` − 1 of an `.rsp` file (fields by name).
fn parse_rsp(path: &Path, upto: usize) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: Vec<Entry> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (k, v) = line
            .split_once(" = ")
            .unwrap_or_else(|| panic!("{}: bad line {line:?}", path.display()));
        if k == "count" {
            let c: usize = v.trim().parse().expect("count");
            if c >= upto {
                break;
            }
            assert_eq!(c, out.len(), "{}: counts out of order", path.display());
            out.push(Entry::new());
        } else if let Some(e) = out.last_mut() {
            e.insert(k.trim().to_string(), hex(v.trim()));
        }
    }
    out
}

fn rsp_path(dir: &Path, folder: &str, level: u32) -> PathBuf {
    dir.join(folder).join(format!("hqc-{level}.rsp"))
}

fn digest(pk: &[u8], sk: &[u8], ct: &[u8], ss: &[u8]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for part in [pk, sk, ct, ss] {
        h.update(part);
    }
    h.finalize().into()
}

fn seeds(first: u32, count: u32) -> Vec<[u8; 48]> {
    let mut buf = vec![0u8; 48 * count as usize];
    // SAFETY: buf holds 48·count bytes.
    assert_eq!(
        unsafe { m4kem_kat_seeds(first, count, buf.as_mut_ptr()) },
        0
    );
    buf.chunks_exact(48)
        .map(|c| c.try_into().expect("48 bytes"))
        .collect()
}

fn entries_for(level: u32) -> u32 {
    match level {
        1 => 4,
        3 => 3,
        _ => 2,
    }
}

#[test]
fn seeds_match_the_pins() {
    let s = seeds(0, 100);
    for (_, fname, _) in FLAVOURS {
        for level in LEVELS {
            for (i, (a, p)) in s.iter().zip(pins(fname, level)).enumerate() {
                assert_eq!(to_hex(&a[..8]), p.seed8, "seed of count {i}");
            }
        }
    }
    // Skipping with `first` gives the same stream.
    assert_eq!(seeds(3, 2), s[3..5].to_vec());
}

#[test]
fn kat_entry_digests_match_pins() {
    for level in LEVELS {
        for (fcode, fname, _) in FLAVOURS {
            let n = entries_for(level);
            let pinned = pins(fname, level);
            for (i, seed) in seeds(0, n).iter().enumerate() {
                let mut d = [0u8; 32];
                // SAFETY: 48-byte seed, 32-byte output.
                let r = unsafe { hqc_kat_entry(level, fcode, seed.as_ptr(), d.as_mut_ptr()) };
                assert_eq!(
                    r, 1,
                    "HQC-{level} {fname} count {i}: Decaps did not reproduce ss (status {r})"
                );
                assert_eq!(
                    to_hex(&d),
                    pinned[i].board,
                    "HQC-{level} {fname} count {i}: digest differs from the pinned entry"
                );
            }
        }
    }
}

/// Entry 0 of `level` and flavour `fcode` through the split C API (randomness, KeyGen,
/// Encaps, Decaps, the entry digest), every call checked to return 0.
struct SplitRun {
    seed: [u8; 48],
    pk: Vec<u8>,
    sk: Vec<u8>,
    ct: Vec<u8>,
    ss: [u8; 32],
    ss2: [u8; 32],
    d: [u8; 32],
}

fn run_split_api(level: u32, fcode: u32) -> SplitRun {
    let (mut pkl, mut skl, mut ctl, mut kl) = (0u32, 0u32, 0u32, 0u32);
    // SAFETY: valid u32 out-pointers.
    assert_eq!(
        unsafe { m4kem_sizes(level, &mut pkl, &mut skl, &mut ctl, &mut kl) },
        0
    );
    let (mut seed_kem, mut m, mut salt) = ([0u8; 32], vec![0u8; kl as usize], [0u8; 16]);
    let (mut pk, mut sk, mut ct) = (
        vec![0u8; pkl as usize],
        vec![0u8; skl as usize],
        vec![0u8; ctl as usize],
    );
    let (mut ss, mut ss2, mut d) = ([0u8; 32], [0u8; 32], [0u8; 32]);
    let seed = seeds(0, 1)[0];
    // SAFETY: every buffer has the size m4kem_sizes reported.
    unsafe {
        assert_eq!(
            m4kem_kat_randomness(
                level,
                seed.as_ptr(),
                seed_kem.as_mut_ptr(),
                m.as_mut_ptr(),
                salt.as_mut_ptr()
            ),
            0
        );
        assert_eq!(
            m4kem_keygen(
                level,
                fcode,
                seed_kem.as_ptr(),
                pk.as_mut_ptr(),
                sk.as_mut_ptr()
            ),
            0
        );
        assert_eq!(
            m4kem_encaps(
                level,
                fcode,
                pk.as_ptr(),
                m.as_ptr(),
                salt.as_ptr(),
                ct.as_mut_ptr(),
                ss.as_mut_ptr()
            ),
            0
        );
        assert_eq!(
            m4kem_decaps(level, fcode, sk.as_ptr(), ct.as_ptr(), ss2.as_mut_ptr()),
            0
        );
        assert_eq!(
            m4kem_entry_digest(
                level,
                pk.as_ptr(),
                sk.as_ptr(),
                ct.as_ptr(),
                ss.as_ptr(),
                d.as_mut_ptr()
            ),
            0
        );
    }
    SplitRun {
        seed,
        pk,
        sk,
        ct,
        ss,
        ss2,
        d,
    }
}

#[test]
fn split_api_reproduces_entry_0() {
    let kat = kat_dir();
    if kat.is_none() {
        eprintln!("HQC_KAT_DIR not set: entry 0 checked against the pins only");
    }
    for level in LEVELS {
        for (fcode, fname, folder) in FLAVOURS {
            let pin = &pins(fname, level)[0];
            let SplitRun {
                seed,
                pk,
                sk,
                mut ct,
                ss,
                mut ss2,
                d,
            } = run_split_api(level, fcode);
            let tag = format!("HQC-{level} {fname} count 0");
            assert_eq!(to_hex(&ss), pin.ss, "{tag}: ss differs from the pin");
            assert_eq!(ss2, ss, "{tag}: Decaps differs");
            assert_eq!(
                to_hex(&digest(&pk, &sk, &ct, &ss)),
                pin.board,
                "{tag}: SHA3-256(pk || sk || ct || ss) differs from the pin (pk, sk or ct differ)"
            );
            assert_eq!(to_hex(&d), pin.board, "{tag}: m4kem_entry_digest differs");
            if let Some(dir) = &kat {
                let official = parse_rsp(&rsp_path(dir, folder, level), 1);
                let e = &official[0];
                assert!(e["seed"] == seed, "{tag}: seed differs from the .rsp");
                assert!(pk == e["pk"], "{tag}: pk differs from the .rsp");
                assert!(sk == e["sk"], "{tag}: sk differs from the .rsp");
                assert!(ct == e["ct"], "{tag}: ct differs from the .rsp");
                assert_eq!(
                    ss.as_slice(),
                    e["ss"].as_slice(),
                    "{tag}: ss differs from the .rsp"
                );
            }
            // A modified ciphertext is implicitly rejected (a different key, no error).
            ct[0] ^= 1;
            // SAFETY: as above.
            assert_eq!(
                unsafe { m4kem_decaps(level, fcode, sk.as_ptr(), ct.as_ptr(), ss2.as_mut_ptr()) },
                0
            );
            assert_ne!(ss2, ss, "{tag}: a modified ciphertext was accepted");
        }
    }
}

#[test]
fn bad_arguments_are_reported() {
    let seed = [0u8; 48];
    let mut d = [0u8; 32];
    // SAFETY: valid pointers, or null where the function must reject them.
    unsafe {
        assert_eq!(
            hqc_kat_entry(2, 0, seed.as_ptr(), d.as_mut_ptr()),
            M4kemStatus::BadLevel as i32
        );
        assert_eq!(
            hqc_kat_entry(1, 7, seed.as_ptr(), d.as_mut_ptr()),
            M4kemStatus::BadFlavour as i32
        );
        assert_eq!(
            hqc_kat_entry(1, 0, std::ptr::null(), d.as_mut_ptr()),
            M4kemStatus::NullPointer as i32
        );
        assert_eq!(
            m4kem_sizes(
                4,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut()
            ),
            -1
        );
    }
}

/// Checks a board run's output when `M4KEM_BOARD_OUT` names it.
#[test]
fn board_output_matches_pins() {
    let Some(path) = std::env::var_os("M4KEM_BOARD_OUT") else {
        eprintln!("M4KEM_BOARD_OUT not set: no board output to check");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("board output");
    // count=<i> level=<L> flavour=<F> digest=<hex> ok=<0|1>
    let mut lines = Vec::new();
    for l in text.lines().filter(|l| l.starts_with("count=")) {
        let kv: BTreeMap<&str, &str> = l
            .split_whitespace()
            .filter_map(|t| t.split_once('='))
            .collect();
        let c: usize = kv["count"].parse().expect("count");
        let level: u32 = kv["level"].parse().expect("level");
        lines.push((
            c,
            level,
            kv["flavour"].to_string(),
            kv["digest"].to_string(),
            kv["ok"] == "1",
        ));
    }
    assert!(!lines.is_empty(), "no entry line in the board output");
    let (_, level, flavour, _, _) = lines[0].clone();
    let folder = FLAVOURS
        .iter()
        .find(|f| f.1 == flavour)
        .map(|f| f.2)
        .expect("known flavour");
    let pinned = pins(&flavour, level);
    let upto = lines.iter().map(|l| l.0).max().unwrap_or(0) + 1;
    let official = kat_dir().map(|d| parse_rsp(&rsp_path(&d, folder, level), upto));
    for (c, lv, fl, dg, ok) in &lines {
        assert!(
            *lv == level && *fl == flavour,
            "mixed level/flavour in the board output"
        );
        let want = &pinned
            .get(*c)
            .unwrap_or_else(|| panic!("count = {c} is not pinned"))
            .board;
        assert_eq!(
            dg, want,
            "HQC-{level} {flavour}: first differing entry count = {c}"
        );
        if let Some(official) = &official {
            let e = &official[*c];
            let rsp = to_hex(&digest(&e["pk"], &e["sk"], &e["ct"], &e["ss"]));
            assert_eq!(
                dg, &rsp,
                "HQC-{level} {flavour} count = {c}: differs from the .rsp"
            );
        }
        assert!(
            ok,
            "HQC-{level} {flavour} count = {c}: Decaps did not reproduce ss on the board"
        );
    }
    eprintln!("HQC-{level}/{flavour}: {} board entries match", lines.len());
}
