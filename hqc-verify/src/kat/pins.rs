//! Digests pinned in the repository (`hqc-verify/kat/`), so that a KAT run can be judged
//! without the official `.rsp` files (which are too large to commit).
//!
//! * `kat/digests.txt`: SHA-256 of the first 1 and first 10 entries (2 + 7·K lines) and of
//!   the whole file (100 entries), per flavour and level, copied from
//!   `shared/kat/README.md` and `shared/kat/SHA256SUMS`.
//! * `kat/entries/<flavour>-hqc-<L>.txt`: one line per entry,
//!   `count seed[0..8] sha256(pk)[0..8] sha256(sk)[0..8] sha256(ct)[0..8] ss` (hex, the
//!   digests truncated to 8 bytes, ss in full), generated from the official files by
//!   `hqc-verify pin`. They name the first differing entry and field when the official
//!   file is absent, and give a verdict for counts without a pinned digest.

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
}

impl EntryPin {
    /// The pin of field `name` ("seed", "pk", "sk", "ct", "ss").
    pub fn field(&self, name: &str) -> Option<&str> {
        Some(match name {
            "seed" => &self.seed,
            "pk" => &self.pk,
            "sk" => &self.sk,
            "ct" => &self.ct,
            "ss" => &self.ss,
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
        }
    }

    /// Formats the pin as one line (without newline).
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.count, self.seed, self.pk, self.sk, self.ct, self.ss
        )
    }
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
        let [c, seed, pk, sk, ct, ss] = parts[..] else {
            return Err(err("expected `count seed pk sk ct ss`"));
        };
        out.push(EntryPin {
            count: c.parse().map_err(|_| err("count is not a number"))?,
            seed: seed.to_string(),
            pk: pk.to_string(),
            sk: sk.to_string(),
            ct: ct.to_string(),
            ss: ss.to_string(),
        });
    }
    Ok(out)
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
            }
        }
    }
}
