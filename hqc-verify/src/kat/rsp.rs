//! The NIST-style `.rsp` KAT response format (docs/kat.md, docs/hqc.md §12).
//!
//! ```text
//! # HQC-1
//!
//! count = 0
//! seed = <96 hex digits>
//! pk = <hex>
//! sk = <hex>
//! ct = <hex>
//! ss = <64 hex digits>
//!
//! count = 1
//! ...
//! ```
//!
//! Upper-case hex, LF line endings, a blank line after every entry. The parser accepts the
//! fields by name (`key = value`), in any order within an entry, and reports malformed
//! input with its line number.

use std::fmt::Write as _;

use thiserror::Error;

/// One KAT entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `count`.
    pub count: usize,
    /// 48-byte KAT seed.
    pub seed: Vec<u8>,
    /// Encapsulation key.
    pub pk: Vec<u8>,
    /// Decapsulation key.
    pub sk: Vec<u8>,
    /// Ciphertext.
    pub ct: Vec<u8>,
    /// Shared secret.
    pub ss: Vec<u8>,
}

/// Field names of an entry, in file order.
pub const FIELDS: [&str; 6] = ["count", "seed", "pk", "sk", "ct", "ss"];

impl Entry {
    /// The bytes of field `name` (`count` as its decimal text).
    pub fn field(&self, name: &str) -> Option<Vec<u8>> {
        Some(match name {
            "count" => self.count.to_string().into_bytes(),
            "seed" => self.seed.clone(),
            "pk" => self.pk.clone(),
            "sk" => self.sk.clone(),
            "ct" => self.ct.clone(),
            "ss" => self.ss.clone(),
            _ => return None,
        })
    }
}

/// A parsed `.rsp` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RspFile {
    /// The algorithm name of the header line (`# HQC-1` → `HQC-1`).
    pub algorithm: String,
    /// The entries in file order.
    pub entries: Vec<Entry>,
}

/// A malformed `.rsp` file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RspError {
    /// The first line is not `# NAME`.
    #[error("line 1: expected a header `# <algorithm>`, found {found:?}")]
    MissingHeader {
        /// The first line.
        found: String,
    },
    /// A non-blank line without ` = `.
    #[error("line {line}: expected `key = value`, found {content:?}")]
    MalformedLine {
        /// 1-based line number.
        line: usize,
        /// The line (truncated).
        content: String,
    },
    /// An unknown key.
    #[error("line {line}: unknown field `{key}` (expected one of count, seed, pk, sk, ct, ss)")]
    UnknownField {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
    },
    /// A field before the first `count`.
    #[error("line {line}: field `{key}` appears before any `count = ` line")]
    FieldOutsideEntry {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
    },
    /// A field given twice in one entry.
    #[error("line {line}: field `{key}` given twice in entry count = {count}")]
    DuplicateField {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
        /// The entry.
        count: usize,
    },
    /// `count` is not a decimal number.
    #[error("line {line}: `count` must be a decimal number, found {value:?}")]
    BadCount {
        /// 1-based line number.
        line: usize,
        /// The value.
        value: String,
    },
    /// A value that is not hex.
    #[error("line {line}: field `{key}` is not valid hex: {reason}")]
    BadHex {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
        /// Why.
        reason: String,
    },
    /// An entry lacks a field.
    #[error("entry count = {count} (starting at line {line}) has no `{key}` field")]
    MissingField {
        /// The entry.
        count: usize,
        /// Line of its `count`.
        line: usize,
        /// The missing key.
        key: String,
    },
}

#[derive(Default)]
struct Partial {
    count: usize,
    line: usize,
    seed: Option<Vec<u8>>,
    pk: Option<Vec<u8>>,
    sk: Option<Vec<u8>>,
    ct: Option<Vec<u8>>,
    ss: Option<Vec<u8>>,
}

impl Partial {
    fn finish(self) -> Result<Entry, RspError> {
        let miss = |key: &str| RspError::MissingField {
            count: self.count,
            line: self.line,
            key: key.to_string(),
        };
        Ok(Entry {
            count: self.count,
            seed: self.seed.clone().ok_or_else(|| miss("seed"))?,
            pk: self.pk.clone().ok_or_else(|| miss("pk"))?,
            sk: self.sk.clone().ok_or_else(|| miss("sk"))?,
            ct: self.ct.clone().ok_or_else(|| miss("ct"))?,
            ss: self.ss.clone().ok_or_else(|| miss("ss"))?,
        })
    }
}

fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        t.push('…');
    }
    t
}

