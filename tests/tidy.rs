//! Tidy: rules the code base holds itself to, checked by reading `src/` as
//! text (in the spirit of rust-analyzer's tidy tests). Each test says what
//! it holds; a failure lists every place that breaks it and what to do.
//!
//! - [`layers_only_look_down`]: a module imports from its own layer and the
//!   layers below it, never above ([`LAYERS`]).
//! - [`files_and_functions_stay_small`]: no file in `src/` over
//!   [`MAX_FILE_LINES`] lines, no function over [`MAX_FN_LINES`].
//! - [`only_extract_names_a_language`]: outside `src/extract/`, code never
//!   names one of the languages wirelint reads (`Lang::Elixir`, …); it asks
//!   the language instead.
//! - [`rule_codes_match_the_registry`]: the rule codes that `wirelint.toml`
//!   is checked against, kept low in the layers, are the registry's.
//!
//! Comments, strings and character literals are blanked before reading, so
//! documentation may name anything.

use std::path::Path;

#[path = "tidy/layers.rs"]
mod layers;
use layers::LAYERS;

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;

/// Files allowed over the size limits (none: keep it so).
const SIZE_ALLOWED: &[&str] = &[];

/// Files outside the language homes allowed to match on the language
/// (none: they ask `Lang::host()`).
const LANGUAGE_ALLOWED: &[&str] = &[];

/// Where naming a language is the point: the extractors, the model's
/// `Lang` itself, and the grammar of each language.
const LANGUAGE_HOMES: &[&str] = &["src/extract/", "src/facts/mod.rs", "src/parse/mod.rs"];

/// The variants of `facts::Lang`.
const LANGUAGES: &[&str] = &[
    "Elixir",
    "Rust",
    "Lua",
    "Python",
    "JavaScript",
    "TypeScript",
    "Tsx",
    "Go",
    "Ruby",
];

#[test]
fn layers_only_look_down() {
    let files = sources();
    let mut bad = Vec::new();
    for f in &files {
        let Some(from) = layer_of_file(f) else {
            bad.push(format!(
                "{}: module `{}` is in no layer; add it to LAYERS in tests/tidy.rs",
                f.rel,
                f.module.join("::")
            ));
            continue;
        };
        for imp in imports(f, &files) {
            let target = imp.path.join("::");
            match layer_of(&imp.path) {
                None => bad.push(format!(
                    "{}:{}: `{target}` is in no layer; add it to LAYERS in tests/tidy.rs",
                    f.rel, imp.line
                )),
                Some(to) if to > from => bad.push(format!(
                    "{}:{}: `{}` (layer `{}`) imports `{target}` (layer `{}`, above it); move \
                     what it needs down, or the caller up",
                    f.rel,
                    imp.line,
                    f.module.join("::"),
                    LAYERS[from].0,
                    LAYERS[to].0
                )),
                Some(_) => {}
            }
        }
    }
    assert!(
        bad.is_empty(),
        "a module imports a layer above its own (LAYERS in tests/tidy.rs, lowest first):\n{}",
        bad.join("\n")
    );
}

#[test]
fn files_and_functions_stay_small() {
    let mut bad = Vec::new();
    for f in sources() {
        if SIZE_ALLOWED.contains(&f.rel.as_str()) {
            continue;
        }
        let lines = f.text.lines().count();
        if lines > MAX_FILE_LINES {
            bad.push(format!(
                "{}: {lines} lines (at most {MAX_FILE_LINES}); split it by concern",
                f.rel
            ));
        }
        for (name, line, len) in functions(&f.code) {
            if len > MAX_FN_LINES {
                bad.push(format!(
                    "{}:{line}: fn {name} is {len} lines (at most {MAX_FN_LINES}); split it \
                     into named steps",
                    f.rel
                ));
            }
        }
    }
    assert!(bad.is_empty(), "too large:\n{}", bad.join("\n"));
}

