//! Digests pinned in the repository (`hqc-verify/kat/`), so that every KAT check, on the
//! host and on the board, is judged without the official `.rsp` files (which are too large
//! to commit). See docs/kat.md.
//!
//! * `kat/digests.txt`: SHA-256 of the first 1 and first 10 entries (2 + 7·K lines) and of
//!   the whole file (100 entries), per flavour and level, computed from the official files.
//! * `kat/entries/<flavour>-hqc-<L>.txt`: one line per entry,
//!   `count seed[0..8] sha256(pk)[0..8] sha256(sk)[0..8] sha256(ct)[0..8] ss board`
//!   (hex; the SHA-256 digests truncated to 8 bytes, ss in full, and `board` the full
//!   SHA3-256(pk || sk || ct || ss) that the board runner reports per entry), generated from
//!   the official files by `hqc-verify pin`. They name the first differing entry and field,
//!   and give a verdict for counts without a pinned digest.

use thiserror::Error;

use crate::core::params::{Flavour, Level};

/// A pinned-data file that does not parse (a repository defect).
#[derive(Debug, Error, PartialEq, Eq)]
#[error("pinned KAT data {file}, line {line}: {reason}")]
pub struct PinError {
    /// The file.
    pub file: &'static str,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// The text of `kat/digests.txt`.
pub const DIGESTS_TXT: &str = include_str!("../../kat/digests.txt");

/// The pinned first-K digest, if one is pinned for this K (1, 10 or 100).
pub fn pinned_digest(
    flavour: Flavour,
    level: Level,
    count: usize,
) -> Result<Option<String>, PinError> {
    for (i, line) in DIGESTS_TXT.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = l.split_whitespace().collect();
        let err = |reason: &str| PinError {
            file: "kat/digests.txt",
            line: i + 1,
            reason: reason.to_string(),
        };
        let [f, lv, k, d] = parts[..] else {
            return Err(err("expected `flavour level entries sha256`"));
        };
        let f = Flavour::parse(f).ok_or_else(|| err("unknown flavour"))?;
        let lv = Level::parse(lv).ok_or_else(|| err("unknown level"))?;
        let k: usize = k.parse().map_err(|_| err("entries is not a number"))?;
        if d.len() != 64 || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(err("digest is not 64 hex digits"));
        }
        if f == flavour && lv == level && k == count {
            return Ok(Some(d.to_ascii_lowercase()));
        }
    }
    Ok(None)
}

/// Per-entry pins of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPin {
    /// `count`.
    pub count: usize,
    /// First 8 bytes of the seed, hex.
    pub seed: String,
    /// First 8 bytes of SHA-256(pk), hex.
    pub pk: String,
    /// First 8 bytes of SHA-256(sk), hex.
    pub sk: String,
    /// First 8 bytes of SHA-256(ct), hex.
    pub ct: String,
    /// ss, hex.
    pub ss: String,
    /// SHA3-256(pk || sk || ct || ss), hex (the board's per-entry digest).
    pub board: String,
}

/// The board's per-entry digest: SHA3-256(pk || sk || ct || ss), lower-case hex.
pub fn board_digest_of(e: &super::rsp::Entry) -> String {
    hex::encode(crate::core::keccak::sha3_256(&[&e.pk, &e.sk, &e.ct, &e.ss]))
}

/// The pinned board digest SHA3-256(pk || sk || ct || ss) of entry `count` (lower-case hex),
/// or `None` when that entry is not pinned.
pub fn board_digest(
    flavour: Flavour,
    level: Level,
    count: usize,
) -> Result<Option<String>, PinError> {
    Ok(entry_pins(flavour, level)?
        .into_iter()
        .find(|p| p.count == count)
        .map(|p| p.board))
}

impl EntryPin {
    /// The pinned field names, in file order after `count`.
    pub const FIELDS: [&'static str; 6] = ["seed", "pk", "sk", "ct", "ss", "board"];

    /// The pin of field `name` ("seed", "pk", "sk", "ct", "ss", "board").
    pub fn field(&self, name: &str) -> Option<&str> {
        Some(match name {
            "seed" => &self.seed,
            "pk" => &self.pk,
            "sk" => &self.sk,
            "ct" => &self.ct,
            "ss" => &self.ss,
            "board" => &self.board,
            _ => return None,
        })
    }

    /// The pin line of an entry.
    pub fn of(e: &super::rsp::Entry) -> Self {
        use sha2::{Digest, Sha256};
        let d = |b: &[u8]| hex::encode(&Sha256::digest(b)[..8]);
        EntryPin {
            count: e.count,
            seed: hex::encode(&e.seed[..8.min(e.seed.len())]),
            pk: d(&e.pk),
            sk: d(&e.sk),
            ct: d(&e.ct),
            ss: hex::encode(&e.ss),
            board: board_digest_of(e),
        }
    }

    /// Formats the pin as one line (without newline).
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {}",
            self.count, self.seed, self.pk, self.sk, self.ct, self.ss, self.board
        )
    }
}

