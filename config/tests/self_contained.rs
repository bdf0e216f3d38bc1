//! The repository stands on its own (docs/README.md):
//!
//! 1. no tracked file refers to the outside reference library: no mention of its mathematics
//!    note, no path into its folder (`<that folder>/docs`, `/kat`, `/seeds`, ...), no relative
//!    path climbing out of the repository into it;
//! 2. every `docs/NAME.md` cited anywhere, and every relative `NAME.md` link inside `docs/`,
//!    names a file that exists;
//! 3. the exported headers (`results/export/**.h`) and the firmware sources and headers under
//!    `hqc-verify/board/` (`.h`, `.c`, `.S`, `.s`) are ASCII;
//! 4. the project speaks in its own words: no tracked file names an internal work stage or a
//!    tracker item (a numbered session, sprint, milestone, stage or issue); a figure is dated
//!    and names its commit and command instead;
//! 5. README.md is written for users: at most 160 lines, none over 200 characters.
//!
//! Tracked files come from `git ls-files` at the repository root (`CARGO_MANIFEST_DIR/..`); in a
//! copy without `.git` the test walks the folder instead (skipping `target/`, `build/` and hidden
//! folders). Only this file is exempt, because it has to spell out what it looks for (and even
//! here the patterns are assembled from pieces). Files that are not UTF-8 text are skipped for
//! checks 1 and 2.

mod common;

use common::{read_text, repo_root, tracked_files};
use std::collections::BTreeSet;

const THIS_FILE: &str = "config/tests/self_contained.rs";

/// The patterns of check 1, assembled so that this file does not contain them literally.
fn outside_patterns() -> Vec<(String, &'static str)> {
    let lib = ["sha", "red"].concat();
    vec![
        (
            ["fafft", "-math"].concat(),
            "names the outside mathematics note (cite docs/fafft.md)",
        ),
        (
            format!("../{lib}"),
            "climbs out of the repository into the outside library",
        ),
        (
            format!("{lib} docs"),
            "cites the outside documentation (cite docs/)",
        ),
    ]
}

