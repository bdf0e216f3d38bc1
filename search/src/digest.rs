//! The integrity digest of an intermediate file (checkpoints, shard parts, crt reports).
//!
//! A file the tools write and read back carries `digest`: the SHA-256 (hex) of the compact JSON
//! of the same value with `digest` empty, i.e. over its content and the configuration it holds.
//! A reader recomputes it and refuses a file whose digest differs (the file was edited or
//! damaged); what can be recomputed from the content itself (orbit counts, `best`, `top`) is
//! re-checked as well ([`crate::scan::ChunkResult::check_consistent`]).
//!
//! Two ways to take "the value": the weight scan's checkpoints and shard parts hash their typed
//! value ([`of`]; integers and strings only, so the reader's parsed value serialises to the same
//! bytes). Files holding floating-point numbers or fields their reader does not parse back (crt
//! reports, joint-search checkpoints and shard parts) hash the value parsed back from their own
//! JSON text ([`of_text`] when writing, [`check_member`] when reading): every number is then
//! hashed as the decimal text the file holds, and every member of the file is covered, also one
//! its reader's type skips.

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// SHA-256 (hex) of the compact JSON of `value` (whose `digest` field the caller has emptied).
pub fn of<T: Serialize>(value: &T) -> crate::Result<String> {
    Ok(sha256(value)?)
}

fn sha256<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let bytes = serde_json::to_vec(value)?;
    Ok(hex::encode(Sha256::digest(&bytes)))
}

/// The digest of `value` as a reader of its JSON text recomputes it: [`of`] over the
/// [`Value`] parsed back from the compact JSON of `value` (whose `digest` member the caller has
/// set to the empty string).
pub fn of_text<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let parsed: Value = serde_json::from_slice(&serde_json::to_vec(value)?)?;
    sha256(&parsed)
}

/// What a JSON object's `digest` member says about the rest of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The member holds the digest of the object with the member emptied.
    Matches,
    /// The member holds something else (the file was edited or damaged).
    Differs,
    /// The object has no `digest` member.
    Missing,
}

/// Re-check the `digest` member of `value` (a file parsed as a [`Value`]) the way
/// [`of_text`] made it.
pub fn check_member(value: &Value) -> serde_json::Result<Verdict> {
    let Some(stored) = value.get("digest") else {
        return Ok(Verdict::Missing);
    };
    let mut unsigned = value.clone();
    unsigned["digest"] = Value::String(String::new());
    Ok(if stored.as_str() == Some(sha256(&unsigned)?.as_str()) {
        Verdict::Matches
    } else {
        Verdict::Differs
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Doc {
        cycles: Vec<f64>,
        name: String,
        digest: String,
    }

    #[test]
    fn a_signed_text_checks_and_an_edit_does_not() {
        // floats whose decimal text need not parse back to the written bits in every parser
        let mut d = Doc {
            cycles: vec![0.1 + 0.2, 1.0 / 3.0, 123_456.789_012_345_6, 2.5e-308],
            name: "x".into(),
            digest: String::new(),
        };
        d.digest = of_text(&d).expect("digest");
        let text = serde_json::to_string_pretty(&d).expect("json");
        let v: Value = serde_json::from_str(&text).expect("parse");
        assert_eq!(check_member(&v).expect("check"), Verdict::Matches);
        let edited: Value = serde_json::from_str(&text.replace("\"x\"", "\"y\"")).expect("parse");
        assert_eq!(check_member(&edited).expect("check"), Verdict::Differs);
        let mut removed = v.clone();
        removed.as_object_mut().expect("object").remove("digest");
        assert_eq!(check_member(&removed).expect("check"), Verdict::Missing);
    }
}