/// The folder of the committed per-entry pins (`hqc-verify/kat/entries`) in the tree this crate
/// was built from: where `hqc-verify pin` writes by default.
pub fn entries_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("kat")
        .join("entries")
}

const ENTRY_FILES: [(Flavour, Level, &str, &str); 6] = [
    (
        Flavour::V5_0_0,
        Level::Hqc1,
        "kat/entries/v5.0.0-hqc-1.txt",
        include_str!("../../kat/entries/v5.0.0-hqc-1.txt"),
    ),
    (
        Flavour::V5_0_0,
        Level::Hqc3,
        "kat/entries/v5.0.0-hqc-3.txt",
        include_str!("../../kat/entries/v5.0.0-hqc-3.txt"),
    ),
    (
        Flavour::V5_0_0,
        Level::Hqc5,
        "kat/entries/v5.0.0-hqc-5.txt",
        include_str!("../../kat/entries/v5.0.0-hqc-5.txt"),
    ),
    (
        Flavour::V2026_02,
        Level::Hqc1,
        "kat/entries/2026-02-hqc-1.txt",
        include_str!("../../kat/entries/2026-02-hqc-1.txt"),
    ),
    (
        Flavour::V2026_02,
        Level::Hqc3,
        "kat/entries/2026-02-hqc-3.txt",
        include_str!("../../kat/entries/2026-02-hqc-3.txt"),
    ),
    (
        Flavour::V2026_02,
        Level::Hqc5,
        "kat/entries/2026-02-hqc-5.txt",
        include_str!("../../kat/entries/2026-02-hqc-5.txt"),
    ),
];

/// The file name (relative to `hqc-verify/`) of the per-entry pins.
pub fn entry_file_name(flavour: Flavour, level: Level) -> String {
    format!("kat/entries/{}-hqc-{}.txt", flavour.name(), level.digit())
}

/// The per-entry pins of one flavour and level (empty if none are pinned).
pub fn entry_pins(flavour: Flavour, level: Level) -> Result<Vec<EntryPin>, PinError> {
    let Some(&(_, _, file, text)) = ENTRY_FILES
        .iter()
        .find(|(f, l, _, _)| *f == flavour && *l == level)
    else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |reason: &str| PinError {
            file,
            line: i + 1,
            reason: reason.to_string(),
        };
        let parts: Vec<&str> = l.split_whitespace().collect();
        let [c, seed, pk, sk, ct, ss, board] = parts[..] else {
            return Err(err("expected `count seed pk sk ct ss board`"));
        };
        let hex_of = |v: &str, bytes: usize, name: &str| {
            if v.len() == 2 * bytes && v.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
                Ok(v.to_string())
            } else {
                Err(err(&format!(
                    "{name} is not {bytes} bytes of lower-case hex"
                )))
            }
        };
        out.push(EntryPin {
            count: c.parse().map_err(|_| err("count is not a number"))?,
            seed: hex_of(seed, 8, "seed")?,
            pk: hex_of(pk, 8, "pk")?,
            sk: hex_of(sk, 8, "sk")?,
            ct: hex_of(ct, 8, "ct")?,
            ss: hex_of(ss, 32, "ss")?,
            board: hex_of(board, 32, "board")?,
        });
    }
    Ok(out)
}

/// The official intermediate-values file (count 0 of every flavour and level), whose
/// pinned digest form is `kat/entries/count0-intermediates.txt`.
pub const INTERMEDIATES_FILE: &str = "count0-intermediates.txt";

/// The text of `kat/entries/count0-intermediates.txt`.
pub const INTERMEDIATES_TXT: &str = include_str!("../../kat/entries/count0-intermediates.txt");

/// One pinned intermediate value of the count-0 entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntermediatePin {
    /// Flavour.
    pub flavour: Flavour,
    /// Level.
    pub level: Level,
    /// The value's name in the official file (e.g. `seed_kem`, `y_support_sorted`).
    pub name: String,
    /// SHA-256 of the value's text (lower-case hex, or sorted decimal supports separated
    /// by single spaces), lower-case hex.
    pub sha256: String,
}

impl IntermediatePin {
    /// Formats the pin as one line (without newline): `flavour level sha256 name`.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {}",
            self.flavour.name(),
            self.level.digit(),
            self.sha256,
            self.name
        )
    }
}

