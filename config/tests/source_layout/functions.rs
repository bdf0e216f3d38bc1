//! Functions and their lengths in Rust, C and Python sources.

use super::blank::{blank_c, blank_rust, closing_brace, find, is_ident, line_of};
use super::extension;

/// A function: its name, its first line and its length in lines.
#[derive(Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// Rust `fn` items with a body, in blanked source.
pub fn rust_functions(b: &[u8]) -> Vec<Function> {
    let mut v = Vec::new();
    let mut i = 0;
    while let Some(at) = find(b, i, b"fn") {
        i = at + 2;
        let word = (at == 0 || !is_ident(b[at - 1]))
            && b.get(at + 2).is_some_and(|c| c.is_ascii_whitespace());
        if !word {
            continue;
        }
        let name_at = (at + 2..b.len())
            .find(|&k| !b[k].is_ascii_whitespace())
            .unwrap_or(b.len());
        let name_end = (name_at..b.len())
            .find(|&k| !is_ident(b[k]))
            .unwrap_or(b.len());
        if name_end == name_at {
            continue;
        }
        let Some(open) = rust_body_open(b, name_end) else {
            continue;
        };
        let close = closing_brace(b, open);
        let (first, last) = (line_of(b, at), line_of(b, close));
        v.push(Function {
            name: String::from_utf8_lossy(&b[name_at..name_end]).into_owned(),
            line: first,
            lines: last - first + 1,
        });
    }
    v
}

/// The `{` opening the body of the `fn` whose signature starts at `from`, or None for a
/// declaration without a body (`;`) or a function-pointer type (a bracket closes first).
pub fn rust_body_open(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0i64;
    for (k, &c) in b.iter().enumerate().skip(from) {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            b'{' if depth == 0 => return Some(k),
            b';' | b'}' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// C function definitions in blanked source: a `{` outside any function whose previous
/// significant character is the `)` of a parameter list (or of an attribute after it).
pub fn c_functions(b: &[u8]) -> Vec<Function> {
    let mut v = Vec::new();
    let mut i = 0;
    while let Some(open) = (i..b.len()).find(|&k| b[k] == b'{') {
        let prev = (0..open).rev().find(|&k| !b[k].is_ascii_whitespace());
        let Some(p) = prev.filter(|&p| b[p] == b')') else {
            i = open + 1;
            continue;
        };
        let paren = matching_open_paren(b, p);
        let name_end = (0..paren)
            .rev()
            .find(|&k| !b[k].is_ascii_whitespace())
            .map_or(0, |k| k + 1);
        let name_at = (0..name_end)
            .rev()
            .find(|&k| !is_ident(b[k]))
            .map_or(0, |k| k + 1);
        let close = closing_brace(b, open);
        let first = line_of(b, paren);
        v.push(Function {
            name: String::from_utf8_lossy(&b[name_at..name_end]).into_owned(),
            line: first,
            lines: line_of(b, close) - first + 1,
        });
        i = close + 1;
    }
    v
}

pub fn matching_open_paren(b: &[u8], close: usize) -> usize {
    let mut depth = 0i64;
    for k in (0..=close).rev() {
        depth += match b[k] {
            b')' => 1,
            b'(' => -1,
            _ => 0,
        };
        if depth == 0 {
            return k;
        }
    }
    0
}

/// Python `def`s: from the `def` line to the last line indented deeper than it (blank lines,
/// comments and lines inside triple-quoted strings do not end a function).
pub fn python_functions(src: &str) -> Vec<Function> {
    let lines: Vec<&str> = src.lines().collect();
    let in_string = python_string_lines(&lines);
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut v = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        if in_string[k] || !(t.starts_with("def ") || t.starts_with("async def ")) {
            continue;
        }
        let mut last = k;
        for (j, m) in lines.iter().enumerate().skip(k + 1) {
            let mt = m.trim_start();
            if in_string[j] || mt.is_empty() || mt.starts_with('#') {
                continue;
            }
            if indent(m) <= indent(l) {
                break;
            }
            last = j;
        }
        let name = t.trim_start_matches("async ").trim_start_matches("def ");
        let name = name.split(['(', ' ']).next().unwrap_or("").to_string();
        v.push(Function {
            name,
            line: k + 1,
            lines: last - k + 1,
        });
    }
    v
}

/// For each line: does it start inside a triple-quoted string?
pub fn python_string_lines(lines: &[&str]) -> Vec<bool> {
    let mut open: Option<&str> = None;
    let mut v = Vec::with_capacity(lines.len());
    for l in lines {
        v.push(open.is_some());
        let mut rest = *l;
        loop {
            let next = match open {
                Some(q) => rest.find(q).map(|k| (k, q)),
                None => ["\"\"\"", "'''"]
                    .iter()
                    .filter_map(|q| rest.find(q).map(|k| (k, *q)))
                    .min(),
            };
            let Some((k, q)) = next else { break };
            open = if open.is_some() { None } else { Some(q) };
            rest = &rest[k + 3..];
        }
    }
    v
}

pub fn functions_of(path: &str, text: &str) -> Vec<Function> {
    match extension(path) {
        "rs" => rust_functions(&blank_rust(text)),
        "c" | "h" => c_functions(&blank_c(text)),
        "py" => python_functions(text),
        _ => Vec::new(),
    }
}
