//! Host-side checks of m4kem's C entry points against the official KAT files
//! (`shared/kat/{v5.0.0,2026-02-sampling-update}/hqc-{1,3,5}.rsp`).
//!
//! * The entry points, compiled for the host, regenerate the first entries of every level and
//!   flavour; their digest SHA3-256(pk ‖ sk ‖ ct ‖ ss) must equal the one recomputed from the
//!   `.rsp` fields, and the split API (keygen/encaps/decaps) must give the `.rsp` bytes.
//! * With `M4KEM_BOARD_OUT=<file>` (a board run's output, see `run.sh`), every
//!   `count=… digest=… ok=…` line of that file is checked against the `.rsp` file too, and
//!   the first differing entry is named (the Rust twin of `check.py`).
//!
//! The KAT folder: `$HQC_KAT_DIR`, else the first `shared/kat` above this crate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use m4kem::{
    M4kemStatus, hqc_kat_entry, m4kem_decaps, m4kem_encaps, m4kem_entry_digest,
    m4kem_kat_randomness, m4kem_kat_seeds, m4kem_keygen, m4kem_sizes,
};
use sha3::{Digest, Sha3_256};

const LEVELS: [u32; 3] = [1, 3, 5];
/// (code, name in the board output, folder)
const FLAVOURS: [(u32, &str, &str); 2] = [
    (0, "v5.0.0", "v5.0.0"),
    (1, "2026-02", "2026-02-sampling-update"),
];

fn kat_dir() -> PathBuf {
    if let Some(v) = std::env::var_os("HQC_KAT_DIR") {
        let p = PathBuf::from(v);
        assert!(p.is_dir(), "HQC_KAT_DIR={} is not a folder", p.display());
        return p;
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for anc in here.ancestors() {
        let cand = anc.join("shared").join("kat");
        if cand.join("SHA256SUMS").is_file() || cand.join("v5.0.0").is_dir() {
            return cand;
        }
    }
    panic!(
        "no shared/kat folder above {} (set HQC_KAT_DIR)",
        here.display()
    );
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

fn rsp_path(folder: &str, level: u32) -> PathBuf {
    kat_dir().join(folder).join(format!("hqc-{level}.rsp"))
}

fn rsp_digest(e: &Entry) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for k in ["pk", "sk", "ct", "ss"] {
        h.update(&e[k]);
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
fn seeds_match_the_rsp_files() {
    let e = parse_rsp(&rsp_path("v5.0.0", 1), 5);
    let s = seeds(0, 5);
    for (i, (a, b)) in s.iter().zip(&e).enumerate() {
        assert_eq!(a.as_slice(), b["seed"].as_slice(), "seed of count {i}");
    }
    // Skipping with `first` gives the same stream.
    assert_eq!(seeds(3, 2), s[3..5].to_vec());
}

#[test]
fn kat_entry_digests_match_rsp() {
    for level in LEVELS {
        for (fcode, fname, folder) in FLAVOURS {
            let n = entries_for(level);
            let official = parse_rsp(&rsp_path(folder, level), n as usize);
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
                    to_hex(&rsp_digest(&official[i])),
                    "HQC-{level} {fname} count {i}: digest differs from the official entry"
                );
            }
        }
    }
}

#[test]
fn split_api_reproduces_entry_bytes() {
    for level in LEVELS {
        for (fcode, fname, folder) in FLAVOURS {
            let official = parse_rsp(&rsp_path(folder, level), 1);
            let e = &official[0];
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
            let seed = &e["seed"];
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
            let tag = format!("HQC-{level} {fname} count 0");
            assert!(pk == e["pk"], "{tag}: pk differs");
            assert!(sk == e["sk"], "{tag}: sk differs");
            assert!(ct == e["ct"], "{tag}: ct differs");
            assert_eq!(ss.as_slice(), e["ss"].as_slice(), "{tag}: ss differs");
            assert_eq!(ss2, ss, "{tag}: Decaps differs");
            assert_eq!(d, rsp_digest(e), "{tag}: digest differs");
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
fn board_output_matches_rsp() {
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
    let upto = lines.iter().map(|l| l.0).max().unwrap_or(0) + 1;
    let official = parse_rsp(&rsp_path(folder, level), upto);
    for (c, lv, fl, dg, ok) in &lines {
        assert!(
            *lv == level && *fl == flavour,
            "mixed level/flavour in the board output"
        );
        let want = to_hex(&rsp_digest(&official[*c]));
        assert_eq!(
            dg, &want,
            "HQC-{level} {flavour}: first differing entry count = {c}"
        );
        assert!(
            ok,
            "HQC-{level} {flavour} count = {c}: Decaps did not reproduce ss on the board"
        );
    }
    eprintln!("HQC-{level}/{flavour}: {} board entries match", lines.len());
}