#[test]
fn only_extract_names_a_language() {
    let mut bad = Vec::new();
    for f in sources() {
        let home = LANGUAGE_HOMES.iter().any(|h| f.rel.starts_with(h));
        if home || LANGUAGE_ALLOWED.contains(&f.rel.as_str()) {
            continue;
        }
        let code = without_tests(&f.code);
        for lang in LANGUAGES {
            let needle = format!("Lang::{lang}");
            for (at, _) in code.match_indices(&needle) {
                let end = at + needle.len();
                if code[end..].starts_with(|c: char| is_ident(c)) {
                    continue;
                }
                bad.push(format!(
                    "{}:{}: names `{needle}`; ask the language instead (`src/extract/`)",
                    f.rel,
                    line_at(&code, at)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "only src/extract/ knows a language:\n{}",
        bad.join("\n")
    );
}

/// Fields are read by id (`src/extract/fields.rs`): a lookup by name
/// compares the grammar's field names on every call. And every field an
/// extractor reads (`F.name`, `F` being its grammar's table) exists in
/// that grammar: a name it lacks has id 0, which finds no child, silently.
#[test]
fn fields_are_read_by_id_and_exist_in_their_grammar() {
    let files = sources();
    let mut bad: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let code = without_tests(&f.code);
            code.match_indices("child_by_field_name")
                .map(|(at, _)| format!("{}:{}: read by name", f.rel, line_at(&code, at)))
                .collect::<Vec<_>>()
        })
        .collect();
    // The table's `ident = "name"` pairs, from its source.
    let table = files
        .iter()
        .find(|f| f.rel == "src/extract/fields.rs")
        .expect("src/extract/fields.rs");
    let names: std::collections::HashMap<&str, &str> = table
        .text
        .lines()
        .filter_map(|l| {
            let (ident, name) = l.trim().trim_end_matches(',').split_once(" = \"")?;
            Some((ident, name.strip_suffix('"')?))
        })
        .collect();
    for f in &files {
        let grammar: tree_sitter::Language = match f.text.lines().find_map(|l| {
            l.strip_prefix("use crate::extract::fields::")?
                .strip_suffix(" as F;")
        }) {
            Some("ELIXIR") => tree_sitter_elixir::LANGUAGE.into(),
            Some("RUST") => tree_sitter_rust::LANGUAGE.into(),
            Some("LUA") => tree_sitter_lua::LANGUAGE.into(),
            Some("PYTHON") => tree_sitter_python::LANGUAGE.into(),
            Some("RUBY") => tree_sitter_ruby::LANGUAGE.into(),
            _ => continue,
        };
        let code = without_tests(&f.code);
        for (at, _) in code.match_indices("F.") {
            if code[..at].ends_with(|c: char| is_ident(c)) {
                continue;
            }
            let ident: String = code[at + 2..]
                .chars()
                .take_while(|c| is_ident(*c))
                .collect();
            let ok = names
                .get(ident.as_str())
                .is_some_and(|n| grammar.field_id_for_name(n).is_some());
            if !ok {
                bad.push(format!(
                    "{}:{}: `F.{ident}` is no field of its grammar",
                    f.rel,
                    line_at(&code, at)
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn rule_codes_match_the_registry() {
    let registry: Vec<&str> = wirelint::checks::RULES.iter().map(|r| r.code).collect();
    assert_eq!(
        wirelint::diagnostic::RULE_CODES,
        registry.as_slice(),
        "diagnostic::RULE_CODES must list the codes of checks::RULES, in order"
    );
}

// ---------------------------------------------------------------------------
// Reading `src/`.

struct SourceFile {
    /// `src/pipeline/files.rs`.
    rel: String,
    /// `["pipeline", "files"]`; empty for the crate root.
    module: Vec<String>,
    text: String,
    /// `text` with comments, strings and character literals blanked (lines
    /// and columns kept).
    code: String,
}

/// The files `src/` holds beside its folders: the crate's root, the binary,
/// and the shared leaves of the model; every stage is a folder.
const LOOSE_FILES: &[&str] = &[
    "diagnostic.rs",
    "hash.rs",
    "input.rs",
    "lib.rs",
    "main.rs",
    "redis.rs",
    "source.rs",
];

#[test]
fn the_stages_are_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut loose: Vec<String> = std::fs::read_dir(&root)
        .expect("src/")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    loose.sort();
    assert_eq!(
        loose, LOOSE_FILES,
        "src/ holds files beside its folders that LOOSE_FILES in tests/tidy.rs does not list \
         (a stage is a folder)"
    );
}

fn sources() -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    collect(&root.join("src"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            SourceFile {
                module: module_of(&rel),
                code: blank(&text),
                rel,
                text,
            }
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src/a/b.rs` → `a::b`; `src/a/mod.rs` → `a`; `src/lib.rs` → the root.
fn module_of(rel: &str) -> Vec<String> {
    let path = rel.trim_start_matches("src/").trim_end_matches(".rs");
    let mut segs: Vec<String> = path.split('/').map(str::to_string).collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    if segs == ["lib"] {
        segs.clear();
    }
    segs
}

/// The layer of a module path: its longest entry in [`LAYERS`].
fn layer_of(path: &[String]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, (_, entries)) in LAYERS.iter().enumerate() {
        for e in entries.iter() {
            let e: Vec<&str> = e.split("::").collect();
            let hit = e.len() <= path.len() && e.iter().zip(path).all(|(a, b)| *a == b);
            if hit && best.is_none_or(|(len, _)| e.len() > len) {
                best = Some((e.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

fn layer_of_file(f: &SourceFile) -> Option<usize> {
    if f.module.is_empty() {
        return Some(LAYERS.len() - 1);
    }
    layer_of(&f.module)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn line_at(code: &str, at: usize) -> usize {
    code[..at].matches('\n').count() + 1
}

/// Blanks comments (nested block comments too), string literals (raw and
/// byte strings too) and character literals, keeping every newline.
fn blank(text: &str) -> String {
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
fn raw_string_start(s: &[char], i: usize) -> Option<usize> {
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
fn without_tests(code: &str) -> String {
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
fn matching_brace(code: &str, open: usize) -> Option<usize> {
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
fn functions(code: &str) -> Vec<(String, usize, usize)> {
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

struct Import {
    line: usize,
    /// The module path it names, from the crate root.
    path: Vec<String>,
}

/// What a file imports from the crate: paths through `crate::`, `super::`
/// and `self::` (use trees included), and paths that start with the name of
/// one of its child modules.
fn imports(f: &SourceFile, files: &[SourceFile]) -> Vec<Import> {
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
fn children_of(f: &SourceFile, files: &[SourceFile]) -> Vec<String> {
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
fn inline_modules(f: &SourceFile) -> Vec<(String, std::ops::Range<usize>)> {
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
fn scope_at(
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
fn use_tree(b: &[u8], i: usize) -> (Vec<Vec<String>>, usize) {
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

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

fn skip_alias(b: &[u8], i: usize) -> usize {
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

#[test]
fn the_reader_blanks_what_is_not_code() {
    let code = blank("let s = \"crate::x\"; // crate::y\nlet c = '{'; let l: &'a str = r#\"}\"#;");
    assert!(!code.contains("crate"), "{code}");
    assert!(!code.contains(['{', '}']), "{code}");
    assert!(code.contains("&'a str"), "{code}");
    assert_eq!(code.lines().count(), 2);
}

#[test]
fn the_reader_finds_imports_and_functions() {
    let f = SourceFile {
        rel: "src/link/mod.rs".into(),
        module: module_of("src/link/mod.rs"),
        text: String::new(),
        code: blank(
            "use crate::{facts::{Span, Value}, source};\nuse super::x as y;\nfn f() {\n    \
             crate::checks::run();\n}\nmod tests {\n    use super::*;\n}\n",
        ),
    };
    let paths: Vec<String> = imports(&f, &[])
        .into_iter()
        .map(|i| i.path.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "facts::Span",
            "facts::Value",
            "source",
            "x",
            "checks::run",
            "link"
        ]
    );
    assert_eq!(functions(&f.code), [("f".to_string(), 3, 3)]);
    assert_eq!(module_of("src/pipeline/files.rs"), ["pipeline", "files"]);
    assert_eq!(
        layer_of(&module_of("src/pipeline/files.rs")),
        layer_of(&["discover".to_string()])
    );
}