/// Parses a `.rsp` file.
pub fn parse(text: &str) -> Result<RspFile, RspError> {
    let mut lines = text.lines().enumerate();
    let algorithm = match lines.next() {
        Some((_, l)) if l.starts_with("# ") => l[2..].trim().to_string(),
        other => {
            return Err(RspError::MissingHeader {
                found: clip(other.map(|(_, l)| l).unwrap_or("")),
            })
        }
    };
    let mut entries = Vec::new();
    let mut cur: Option<Partial> = None;
    for (i, raw) in lines {
        let line = i + 1;
        let l = raw.trim_end_matches('\r');
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let Some((k, v)) = l.split_once('=') else {
            return Err(RspError::MalformedLine {
                line,
                content: clip(l),
            });
        };
        let (key, value) = (k.trim(), v.trim());
        if key == "count" {
            let count = value.parse::<usize>().map_err(|_| RspError::BadCount {
                line,
                value: clip(value),
            })?;
            if let Some(p) = cur.take() {
                entries.push(p.finish()?);
            }
            cur = Some(Partial {
                count,
                line,
                ..Partial::default()
            });
            continue;
        }
        if !FIELDS.contains(&key) {
            return Err(RspError::UnknownField {
                line,
                key: clip(key),
            });
        }
        let Some(p) = cur.as_mut() else {
            return Err(RspError::FieldOutsideEntry {
                line,
                key: key.to_string(),
            });
        };
        let bytes = hex::decode(value).map_err(|e| RspError::BadHex {
            line,
            key: key.to_string(),
            reason: e.to_string(),
        })?;
        let slot = match key {
            "seed" => &mut p.seed,
            "pk" => &mut p.pk,
            "sk" => &mut p.sk,
            "ct" => &mut p.ct,
            _ => &mut p.ss,
        };
        if slot.is_some() {
            return Err(RspError::DuplicateField {
                line,
                key: key.to_string(),
                count: p.count,
            });
        }
        *slot = Some(bytes);
    }
    if let Some(p) = cur.take() {
        entries.push(p.finish()?);
    }
    Ok(RspFile { algorithm, entries })
}

/// The header lines `# NAME\n\n`.
pub fn header(algorithm: &str) -> String {
    format!("# {algorithm}\n\n")
}

/// Appends one entry (7 lines, including its trailing blank line) in the official format.
pub fn write_entry(out: &mut String, e: &Entry) {
    let _ = write!(
        out,
        "count = {}\nseed = {}\npk = {}\nsk = {}\nct = {}\nss = {}\n\n",
        e.count,
        hex::encode_upper(&e.seed),
        hex::encode_upper(&e.pk),
        hex::encode_upper(&e.sk),
        hex::encode_upper(&e.ct),
        hex::encode_upper(&e.ss)
    );
}

/// The whole file text for `entries`.
pub fn format(algorithm: &str, entries: &[Entry]) -> String {
    let mut s = header(algorithm);
    for e in entries {
        write_entry(&mut s, e);
    }
    s
}

/// The first `lines` lines of `text`, each with its `\n` (the "first K entries"
/// convention uses 2 + 7·K lines). `None` if the text has fewer lines.
pub fn first_lines(text: &str, lines: usize) -> Option<&str> {
    if lines == 0 {
        return Some("");
    }
    let mut seen = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            seen += 1;
            if seen == lines {
                return Some(&text[..=i]);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Entry {
        Entry {
            count: 0,
            seed: vec![1; 48],
            pk: vec![2; 3],
            sk: vec![3; 4],
            ct: vec![4; 5],
            ss: vec![5; 32],
        }
    }

    #[test]
    fn format_parse_round_trip() {
        let mut e1 = sample();
        e1.count = 1;
        let text = format("HQC-1", &[sample(), e1.clone()]);
        assert_eq!(text.lines().count(), 2 + 7 * 2);
        assert!(text.ends_with("\n\n"));
        let f = parse(&text).expect("well-formed");
        assert_eq!(f.algorithm, "HQC-1");
        assert_eq!(f.entries, vec![sample(), e1]);
        assert_eq!(
            first_lines(&text, 9),
            Some(&text[..text.find("count = 1").unwrap_or(0)])
        );
    }

    #[test]
    fn malformed_files_give_line_numbers() {
        assert!(matches!(
            parse("HQC\n"),
            Err(RspError::MissingHeader { .. })
        ));
        assert_eq!(
            parse("# X\n\ncount = 0\nseed 00\n"),
            Err(RspError::MalformedLine {
                line: 4,
                content: "seed 00".into()
            })
        );
        assert!(matches!(
            parse("# X\n\ncount = 0\nseed = 0g\n"),
            Err(RspError::BadHex { line: 4, .. })
        ));
        assert!(matches!(
            parse("# X\n\ncount = 0\nfoo = 00\n"),
            Err(RspError::UnknownField { line: 4, .. })
        ));
        assert!(matches!(
            parse("# X\n\nseed = 00\n"),
            Err(RspError::FieldOutsideEntry { line: 3, .. })
        ));
        assert!(matches!(
            parse("# X\n\ncount = zero\n"),
            Err(RspError::BadCount { line: 3, .. })
        ));
        assert!(matches!(
            parse("# X\n\ncount = 0\nseed = 00\nseed = 00\n"),
            Err(RspError::DuplicateField { line: 5, .. })
        ));
        assert!(matches!(
            parse("# X\n\ncount = 0\nseed = 00\n"),
            Err(RspError::MissingField { count: 0, .. })
        ));
    }
}
