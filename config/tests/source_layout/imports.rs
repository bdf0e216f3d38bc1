//! The modules of a crate and the imports between them.

use std::collections::{BTreeMap, BTreeSet};

use super::blank::{blank_rust, closing_brace, find, is_ident};
use super::common;

/// The top-level modules named after `crate::` (or `<lib>::`) in blanked source, `crate::{a, b}`
/// groups included.
pub fn imported_modules(b: &[u8], lib: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in ["crate::".to_string(), format!("{lib}::")] {
        let p = prefix.as_bytes();
        let mut i = 0;
        while let Some(at) = find(b, i, p) {
            i = at + p.len();
            if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
                continue;
            }
            if b.get(i) == Some(&b'{') {
                out.extend(group_heads(b, i));
            } else {
                let end = (i..b.len()).find(|&k| !is_ident(b[k])).unwrap_or(b.len());
                out.insert(String::from_utf8_lossy(&b[i..end]).into_owned());
            }
        }
    }
    out.remove("");
    out
}

/// The first path segment of each item of the `{…}` group opened at `open`.
pub fn group_heads(b: &[u8], open: usize) -> Vec<String> {
    let close = closing_brace(b, open);
    let mut heads = Vec::new();
    let (mut depth, mut item_start) = (0, true);
    for k in open + 1..close {
        match b[k] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => item_start = true,
            c if depth == 0 && item_start && is_ident(c) => {
                let end = (k..close).find(|&j| !is_ident(b[j])).unwrap_or(close);
                heads.push(String::from_utf8_lossy(&b[k..end]).into_owned());
                item_start = false;
            }
            _ => {}
        }
    }
    heads
}

/// The module of a file under `src/` (`a.rs`, `a/mod.rs`, `a/x.rs` -> `a`); None for the crate
/// root and binaries.
pub fn module_of(rel: &str) -> Option<String> {
    let first = rel.split('/').next()?;
    if rel.contains('/') {
        return (first != "bin").then(|| first.to_string());
    }
    let name = first.strip_suffix(".rs")?;
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// The import graph of one crate's modules: module -> modules it names.
pub fn module_graph(files: &[(String, String)], lib: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, _) in files {
        if let Some(m) = module_of(rel) {
            g.entry(m).or_default();
        }
    }
    for (rel, text) in files {
        let Some(m) = module_of(rel) else { continue };
        let names = imported_modules(&blank_rust(text), lib);
        let edges: Vec<String> = names
            .into_iter()
            .filter(|n| *n != m && g.contains_key(n))
            .collect();
        g.entry(m).or_default().extend(edges);
    }
    g
}

/// The strongly connected components with more than one module (Tarjan's algorithm).
pub fn loops(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.g.get(v).into_iter().flatten() {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let lw = s.low[w.as_str()];
                s.low.insert(v, s.low[v].min(lw));
            } else if s.stack.contains(&w.as_str()) {
                let iw = s.index[w.as_str()];
                s.low.insert(v, s.low[v].min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let at = s.stack.iter().rposition(|x| *x == v).unwrap_or(0);
            let comp: Vec<String> = s.stack.drain(at..).map(str::to_string).collect();
            if comp.len() > 1 {
                s.found.push(comp);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// The workspace's crates with a library: (folder, lib name).
pub fn crates_with_lib() -> Vec<(String, String)> {
    let root = common::repo_root();
    let files = common::tracked_files(&root);
    let mut v = Vec::new();
    for toml in files.iter().filter(|p| p.ends_with("Cargo.toml")) {
        let dir = toml
            .trim_end_matches("Cargo.toml")
            .trim_end_matches('/')
            .to_string();
        let lib_rs = if dir.is_empty() {
            "src/lib.rs".to_string()
        } else {
            format!("{dir}/src/lib.rs")
        };
        if !files.contains(&lib_rs) {
            continue;
        }
        let text = common::read_text(&root.join(toml)).unwrap_or_default();
        v.push((dir, lib_name(&text)));
    }
    v
}

/// `[lib] name`, or the package name with `-` as `_`.
pub fn lib_name(cargo_toml: &str) -> String {
    let mut section = "";
    let (mut package, mut lib) = (None, None);
    for l in cargo_toml.lines().map(str::trim) {
        if l.starts_with('[') {
            section = l;
        } else if let Some(v) = l
            .strip_prefix("name")
            .map(str::trim)
            .and_then(|r| r.strip_prefix('='))
        {
            let v = v.trim().trim_matches('"').to_string();
            match section {
                "[package]" => package = Some(v),
                "[lib]" => lib = Some(v),
                _ => {}
            }
        }
    }
    lib.or(package).unwrap_or_default().replace('-', "_")
}
