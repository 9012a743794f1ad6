//! Which files have a client library in scope, from the module tree their
//! facts state ([`ModuleScope`]): a file's client facts count when it names
//! a client library, or when a module it draws names from has one in scope
//! (Rust: `use super::*` in a module file sees its parent's `use` imports).
//! A file's parent is the file that declares it (the first declaring file
//! in path order); imports climb parents and go down declared modules.
//! Everything is bounded: climbs and descents by [`MAX_STEPS`], the
//! fixpoint by the number of files (a cycle of modules adds nothing).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::facts::{FileFacts, FileId, ModuleRef, ModuleScope};
use crate::source::SourceMap;

use super::normalize_path;

/// Bound on a climb to a root or a descent down a path.
const MAX_STEPS: usize = 64;

/// The files of `facts` that state a module scope.
struct Tree<'a> {
    scopes: Vec<&'a ModuleScope>,
    /// Per file: the file that declares it, if any.
    parent: Vec<Option<usize>>,
    /// Per file: its child modules declared in files, by path from it.
    children: Vec<Vec<(&'a [String], usize)>>,
}

impl<'a> Tree<'a> {
    fn new(paths: &[PathBuf], scopes: Vec<&'a ModuleScope>) -> Tree<'a> {
        let at: HashMap<&Path, usize> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_path(), i))
            .collect();
        let mut parent = vec![None; scopes.len()];
        let mut children = vec![Vec::new(); scopes.len()];
        for (i, s) in scopes.iter().enumerate() {
            let dir = paths[i].parent().unwrap_or(Path::new(""));
            for c in &s.children {
                let file = c
                    .files
                    .iter()
                    .find_map(|f| at.get(normalize_path(&dir.join(f)).as_path()));
                if let Some(&j) = file.filter(|&&j| j != i) {
                    if parent[j].is_none() {
                        parent[j] = Some(i);
                    }
                    children[i].push((c.name.as_slice(), j));
                }
            }
        }
        Tree {
            scopes,
            parent,
            children,
        }
    }

    /// The file whose module `r`, imported in file `i`, is (or holds).
    fn resolve(&self, i: usize, r: &ModuleRef) -> Option<usize> {
        let mut cur = i;
        let climbs = if r.root { MAX_STEPS } else { r.up };
        for _ in 0..climbs.min(MAX_STEPS) {
            match self.parent[cur] {
                Some(p) => cur = p,
                None if r.root => break,
                None => return None,
            }
        }
        if r.root && self.parent[cur].is_some() {
            return None; // deeper than the bound
        }
        // Down the path: a segment names a module declared in the file
        // reached (with the inline modules passed since), else the path
        // goes on inside that file.
        let mut inline = 0;
        for (k, _) in r.path.iter().enumerate().take(MAX_STEPS) {
            let want = &r.path[k - inline..=k];
            match self.children[cur].iter().find(|(name, _)| *name == want) {
                Some(&(_, j)) => {
                    cur = j;
                    inline = 0;
                }
                None => inline += 1,
            }
        }
        Some(cur)
    }

    /// Per file: whether a client library is in scope: it names one, a
    /// module it imports all names of has one in scope, or it imports by
    /// name what a module imports from one.
    fn in_scope(&self) -> Vec<bool> {
        let n = self.scopes.len();
        let mut reach: Vec<bool> = self.scopes.iter().map(|s| s.names_client).collect();
        let mut sources: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, s) in self.scopes.iter().enumerate() {
            for r in &s.imports {
                let Some(j) = self.resolve(i, r) else {
                    continue;
                };
                match &r.name {
                    None => sources[i].push(j),
                    Some(name) => {
                        let client = &self.scopes[j].client_names;
                        reach[i] |= client.iter().any(|c| c == name || c == "*");
                    }
                }
            }
        }
        for _ in 0..=n {
            let mut changed = false;
            for i in 0..n {
                if !reach[i] && sources[i].iter().any(|&j| reach[j]) {
                    reach[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        reach
    }
}

/// Per file of `paths` (relative to the tree's root, normalised) and the
/// scope it states: whether a client library is in scope there, as
/// [`settle`] decides it.
pub fn reach(paths: &[PathBuf], scopes: Vec<&ModuleScope>) -> Vec<bool> {
    Tree::new(paths, scopes).in_scope()
}

/// Drops the client facts of the files with no client library in scope.
pub fn settle(sources: &SourceMap, facts: &mut [(FileId, Arc<FileFacts>)]) {
    let stated: Vec<usize> = (0..facts.len())
        .filter(|&k| facts[k].1.scope.is_some())
        .collect();
    if !stated.iter().any(|&k| needs_scope(&facts[k].1)) {
        return;
    }
    let paths: Vec<PathBuf> = stated
        .iter()
        .map(|&k| normalize_path(Path::new(&sources.get(facts[k].0).rel)))
        .collect();
    let scopes = stated
        .iter()
        .filter_map(|&k| facts[k].1.scope.as_ref())
        .collect();
    let reach = Tree::new(&paths, scopes).in_scope();
    let out: Vec<usize> = stated
        .iter()
        .zip(reach)
        .filter(|(&k, reach)| !reach && needs_scope(&facts[k].1))
        .map(|(&k, _)| k)
        .collect();
    for k in out {
        Arc::make_mut(&mut facts[k].1).drop_client_facts();
    }
}

/// Whether a file holds client facts that count only with a client library
/// in scope it does not name itself.
fn needs_scope(f: &FileFacts) -> bool {
    f.scope.as_ref().is_some_and(|s| !s.names_client) && f.sends()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::ChildModule;

    fn child(name: &str) -> ChildModule {
        ChildModule {
            name: vec![name.to_string()],
            files: vec![format!("{name}.rs"), format!("{name}/mod.rs")],
        }
    }

    fn sup(up: usize, path: &[&str]) -> ModuleRef {
        let path = path.iter().map(|s| s.to_string()).collect();
        ModuleRef {
            root: false,
            up,
            path,
            name: None,
        }
    }

    fn reach(files: &[(&str, ModuleScope)]) -> Vec<bool> {
        let paths: Vec<PathBuf> = files.iter().map(|(p, _)| PathBuf::from(p)).collect();
        Tree::new(&paths, files.iter().map(|(_, s)| s).collect()).in_scope()
    }

    #[test]
    fn a_child_sees_its_parents_client() {
        let lib = ModuleScope {
            names_client: true,
            children: vec![child("moved")],
            ..ModuleScope::default()
        };
        let moved = ModuleScope {
            imports: vec![sup(1, &[])],
            ..ModuleScope::default()
        };
        let stray = ModuleScope {
            imports: vec![sup(1, &[])],
            ..ModuleScope::default()
        };
        let files = [
            ("src/lib.rs", lib),
            ("src/moved.rs", moved),
            ("src/other/stray.rs", stray),
        ];
        assert_eq!(reach(&files), [true, true, false]);
    }

    #[test]
    fn glob_imports_chain_and_crate_paths_descend() {
        let lib = ModuleScope {
            children: vec![child("prelude"), child("jobs")],
            ..ModuleScope::default()
        };
        let prelude = ModuleScope {
            names_client: true,
            client_names: vec!["Client".to_string()],
            ..ModuleScope::default()
        };
        let jobs = ModuleScope {
            children: vec![ChildModule {
                name: vec!["inner".to_string(), "deep".to_string()],
                files: vec!["jobs/inner/deep.rs".to_string()],
            }],
            imports: vec![ModuleRef {
                root: true,
                up: 0,
                path: vec!["prelude".to_string()],
                name: Some("Client".to_string()),
            }],
            ..ModuleScope::default()
        };
        let deep = ModuleScope {
            imports: vec![sup(1, &[])],
            ..ModuleScope::default()
        };
        let files = [
            ("src/jobs.rs", jobs),
            ("src/jobs/inner/deep.rs", deep),
            ("src/lib.rs", lib),
            ("src/prelude.rs", prelude),
        ];
        assert_eq!(reach(&files), [true, true, false, true]);
    }

    #[test]
    fn a_named_import_brings_only_a_client_name() {
        let lib = ModuleScope {
            names_client: true,
            client_names: vec!["Commands".to_string()],
            children: vec![child("a"), child("b")],
            ..ModuleScope::default()
        };
        let named = |name: &str| ModuleScope {
            imports: vec![ModuleRef {
                name: Some(name.to_string()),
                ..sup(1, &[])
            }],
            ..ModuleScope::default()
        };
        let files = [
            ("src/a.rs", named("Commands")),
            ("src/b.rs", named("job_key")),
            ("src/lib.rs", lib),
        ];
        assert_eq!(reach(&files), [true, false, true]);
    }

    #[test]
    fn a_cycle_of_modules_reaches_nothing() {
        let a = ModuleScope {
            children: vec![child("b")],
            imports: vec![sup(1, &[])],
            ..ModuleScope::default()
        };
        let b = ModuleScope {
            children: vec![ChildModule {
                name: vec!["a".to_string()],
                files: vec!["a.rs".to_string()],
            }],
            imports: vec![sup(1, &[]), sup(3, &[])],
            ..ModuleScope::default()
        };
        let files = [("src/a.rs", a), ("src/b.rs", b)];
        assert_eq!(reach(&files), [false, false]);
        let root = ModuleScope {
            imports: vec![ModuleRef {
                root: true,
                up: 0,
                path: vec![],
                name: None,
            }],
            children: vec![child("root")],
            ..ModuleScope::default()
        };
        assert_eq!(reach(&[("src/root.rs", root)]), [false]);
    }
}
