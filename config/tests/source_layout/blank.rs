//! Comments and literals blanked out (newlines kept, so line numbers stay), so that braces and
//! paths inside them are not read as code.

pub fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

pub fn blank(out: &mut [u8], from: usize, to: usize) {
    let to = to.min(out.len());
    for c in &mut out[from..to] {
        if *c != b'\n' {
            *c = b' ';
        }
    }
}

/// End (exclusive) of a quoted literal opened at `at` by `quote`, honouring backslash escapes.
pub fn quoted_end(b: &[u8], at: usize, quote: u8) -> usize {
    let mut j = at + 1;
    while j < b.len() && b[j] != quote {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(b.len())
}

pub fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    (from..b.len()).find(|&k| b[k..].starts_with(pat))
}

/// End of a Rust raw string `r#..#"…"#..#` starting at the `r` at `at`, if one starts there.
pub fn rust_raw_end(b: &[u8], at: usize) -> Option<usize> {
    let hashes = b[at + 1..].iter().take_while(|&&c| c == b'#').count();
    if b.get(at + 1 + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = at + 2 + hashes;
    Some(find(b, body, &close).map_or(b.len(), |k| k + close.len()))
}

/// End of a Rust block comment opened at `at` (they nest).
pub fn rust_block_end(b: &[u8], at: usize) -> usize {
    let (mut depth, mut j) = (0usize, at);
    while j + 1 < b.len() {
        if b[j] == b'/' && b[j + 1] == b'*' {
            depth += 1;
            j += 2;
        } else if b[j] == b'*' && b[j + 1] == b'/' {
            depth -= 1;
            j += 2;
            if depth == 0 {
                return j;
            }
        } else {
            j += 1;
        }
    }
    b.len()
}

/// End of a Rust char literal at `at`, or None for a lifetime or label.
pub fn rust_char_end(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at + 1) == Some(&b'\\') {
        return Some(quoted_end(b, at, b'\''));
    }
    let rest = std::str::from_utf8(&b[at + 1..(at + 5).min(b.len())])
        .ok()
        .or_else(|| {
            (1..4)
                .rev()
                .find_map(|k| std::str::from_utf8(b.get(at + 1..at + 1 + k)?).ok())
        })?;
    let c = rest.chars().next()?;
    (b.get(at + 1 + c.len_utf8()) == Some(&b'\'')).then_some(at + 2 + c.len_utf8())
}

/// Rust source with comments, strings and char literals blanked.
pub fn blank_rust(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && is_ident(b[i - 1]);
        let raw_start =
            b[i] == b'r' && (!prev_ident || (b[i - 1] == b'b' && (i < 2 || !is_ident(b[i - 2]))));
        let end = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => Some(find(b, i, b"\n").unwrap_or(b.len())),
            b'/' if b.get(i + 1) == Some(&b'*') => Some(rust_block_end(b, i)),
            b'"' => Some(quoted_end(b, i, b'"')),
            b'\'' => rust_char_end(b, i),
            b'r' if raw_start => rust_raw_end(b, i),
            _ => None,
        };
        match end {
            Some(e) => {
                blank(&mut out, i, e);
                i = e;
            }
            None => i += 1,
        }
    }
    out
}

/// C (and C headers) with comments, strings, char literals and preprocessor lines blanked.
pub fn blank_c(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        let line_start = i == 0
            || b[..i]
                .iter()
                .rev()
                .take_while(|&&c| c != b'\n')
                .all(|c| c.is_ascii_whitespace());
        let end = match b[i] {
            b'#' if line_start => Some(c_directive_end(b, i)),
            b'/' if b.get(i + 1) == Some(&b'/') => Some(find(b, i, b"\n").unwrap_or(b.len())),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                Some(find(b, i + 2, b"*/").map_or(b.len(), |k| k + 2))
            }
            b'"' => Some(quoted_end(b, i, b'"')),
            b'\'' => Some(quoted_end(b, i, b'\'')),
            _ => None,
        };
        match end {
            Some(e) => {
                blank(&mut out, i, e);
                i = e;
            }
            None => i += 1,
        }
    }
    out
}

/// End of a preprocessor directive starting at `at` (backslash-continued lines included).
pub fn c_directive_end(b: &[u8], at: usize) -> usize {
    let mut j = at;
    loop {
        let nl = find(b, j, b"\n").unwrap_or(b.len());
        if nl == b.len() || nl == 0 || b[nl - 1] != b'\\' {
            return nl;
        }
        j = nl + 1;
    }
}

pub fn line_of(b: &[u8], at: usize) -> usize {
    b[..at].iter().filter(|&&c| c == b'\n').count() + 1
}

/// Index of the `}` that closes the `{` at `open`.
pub fn closing_brace(b: &[u8], open: usize) -> usize {
    let mut depth = 0i64;
    for (k, &c) in b.iter().enumerate().skip(open) {
        depth += match c {
            b'{' => 1,
            b'}' => -1,
            _ => 0,
        };
        if depth == 0 {
            return k;
        }
    }
    b.len().saturating_sub(1)
}