/// The reference library folder name followed by a slash (assembled from pieces) used as a path component: preceded by nothing, a separator, a quote,
/// a bracket or white space.
fn outside_path_hits(line: &str) -> bool {
    let needle = ["sha", "red/"].concat();
    let bytes = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find(&needle) {
        let at = from + i;
        let ok_before = at == 0 || {
            let c = bytes[at - 1];
            !(c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        };
        if ok_before {
            return true;
        }
        from = at + needle.len();
    }
    false
}

/// `docs/NAME.md` citations in a line (NAME: letters, digits, `-`, `_`).
fn doc_citations(line: &str) -> Vec<String> {
    let mut v = Vec::new();
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find("docs/") {
        let at = from + i;
        from = at + 5;
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_' || b[at - 1] == b'-') {
            continue;
        }
        let rest = &line[at + 5..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if !name.is_empty() && rest[name.len()..].starts_with(".md") {
            v.push(name);
        }
    }
    v
}

/// Relative markdown links `](NAME.md` or `](NAME.md#…` inside a docs/ file.
fn relative_md_links(line: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut from = 0;
    while let Some(i) = line[from..].find("](") {
        let at = from + i + 2;
        from = at;
        let rest = &line[at..];
        let target: String = rest
            .chars()
            .take_while(|c| !matches!(c, ')' | '#' | ' '))
            .collect();
        if target.ends_with(".md") && !target.contains("://") && !target.contains('/') {
            v.push(target);
        }
    }
    v
}

fn must_be_ascii(path: &str) -> bool {
    let ext = path.rsplit('.').next().unwrap_or("");
    (path.starts_with("results/export/") && ext == "h")
        || (path.starts_with("hqc-verify/board/") && matches!(ext, "h" | "c" | "S" | "s"))
}

#[test]
fn repository_is_self_contained() {
    let root = repo_root();
    let files = tracked_files(&root);
    assert!(
        files.iter().any(|f| f == "Cargo.toml"),
        "no files found under {}",
        root.display()
    );
    let patterns = outside_patterns();
    let mut problems: Vec<String> = Vec::new();
    let mut cited: BTreeSet<(String, String)> = BTreeSet::new(); // (doc name, where)
    for rel in &files {
        if rel == THIS_FILE {
            continue;
        }
        let path = root.join(rel);
        if must_be_ascii(rel) {
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let text = String::from_utf8_lossy(&bytes);
                    let mut reported = 0;
                    for (no, line) in text.lines().enumerate() {
                        if let Some(ch) = line.chars().find(|c| !c.is_ascii()) {
                            if reported < 3 {
                                problems.push(format!("{rel}:{}: not ASCII ({ch:?})", no + 1));
                            }
                            reported += 1;
                        }
                    }
                    if reported > 3 {
                        problems.push(format!("{rel}: {} more non-ASCII line(s)", reported - 3));
                    }
                }
                Err(e) => problems.push(format!("{rel}: cannot read ({e})")),
            }
        }
        let Some(text) = read_text(&path) else {
            continue;
        };
        for (no, line) in text.lines().enumerate() {
            let no = no + 1;
            let mut hit = false;
            for (pat, why) in &patterns {
                if line.contains(pat.as_str()) {
                    problems.push(format!("{rel}:{no}: {why}: {}", line.trim()));
                    hit = true;
                }
            }
            if !hit && outside_path_hits(line) {
                problems.push(format!(
                    "{rel}:{no}: a path into the outside reference library: {}",
                    line.trim()
                ));
            }
            for name in doc_citations(line) {
                cited.insert((name, format!("{rel}:{no}")));
            }
            if rel.starts_with("docs/") && rel.ends_with(".md") {
                for target in relative_md_links(line) {
                    let name = target.trim_end_matches(".md").to_string();
                    cited.insert((name, format!("{rel}:{no}")));
                }
            }
        }
    }
    for (name, at) in &cited {
        if !root.join("docs").join(format!("{name}.md")).is_file() {
            problems.push(format!("{at}: cites docs/{name}.md, which does not exist"));
        }
    }
    // Long lines are cut so that the message stays readable.
    let problems: Vec<String> = problems
        .into_iter()
        .map(|p| {
            if p.chars().count() > 220 {
                let cut: String = p.chars().take(220).collect();
                format!("{cut}...")
            } else {
                p
            }
        })
        .collect();
    assert!(
        problems.is_empty(),
        "{} problem(s): the repository must not depend on files outside it:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Words that, followed by a number (with an optional space, hyphen or `#` between), name an
/// internal work stage or a tracker item. Assembled so that this file does not hold them.
fn stage_words() -> Vec<String> {
    vec![
        ["ses", "sion"].concat(),
        ["spr", "int"].concat(),
        ["mile", "stone"].concat(),
        ["is", "sue"].concat(),
        ["sta", "ge"].concat(),
    ]
}

/// The first work-stage name in `line`: one of [`stage_words`] (also plural), at a word start,
/// then an optional space or hyphen, an optional `#`, and a digit.
fn stage_name(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let b = lower.as_bytes();
    for w in stage_words() {
        let mut from = 0;
        while let Some(i) = lower[from..].find(&w) {
            let at = from + i;
            from = at + w.len();
            if at > 0 && b[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            let mut j = at + w.len();
            if b.get(j) == Some(&b's') {
                j += 1;
            }
            if matches!(b.get(j), Some(b' ' | b'-')) {
                j += 1;
            }
            if b.get(j) == Some(&b'#') {
                j += 1;
            }
            if b.get(j).is_some_and(u8::is_ascii_digit) {
                return Some(line[at..(j + 1).min(line.len())].to_string());
            }
        }
    }
    None
}

#[test]
fn no_work_stage_names_and_a_readme_for_users() {
    let root = repo_root();
    let mut problems = Vec::new();
    for rel in tracked_files(&root) {
        if rel == THIS_FILE {
            continue;
        }
        let Some(text) = read_text(&root.join(&rel)) else {
            continue;
        };
        for (no, line) in text.lines().enumerate() {
            if let Some(hit) = stage_name(line) {
                problems.push(format!(
                    "{rel}:{}: names a work stage ({hit}): date the figure and name its commit",
                    no + 1
                ));
            }
        }
    }
    match read_text(&root.join("README.md")) {
        Some(readme) => {
            let lines = readme.lines().count();
            if lines > 160 {
                problems.push(format!("README.md: {lines} lines (at most 160)"));
            }
            for (no, line) in readme.lines().enumerate() {
                let n = line.chars().count();
                if n > 200 {
                    problems.push(format!(
                        "README.md:{}: {n} characters (at most 200)",
                        no + 1
                    ));
                }
            }
        }
        None => problems.push("README.md: missing or not UTF-8 text".into()),
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_can_fail() {
    // The matchers themselves, on made-up lines.
    let lib = ["sha", "red"].concat();
    assert!(outside_path_hits(&format!("see `{lib}/docs/x.md`")));
    assert!(outside_path_hits(&format!("{lib}/kat")));
    assert!(outside_path_hits(&format!("/work/{lib}/kat")));
    assert!(!outside_path_hits(&format!("un{lib}/x")));
    assert!(!outside_path_hits("a shared folder"));
    assert_eq!(
        doc_citations("see docs/fafft.md §7 and `docs/cli.md`"),
        ["fafft", "cli"]
    );
    assert!(doc_citations("xdocs/a.md").is_empty());
    assert_eq!(
        relative_md_links("[a](hqc.md#x) and [b](https://e/x.md)"),
        ["hqc.md"]
    );
    assert!(must_be_ascii("hqc-verify/board/firmware/fafft/fafft.c"));
    assert!(must_be_ascii("results/export/hqc1-published/IL_defs.h"));
    assert!(!must_be_ascii("results/export/hqc1-published/params.json"));
    let math = ["fafft", "-math"].concat();
    assert!(outside_patterns().iter().any(|(p, _)| *p == math));
    let ses = ["Ses", "sion"].concat();
    assert_eq!(
        stage_name(&format!("({ses} 12, x)")),
        Some(format!("{ses} 1"))
    );
    assert!(stage_name(&format!("the {}-8 run", ses.to_lowercase())).is_some());
    assert!(stage_name(&format!("{}s 3", ses.to_lowercase())).is_some());
    assert!(stage_name(&format!("{} #13", ["is", "sue"].concat())).is_some());
    assert!(stage_name(&format!("{} 2 done", ["Sta", "ge"].concat())).is_some());
    assert!(stage_name("the next session, two stages, backstage 2").is_none());
    assert!(stage_name("round 4, step 1, v5.0.0").is_none());
}
