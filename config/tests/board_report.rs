//! The board report's one serde type (`fafft_config::schema::board_report`) reads every
//! committed board report under results/, and re-writes each report of the current schema
//! byte for byte the way `hqc-verify board --json` writes it (`to_string_pretty` and a newline).

use fafft_config::schema::board_report::{BoardReport, SCHEMA_VERSION};
use std::path::{Path, PathBuf};

/// Every `.json` file under `dir` that is a board report (it has `routines_total`).
fn reports(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            reports(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(&p).expect("read");
            if text.contains("\"routines_total\"") {
                out.push(p);
            }
        }
    }
}

#[test]
fn committed_board_reports_read_and_rewrite_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let mut files = Vec::new();
    reports(&root, &mut files);
    assert!(files.len() >= 30, "{} board reports", files.len());
    let mut current = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        let r: BoardReport = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a board report: {e}", f.display()));
        if r.schema_version == SCHEMA_VERSION {
            current += 1;
            let again = serde_json::to_string_pretty(&r).expect("json") + "\n";
            assert!(
                again == text,
                "{} does not re-write byte for byte",
                f.display()
            );
        }
    }
    assert!(
        current >= 30,
        "{current} reports of schema {SCHEMA_VERSION}"
    );
}
