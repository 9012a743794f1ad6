//! Reading Rust as text for tidy: code with comments and literals
//! blanked, functions and their lengths, and what a file imports.

use super::SourceFile;

pub(crate) fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

pub(crate) fn line_at(code: &str, at: usize) -> usize {
    code[..at].matches('\n').count() + 1
}

/// Blanks comments (nested block comments too), string literals (raw and
/// byte strings too) and character literals, keeping every newline.
pub(crate) fn blank(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(s.len());
    let mut i = 0;
    let keep = |out: &mut Vec<char>, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        let prev_ident = i > 0 && is_ident(s[i - 1]);
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                keep(&mut out, s[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    keep(&mut out, s[i]);
                    keep(&mut out, s[i + 1]);
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    keep(&mut out, s[i]);
                    keep(&mut out, s[i + 1]);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    keep(&mut out, s[i]);
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string_start(&s, i).filter(|_| !prev_ident) {
            // r"…", r#"…"#, br"…": up to the quote and as many #.
            let hashes = len - 1 - usize::from(s[i] == 'b') - 1;
            let start = i;
            i += len;
            while i < s.len() {
                if s[i] == '"' && (0..hashes).all(|k| s.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            for &ch in &s[start..i.min(s.len())] {
                keep(&mut out, ch);
            }
        } else if c == '"' {
            keep(&mut out, c);
            i += 1;
            while i < s.len() && s[i] != '"' {
                if s[i] == '\\' {
                    keep(&mut out, s[i]);
                    i += 1;
                }
                if i < s.len() {
                    keep(&mut out, s[i]);
                    i += 1;
                }
            }
            if i < s.len() {
                keep(&mut out, s[i]);
                i += 1;
            }
        } else if c == '\'' {
            // A character literal, or a lifetime (left as it is).
            let end = match next {
                Some('\\') => (i + 3..s.len()).find(|&j| s[j] == '\''),
                Some(_) if s.get(i + 2) == Some(&'\'') => Some(i + 2),
                _ => None,
            };
            match end {
                Some(end) => {
                    for &ch in &s[i..=end] {
                        keep(&mut out, ch);
                    }
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The length of a raw string's opening (`r"`, `r#"`, `br##"`) at `i`.
pub(crate) fn raw_string_start(s: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if s.get(j) == Some(&'b') {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    while s.get(j) == Some(&'#') {
        j += 1;
    }
    (s.get(j) == Some(&'"')).then_some(j + 1 - i)
}

/// `code` with its `#[cfg(test)]` items blanked.
pub(crate) fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|i| i + from) {
        let body = out[at..].find(['{', ';']).map(|i| i + at);
        let end = match body {
            Some(open) if out.as_bytes()[open] == b'{' => matching_brace(&out, open),
            Some(semi) => Some(semi),
            None => None,
        };
        let Some(end) = end else {
            break;
        };
        let blanked: String = out[at..=end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..=end, &blanked);
        from = at + blanked.len();
    }
    out
}

/// The byte offset of the `}` that closes the `{` at `open`.
pub(crate) fn matching_brace(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Every function with a body: its name, first line and length in lines
/// (from the `fn` line to the closing brace).
pub(crate) fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("fn") {
        let before_ok = at == 0 || !is_ident(char::from(b[at - 1]));
        let after_ok = b.get(at + 2).is_some_and(|c| c.is_ascii_whitespace());
        if !before_ok || !after_ok {
            continue;
        }
        let rest = code[at + 2..].trim_start();
        let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if name.is_empty() {
            continue;
        }
        // The body opens at the first `{` outside parentheses and brackets
        // (`[u8; 4]` holds a `;`); a `;` there ends a declaration.
        let mut depth = 0i32;
        let mut open = None;
        for (i, c) in code[at..].char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' if depth == 0 => {
                    open = Some(at + i);
                    break;
                }
                ';' if depth == 0 => break,
                _ => {}
            }
        }
        let Some(end) = open.and_then(|o| matching_brace(code, o)) else {
            continue;
        };
        let first = line_at(code, at);
        out.push((name, first, line_at(code, end) - first + 1));
    }
    out
}

// ---------------------------------------------------------------------------
// Imports.

pub(crate) struct Import {
    pub(crate) line: usize,
    /// The module path it names, from the crate root.
    pub(crate) path: Vec<String>,
}

/// What a file imports from the crate: paths through `crate::`, `super::`
/// and `self::` (use trees included), and paths that start with the name of
/// one of its child modules.
pub(crate) fn imports(f: &SourceFile, files: &[SourceFile]) -> Vec<Import> {
    let code = &f.code;
    let b = code.as_bytes();
    let children = children_of(f, files);
    let scopes = inline_modules(f);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let at_word = i == 0 || !(is_ident(char::from(b[i - 1])) || b[i - 1] == b'$');
        let after_colons = i >= 2 && &b[i - 2..i] == b"::";
        let word: String = code[i..].chars().take_while(|c| is_ident(*c)).collect();
        if !at_word || after_colons || word.is_empty() || !code[i + word.len()..].starts_with("::")
        {
            i += 1;
            continue;
        }
        let module = scope_at(&scopes, &f.module, i);
        let base: Option<Vec<String>> = match word.as_str() {
            "crate" => Some(Vec::new()),
            "self" => Some(module.clone()),
            "super" => Some(module[..module.len().saturating_sub(1)].to_vec()),
            w if children.iter().any(|c| c == w) => Some(module.clone()),
            _ => None,
        };
        let Some(base) = base else {
            i += word.len();
            continue;
        };
        let start = if matches!(word.as_str(), "crate" | "self" | "super") {
            i + word.len() + 2
        } else {
            i
        };
        let (trees, end) = use_tree(b, start);
        for t in trees {
            let mut path = base.clone();
            for seg in t {
                match seg.as_str() {
                    "super" => {
                        path.pop();
                    }
                    "self" => {}
                    _ => path.push(seg),
                }
            }
            if !path.is_empty() {
                out.push(Import {
                    line: line_at(code, i),
                    path,
                });
            }
        }
        i = end.max(i + 1);
    }
    out
}

/// The modules declared in files under a module's own folder.
pub(crate) fn children_of(f: &SourceFile, files: &[SourceFile]) -> Vec<String> {
    let own_folder = f.rel.ends_with("/mod.rs") || f.rel == "src/lib.rs";
    if !own_folder {
        return Vec::new();
    }
    files
        .iter()
        .filter(|g| g.module.len() == f.module.len() + 1 && g.module.starts_with(&f.module))
        .map(|g| g.module.last().unwrap().clone())
        .collect()
}

/// Inline modules (`mod tests { … }`): their name and byte range.
pub(crate) fn inline_modules(f: &SourceFile) -> Vec<(String, std::ops::Range<usize>)> {
    let code = &f.code;
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && is_ident(char::from(code.as_bytes()[at - 1])) {
            continue;
        }
        let rest = &code[at + 4..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| is_ident(*c))
            .collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        if let Some(end) = matching_brace(code, open) {
            out.push((name, open..end));
        }
    }
    out
}

/// The module path at byte `at`: the file's, inside any inline modules.
pub(crate) fn scope_at(
    scopes: &[(String, std::ops::Range<usize>)],
    file: &[String],
    at: usize,
) -> Vec<String> {
    let mut path = file.to_vec();
    let mut inner: Vec<&(String, std::ops::Range<usize>)> =
        scopes.iter().filter(|(_, r)| r.contains(&at)).collect();
    inner.sort_by_key(|(_, r)| r.start);
    path.extend(inner.into_iter().map(|(n, _)| n.clone()));
    path
}

/// A path or use tree at `i` (after `crate::`): its paths, as segments,
/// and where it ends. `a::{b, c::d}` gives `[a, b]` and `[a, c, d]`.
pub(crate) fn use_tree(b: &[u8], i: usize) -> (Vec<Vec<String>>, usize) {
    let mut i = skip_ws(b, i);
    if b.get(i) == Some(&b'{') {
        let mut out = Vec::new();
        i += 1;
        loop {
            i = skip_ws(b, i);
            match b.get(i) {
                None => return (out, i),
                Some(b'}') => return (out, i + 1),
                Some(b',') => i += 1,
                _ => {
                    let (trees, end) = use_tree(b, i);
                    out.extend(trees);
                    // `x as y`
                    i = skip_alias(b, end);
                    if end == i && !matches!(b.get(i), Some(b',' | b'}')) {
                        i += 1;
                    }
                }
            }
        }
    }
    if b.get(i) == Some(&b'*') {
        return (vec![Vec::new()], i + 1);
    }
    let start = i;
    while i < b.len() && is_ident(char::from(b[i])) {
        i += 1;
    }
    if i == start {
        return (vec![Vec::new()], i);
    }
    let seg = String::from_utf8_lossy(&b[start..i]).into_owned();
    if b[i..].starts_with(b"::") {
        let next = skip_ws(b, i + 2);
        let more = b
            .get(next)
            .is_some_and(|c| *c == b'{' || *c == b'*' || is_ident(char::from(*c)));
        if more {
            let (trees, end) = use_tree(b, next);
            let trees = trees
                .into_iter()
                .map(|mut t| {
                    t.insert(0, seg.clone());
                    t
                })
                .collect();
            return (trees, end);
        }
    }
    (vec![vec![seg]], i)
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

pub(crate) fn skip_alias(b: &[u8], i: usize) -> usize {
    let j = skip_ws(b, i);
    if b[j..].starts_with(b"as") && b.get(j + 2).is_some_and(|c| c.is_ascii_whitespace()) {
        let mut k = skip_ws(b, j + 2);
        while k < b.len() && is_ident(char::from(b[k])) {
            k += 1;
        }
        return k;
    }
    i
}

// ---------------------------------------------------------------------------
// The reader itself.
