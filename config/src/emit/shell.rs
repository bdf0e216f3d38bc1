//! Recorded command lines (params.json `command`, the model table's `command`) that a POSIX
//! shell reads back as the same arguments.

use std::borrow::Cow;

/// `s` as one shell word: unchanged when it holds only characters no shell treats specially,
/// else in single quotes, each `'` written as `'\''`.
pub fn word(s: &str) -> Cow<'_, str> {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+,-".contains(c));
    if plain {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(format!("'{}'", s.replace('\'', r"'\''")))
    }
}

#[cfg(test)]
mod tests {
    use super::word;

    #[test]
    fn words_survive_a_shell() {
        assert_eq!(word("results/model/x.json"), "results/model/x.json");
        assert_eq!(word("a b"), "'a b'");
        assert_eq!(word(""), "''");
        assert_eq!(word("the planner's plan"), r"'the planner'\''s plan'");
        // what sh reads back is the original (a real shell round trip where one exists)
        for s in [
            "the planner's HQC-1 plan|x|y.json",
            "a b",
            "$HOME",
            "x\"y",
            "(k = 1)",
        ] {
            if let Ok(o) = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf %s {}", word(s)))
                .output()
            {
                assert_eq!(String::from_utf8_lossy(&o.stdout), s, "{s}");
            }
        }
    }
}
