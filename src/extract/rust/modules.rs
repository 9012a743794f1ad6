//! The module tree as one file states it ([`ModuleScope`]): the modules it
//! declares in files of their own (`mod x;`, in `x.rs` or `x/mod.rs` beside
//! a `lib.rs`/`main.rs`/`mod.rs`, under a directory of the file's stem
//! otherwise, or where `#[path = ".."]` says), and the modules whose names
//! a `use` brings into its scope (`use super::*`, `use super::Name`,
//! `use crate::a::*`): a module's `use` imports are names of the module,
//! so a client crate its parent imports is in scope in the child.

use crate::extract::fields::RUST as F;
use crate::extract::needles;
use crate::extract::source::Source;
use crate::facts::{ChildModule, FileFacts, ModuleRef, ModuleScope};
use tree_sitter::Node;

use super::paths::path_segments;
use super::{Cx, MAX_DEPTH};

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `mod x;`: a module in a file of its own.
    pub(super) fn module_file(&mut self, n: Node<'_>) {
        let Some(name) = n.child_by_field_id(F.name) else {
            return;
        };
        let mut path = self.modules.clone();
        path.push(self.text(name));
        // `#[path]` of a module declared inside another is relative to
        // that module's directory: only the file's own are read.
        let files = match self.modules.is_empty() {
            true => self.path_attribute(n).into_iter().collect(),
            false => Vec::new(),
        };
        let child = ChildModule { name: path, files };
        scope_of(&mut self.facts).children.push(child);
    }

    /// `#[path = "p.rs"]` just before an item: `p.rs`.
    fn path_attribute(&self, n: Node<'_>) -> Option<String> {
        let mut prev = n.prev_named_sibling();
        for _ in 0..MAX_DEPTH {
            let a = prev.filter(|a| a.kind() == "attribute_item")?;
            let t = self.text(a);
            let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
            if let Some(p) = t.strip_prefix("#[path=\"") {
                return p.strip_suffix("\"]").map(str::to_string);
            }
            prev = a.prev_named_sibling();
        }
        None
    }

    /// What a `use` declaration's argument brings into scope: the modules
    /// outside the file it draws names from (a `super` above the file's
    /// own module, or a path from the crate's root), and the names it
    /// imports from a client crate.
    pub(super) fn scope_import(&mut self, arg: Node<'_>) {
        let text = self.text(arg);
        let (client, other) = (
            needles::names_client_crate(text.as_bytes()) || needles::is_client_crate(text.trim()),
            needles::imports_module(text.as_bytes()),
        );
        if !client && !other {
            return;
        }
        let mut paths = Vec::new();
        use_paths(&text, &[], 0, &mut paths);
        let inline = self.modules.len();
        let scope = scope_of(&mut self.facts);
        for p in paths {
            let from_client = p.first().is_some_and(|h| needles::is_client_crate(h));
            match p.last() {
                Some(last) if from_client && !scope.client_names.contains(last) => {
                    scope.client_names.push(last.clone())
                }
                _ if other => {
                    let r = module_ref(&p, inline);
                    if let Some(r) = r.filter(|r| !scope.imports.contains(r)) {
                        scope.imports.push(r);
                    }
                }
                _ => {}
            }
        }
    }
}

fn scope_of(facts: &mut FileFacts) -> &mut ModuleScope {
    facts.scope.get_or_insert_with(ModuleScope::default)
}

/// Completes the scope of a file named `stem` once its tree is read: whether
/// it names a client crate, and its child modules' files. Every Rust file
/// states one: its client facts count only with a client in scope.
pub(crate) fn settle_scope(facts: &mut FileFacts, src: &[u8], stem: &str) {
    let scope = scope_of(facts);
    scope.names_client = needles::names_client_crate(src);
    let mod_rs = matches!(stem, "lib" | "main" | "mod");
    for c in &mut scope.children {
        if c.files.is_empty() {
            let mut dir: Vec<&str> = if mod_rs { vec![] } else { vec![stem] };
            dir.extend(c.name.iter().map(String::as_str));
            let dir = dir.join("/");
            c.files = vec![format!("{dir}.rs"), format!("{dir}/mod.rs")];
        }
    }
}

/// The module a `use` path brings names from, seen from a module `inline`
/// levels deep in its file, and the name it brings (none: all, a glob);
/// `None` when it is the file's own or not a module of the crate
/// (`std::..`, `redis::..`).
fn module_ref(path: &[String], inline: usize) -> Option<ModuleRef> {
    let mut rest = path;
    while rest.first().is_some_and(|s| s == "self") {
        rest = &rest[1..];
    }
    let (root, up) = match rest.first().map(String::as_str) {
        Some("crate") => {
            rest = &rest[1..];
            (true, 0)
        }
        Some("super") => {
            let k = rest.iter().take_while(|s| *s == "super").count();
            rest = &rest[k..];
            if k <= inline {
                return None;
            }
            (false, k - inline)
        }
        _ => return None,
    };
    let (name, path) = match rest.split_last() {
        Some((last, path)) if last == "*" => (None, path),
        Some((last, path)) if last != "self" => (Some(last.clone()), path),
        Some((_, path)) => (None, path), // `a::{self}`: the module itself
        None => (None, rest),
    };
    let path = path.to_vec();
    Some(ModuleRef {
        root,
        up,
        path,
        name,
    })
}