/// The pinned count-0 intermediate values of every flavour and level.
pub fn intermediate_pins() -> Result<Vec<IntermediatePin>, PinError> {
    let mut out = Vec::new();
    for (i, line) in INTERMEDIATES_TXT.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |reason: &str| PinError {
            file: "kat/entries/count0-intermediates.txt",
            line: i + 1,
            reason: reason.to_string(),
        };
        let mut it = l.splitn(4, ' ');
        let (Some(f), Some(lv), Some(d), Some(name)) = (it.next(), it.next(), it.next(), it.next())
        else {
            return Err(err("expected `flavour level sha256 name`"));
        };
        if d.len() != 64 || !d.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(err("digest is not 64 lower-case hex digits"));
        }
        out.push(IntermediatePin {
            flavour: Flavour::parse(f).ok_or_else(|| err("unknown flavour"))?,
            level: Level::parse(lv).ok_or_else(|| err("unknown level"))?,
            name: name.to_string(),
            sha256: d.to_string(),
        });
    }
    Ok(out)
}

/// The text of `kat/entries/count0-intermediates.txt` for the official intermediate-values file (used by
/// `hqc-verify pin`): every `name = value` line of each block, the value being the text
/// after the last ` = `, pinned as SHA-256 of that text.
pub fn intermediates_pin_text(official: &str) -> Result<String, PinError> {
    use sha2::{Digest, Sha256};
    let mut s = String::from(
        "# Count-0 intermediate values of KeyGen and Encaps, every flavour and level, pinned as\n\
         # SHA-256 of the value text in the official intermediate-values file (the text after the\n\
         # last ` = `: lower-case hex, or sorted decimal supports separated by single spaces).\n\
         # Generated by `hqc-verify pin`; checked by tests/intermediates.rs. See docs/kat.md.\n\
         # flavour level sha256(value) name\n",
    );
    let mut block: Vec<(&str, &str)> = Vec::new();
    let lines: Vec<&str> = official.lines().chain(std::iter::once("")).collect();
    for (i, line) in lines.iter().enumerate() {
        let err = |reason: String| PinError {
            file: INTERMEDIATES_FILE,
            line: i + 1,
            reason,
        };
        if !line.trim().is_empty() {
            let (Some((k, _)), Some((_, v))) = (line.split_once(" = "), line.rsplit_once(" = "))
            else {
                return Err(err("expected `name = value`".into()));
            };
            block.push((k.trim(), v.trim()));
            continue;
        }
        if block.is_empty() {
            continue;
        }
        let find = |key: &str| block.iter().find(|(k, _)| *k == key).map(|e| e.1);
        let flavour = match find("variant") {
            Some(v) if v.starts_with("v5.0.0") => Flavour::V5_0_0,
            Some(v) if v.starts_with("next-release") => Flavour::V2026_02,
            v => return Err(err(format!("block ending here has unknown variant {v:?}"))),
        };
        let level = match find("param").and_then(|p| p.strip_prefix("HQC-")) {
            Some(d) => Level::parse(d).ok_or_else(|| err(format!("unknown param HQC-{d}")))?,
            None => return Err(err("block ending here has no `param = HQC-L`".into())),
        };
        for &(k, v) in &block {
            if k == "variant" || k == "param" {
                continue;
            }
            let pin = IntermediatePin {
                flavour,
                level,
                name: k.to_string(),
                sha256: hex::encode(Sha256::digest(v.as_bytes())),
            };
            s.push_str(&pin.line());
            s.push('\n');
        }
        block.clear();
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_parse_and_are_complete() {
        for f in Flavour::ALL {
            for l in Level::ALL {
                for k in [1, 10, 100] {
                    assert!(
                        matches!(pinned_digest(f, l, k), Ok(Some(_))),
                        "{f} {l} first-{k} digest pinned"
                    );
                }
                let pins = entry_pins(f, l).expect("pins parse");
                assert_eq!(pins.len(), 100, "{f} {l}");
                assert!(pins.iter().enumerate().all(|(i, p)| p.count == i));
                for c in [0, 99] {
                    let d = board_digest(f, l, c).expect("pins parse").expect("pinned");
                    assert_eq!(d, pins[c].board);
                    assert_eq!(d.len(), 64);
                }
                assert_eq!(board_digest(f, l, 100), Ok(None));
            }
        }
    }

    #[test]
    fn board_digest_of_is_sha3_of_the_concatenation() {
        use sha3::{Digest, Sha3_256};
        let e = crate::kat::rsp::Entry {
            count: 0,
            seed: vec![1; 48],
            pk: vec![2, 3],
            sk: vec![4],
            ct: vec![5, 6, 7],
            ss: vec![8; 32],
        };
        let mut all = vec![2u8, 3, 4, 5, 6, 7];
        all.extend([8u8; 32]);
        assert_eq!(board_digest_of(&e), hex::encode(Sha3_256::digest(&all)));
    }
}