/// `super::{a, b::*}` → `[super, a]`, `[super, b, *]`: every path a `use`
/// tree names (an alias dropped), nested lists at most [`MAX_DEPTH`] deep.
fn use_paths(t: &str, prefix: &[String], depth: usize, out: &mut Vec<Vec<String>>) {
    let t = t.trim();
    if depth > MAX_DEPTH || out.len() > 4096 {
        return;
    }
    if let (Some(open), Some(close)) = (t.find('{'), t.rfind('}')) {
        if open < close {
            let mut p = prefix.to_vec();
            p.extend(path_segments(t[..open].trim().trim_end_matches("::")));
            let inner = &t[open + 1..close];
            let (mut nest, mut start) = (0usize, 0usize);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => nest += 1,
                    '}' => nest = nest.saturating_sub(1),
                    ',' if nest == 0 => {
                        use_paths(&inner[start..i], &p, depth + 1, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            use_paths(&inner[start..], &p, depth + 1, out);
            return;
        }
    }
    let path = t.split(" as ").next().unwrap_or(t);
    let mut segs = prefix.to_vec();
    segs.extend(path_segments(path));
    if !segs.is_empty() {
        out.push(segs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(t: &str, inline: usize) -> Vec<ModuleRef> {
        let mut paths = Vec::new();
        use_paths(t, &[], 0, &mut paths);
        paths.iter().filter_map(|p| module_ref(p, inline)).collect()
    }

    fn up(up: usize, path: &[&str], name: Option<&str>) -> ModuleRef {
        let path = path.iter().map(|s| s.to_string()).collect();
        let name = name.map(str::to_string);
        ModuleRef {
            root: false,
            up,
            path,
            name,
        }
    }

    #[test]
    fn a_use_names_the_modules_it_draws_on() {
        assert_eq!(refs("super::*", 0), vec![up(1, &[], None)]);
        assert_eq!(
            refs("super::super::Name", 0),
            vec![up(2, &[], Some("Name"))]
        );
        assert_eq!(
            refs("super::{a, b::*, c as d}", 0),
            vec![
                up(1, &[], Some("a")),
                up(1, &["b"], None),
                up(1, &[], Some("c"))
            ]
        );
        let root = ModuleRef {
            root: true,
            up: 0,
            path: vec!["prelude".to_string()],
            name: None,
        };
        assert_eq!(refs("crate::prelude::*", 0), vec![root.clone()]);
        assert_eq!(refs("self::super::*", 0), vec![up(1, &[], None)]);
    }

    #[test]
    fn a_use_inside_the_file_or_of_another_crate_is_none() {
        // `mod tests { use super::*; }`: the file's own module.
        assert_eq!(refs("super::*", 1), vec![]);
        assert_eq!(refs("super::super::*", 1), vec![up(1, &[], None)]);
        assert_eq!(refs("fred::prelude::*", 0), vec![]);
        assert_eq!(refs("std::{fmt, io}", 0), vec![]);
    }

    #[test]
    fn a_deep_use_tree_stops() {
        let deep = format!("super::{}x{}", "{a::".repeat(500), "}".repeat(500));
        let mut paths = Vec::new();
        use_paths(&deep, &[], 0, &mut paths);
        assert!(paths.is_empty());
    }

    fn scope_of_src(src: &str, stem: &str) -> ModuleScope {
        let mut p = crate::parse::Parsers::new().unwrap();
        let mut whole = tree_sitter::Parser::new();
        let lang = crate::parse::language(crate::facts::Lang::Rust);
        whole.set_language(&lang).unwrap();
        let tree = whole.parse(src.as_bytes(), None).unwrap();
        let mut f = super::super::extract(tree.root_node(), src.as_bytes(), 0, &mut p);
        settle_scope(&mut f, src.as_bytes(), stem);
        f.scope.unwrap()
    }

    #[test]
    fn a_file_states_its_modules_and_client_names() {
        let src = "use fred::prelude::*;\nuse redis::{Commands, Script as S};\n\
                   use super::{job_key, keys::*};\nuse std::fmt;\n\
                   #[path = \"other.rs\"]\nmod moved;\nmod inline { mod deep; use super::*; }\n";
        let s = scope_of_src(src, "jobs");
        assert!(s.names_client);
        assert_eq!(s.client_names, ["*", "Commands", "Script"]);
        assert_eq!(
            s.imports,
            vec![up(1, &[], Some("job_key")), up(1, &["keys"], None)]
        );
        let files: Vec<&[String]> = s.children.iter().map(|c| c.files.as_slice()).collect();
        assert_eq!(
            files,
            [
                &["other.rs".to_string()][..],
                &[
                    "jobs/inline/deep.rs".to_string(),
                    "jobs/inline/deep/mod.rs".to_string()
                ][..]
            ]
        );
    }

    #[test]
    fn child_files_follow_the_declaring_file() {
        let mut f = FileFacts::default();
        scope_of(&mut f).children.push(ChildModule {
            name: vec!["a".into(), "x".into()],
            files: vec![],
        });
        let mut g = f.clone();
        settle_scope(&mut f, b"use fred::prelude::*;", "lib");
        let s = f.scope.unwrap();
        assert!(s.names_client);
        assert_eq!(s.children[0].files, ["a/x.rs", "a/x/mod.rs"]);
        settle_scope(&mut g, b"", "jobs");
        let s = g.scope.unwrap();
        assert!(!s.names_client);
        assert_eq!(s.children[0].files, ["jobs/a/x.rs", "jobs/a/x/mod.rs"]);
    }
}
