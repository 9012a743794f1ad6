//! The metamorphic harness: rewrites that keep a program's behaviour must
//! keep wirelint's findings.
//!
//! For every clean fixture (each of its source files) and every variant of
//! `fixtures/variants/` (each file of its `tree/`), every rewrite of the
//! catalog (`tests/metamorphic/{rust,elixir,lua,go,js,python,ruby}*.rs`,
//! their shared parts in `shared.rs`) that applies to the
//! file is applied once to each file (at every site it finds there), in one
//! copy of the tree, and the binary's `check --format json` and `extract --format
//! json` are compared with the original tree's: the same findings (code,
//! severity, speaker, path, line), the same linked calls (speaker, place,
//! script, numkeys, keys, ARGV), the same coverage per speaker. Places in
//! the edited file are mapped through the edit (`tests/metamorphic/edit.rs`
//! says how). A Lua script that has a copy elsewhere in the tree (same name
//! or SHA1) is not rewritten: its bytes are on the wire, and a copy that
//! differs is a drift the speakers must see (WL305).
//!
//! `tests/metamorphic/status.txt` says, per rewrite, `holds` or `breaks:
//! REASON`; the test holds the file exact. A rewrite whose output does not
//! parse (or gives a new WL001) is a bug of the rewrite.
//!
//! `WIRELINT_METAMORPHIC_TABLE=1 cargo test --test metamorphic -- --nocapture`
//! prints the table per rewrite: applied, held, broke, first difference
//! (`=full`: every difference); `WIRELINT_METAMORPHIC_SHOW=NAME[@TREE]`
//! prints each case of one rewrite with its rewritten files.

mod common;
#[path = "metamorphic/edit.rs"]
mod edit;
#[path = "metamorphic/elixir.rs"]
mod elixir;
#[path = "metamorphic/go.rs"]
mod go;
#[path = "metamorphic/js.rs"]
mod js;
#[path = "metamorphic/lua.rs"]
mod lua;
#[path = "metamorphic/python.rs"]
mod python;
#[path = "metamorphic/ruby.rs"]
mod ruby;
#[path = "metamorphic/run.rs"]
mod run;
#[path = "metamorphic/rust.rs"]
mod rust;
#[path = "metamorphic/shared.rs"]
mod shared;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{copy_tree, repo, walk};
use edit::{Lang, Rewritten, Source};
use run::{compare, snapshot, FileEdit, Mapping, Snapshot};

/// One rewrite of the catalog: a name (as in `status.txt`), the language of
/// the files it rewrites, and the rewrite: `None` where it does not apply.
pub struct Rewrite {
    pub name: &'static str,
    pub lang: Lang,
    pub apply: fn(&Source) -> Option<Rewritten>,
}

fn catalog() -> Vec<Rewrite> {
    let mut all = Vec::new();
    all.extend(rust::catalog());
    all.extend(elixir::catalog());
    all.extend(lua::catalog());
    all.extend(go::catalog());
    all.extend(js::catalog());
    all.extend(python::catalog());
    all.extend(ruby::catalog());
    all
}

/// A tree the rewrites run on: a clean fixture or a variant laid over its
/// base, the files to rewrite, and the original run.
struct Tree {
    label: String,
    dir: tempfile::TempDir,
    targets: Vec<String>,
    before: Snapshot,
}

fn sources(root: &Path) -> Vec<String> {
    walk(root)
        .iter()
        .map(|p| {
            p.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .filter(|p| Lang::of(p).is_some())
        .collect()
}

/// The trees, all or (`only`) those whose label is `only`.
fn trees(only: Option<&str>) -> Vec<Tree> {
    let mut plan: Vec<(String, tempfile::TempDir, Vec<String>)> = Vec::new();
    for name in common::clean_fixtures() {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&repo().join("fixtures").join(&name), dir.path());
        let targets = sources(dir.path());
        plan.push((name, dir, targets));
    }
    let variants = repo().join("fixtures/variants");
    let mut names: Vec<String> = std::fs::read_dir(&variants)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let targets = sources(&variants.join(&name).join("tree"));
        let dir = common::variant(&name);
        plan.push((format!("variants/{name}"), dir, targets));
    }
    plan.retain(|p| only.is_none_or(|o| p.0 == o));
    let snaps = par_map(&plan, |(label, dir, _)| {
        snapshot(dir.path()).unwrap_or_else(|e| panic!("{label}: {e}"))
    });
    plan.into_iter()
        .zip(snaps)
        .map(|((label, dir, targets), before)| Tree {
            label,
            dir,
            targets,
            before,
        })
        .collect()
}

/// `f` over `items` on a few threads, results in order.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 4);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= items.len() {
                            return mine;
                        }
                        mine.push((i, f(&items[i])));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    out.sort_by_key(|x| x.0);
    out.into_iter().map(|x| x.1).collect()
}

/// One rewrite applied to a tree: once to each of its files where it
/// applies, all in one run.
struct Case {
    tree: usize,
    rewrite: usize,
    edits: Vec<FileEdit>,
}

/// Whether the Lua file `path` holds a script with a copy elsewhere in the
/// tree (same name or SHA1 at another path).
fn has_copies(before: &Snapshot, path: &str) -> bool {
    let here: Vec<&(String, String, String)> =
        before.scripts.iter().filter(|s| s.1 == path).collect();
    before
        .scripts
        .iter()
        .any(|s| s.1 != path && here.iter().any(|h| h.0 == s.0 || h.2 == s.2))
}

fn cases(trees: &[Tree], rewrites: &[Rewrite]) -> Vec<Case> {
    let mut out = Vec::new();
    for (t, tree) in trees.iter().enumerate() {
        let mut per_rewrite: Vec<Vec<FileEdit>> = rewrites.iter().map(|_| Vec::new()).collect();
        for path in &tree.targets {
            let lang = Lang::of(path).unwrap();
            if lang == Lang::Lua && has_copies(&tree.before, path) {
                continue;
            }
            let text = std::fs::read(tree.dir.path().join(path)).unwrap();
            let parsed = lang.parse(&text);
            if parsed.root_node().has_error() {
                continue;
            }
            let src = Source {
                path,
                text: &text,
                tree: &parsed,
            };
            for (r, rewrite) in rewrites.iter().enumerate() {
                if rewrite.lang != lang {
                    continue;
                }
                if let Some(rewritten) = (rewrite.apply)(&src) {
                    per_rewrite[r].push(FileEdit {
                        path: path.clone(),
                        before: text.clone(),
                        after: rewritten.text(),
                        created: rewritten.created(),
                        rewritten,
                    });
                }
            }
        }
        for (rewrite, edits) in per_rewrite.into_iter().enumerate() {
            if !edits.is_empty() {
                out.push(Case {
                    tree: t,
                    rewrite,
                    edits,
                });
            }
        }
    }
    out
}

/// What a case gave: the differences (empty: held), or a bug of the rewrite.
enum Outcome {
    Held,
    Broke(Vec<String>),
    Bug(String),
}

fn syntax_error(path: &str, text: &[u8]) -> Option<String> {
    let lang = Lang::of(path)?;
    let tree = lang.parse(text);
    let root = tree.root_node();
    root.has_error().then(|| {
        let bad = edit::descendants(root)
            .into_iter()
            .find(|n| n.is_error() || n.is_missing())
            .map_or(0, |n| n.start_position().row + 1);
        format!(
            "{path} does not parse at line {bad}:\n{}",
            String::from_utf8_lossy(text)
        )
    })
}

fn run_case(trees: &[Tree], case: &Case) -> Outcome {
    let tree = &trees[case.tree];
    let dir = tempfile::tempdir().unwrap();
    copy_tree(tree.dir.path(), dir.path());
    for e in &case.edits {
        let files =
            std::iter::once((&e.path, &e.after)).chain(e.created.iter().map(|(p, t)| (p, t)));
        for (path, text) in files {
            if let Some(bug) = syntax_error(path, text) {
                return Outcome::Bug(bug);
            }
            let dest = dir.path().join(path);
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::write(dest, text).unwrap();
        }
    }
    let now = match snapshot(dir.path()) {
        Ok(s) => s,
        Err(e) => return Outcome::Bug(e),
    };
    let wl001 = |s: &Snapshot| s.findings.iter().filter(|f| f.code == "WL001").count();
    if wl001(&now) > wl001(&tree.before) {
        let f = now.findings.iter().find(|f| f.code == "WL001").unwrap();
        return Outcome::Bug(format!(
            "a new WL001 at {}:{}: {}",
            f.path, f.line, f.message
        ));
    }
    let diff = compare(&tree.before, &now, &Mapping { edits: &case.edits });
    if diff.is_empty() {
        Outcome::Held
    } else {
        Outcome::Broke(diff)
    }
}

/// `WIRELINT_METAMORPHIC_SHOW=NAME`: every case of one rewrite, with the
/// rewritten files and every difference.
fn show_case(label: &str, case: &Case, outcome: &Outcome) {
    println!("=== {label}");
    for e in &case.edits {
        println!("--- {}\n{}", e.path, String::from_utf8_lossy(&e.after));
        for (p, t) in &e.created {
            println!("--- {p} (new)\n{}", String::from_utf8_lossy(t));
        }
    }
    match outcome {
        Outcome::Held => println!("held"),
        Outcome::Broke(diff) => diff.iter().for_each(|d| println!("differs: {d}")),
        Outcome::Bug(b) => println!("bug: {b}"),
    }
}

/// Per rewrite: cases applied, held, broke, the first difference, bugs.
#[derive(Default)]
struct Tally {
    applied: usize,
    held: usize,
    broke: usize,
    first: Option<String>,
    /// Every difference, with its tree.
    all: Vec<String>,
    bugs: Vec<String>,
}

fn tally(
    trees: &[Tree],
    rewrites: &[Rewrite],
    cases: &[Case],
    outcomes: Vec<Outcome>,
) -> Vec<Tally> {
    let mut out: Vec<Tally> = rewrites.iter().map(|_| Tally::default()).collect();
    for (case, outcome) in cases.iter().zip(outcomes) {
        let t = &mut out[case.rewrite];
        let at = trees[case.tree].label.clone();
        t.applied += 1;
        match outcome {
            Outcome::Held => t.held += 1,
            Outcome::Broke(diff) => {
                t.broke += 1;
                if t.first.is_none() {
                    t.first = Some(format!("{at}: {}", diff[0]));
                }
                t.all.extend(diff.iter().map(|d| format!("{at}: {d}")));
            }
            Outcome::Bug(b) => t.bugs.push(format!("{at}: {b}")),
        }
    }
    out
}

/// The table; with `full`, every difference under its rewrite.
fn print_table(rewrites: &[Rewrite], tallies: &[Tally], full: bool) {
    println!(
        "{:<28} {:>7} {:>5} {:>5}  first difference",
        "rewrite", "applied", "held", "broke"
    );
    for (r, t) in rewrites.iter().zip(tallies) {
        println!(
            "{:<28} {:>7} {:>5} {:>5}  {}",
            r.name,
            t.applied,
            t.held,
            t.broke,
            t.first.as_deref().unwrap_or("")
        );
        if full {
            t.all.iter().for_each(|d| println!("    {d}"));
        }
    }
}

/// `status.txt`: per rewrite, `holds` or `breaks: REASON`, with its line.
fn status() -> Vec<(usize, String, bool)> {
    let text = std::fs::read_to_string(repo().join("tests/metamorphic/status.txt")).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut words = l.split_whitespace();
            let name = words.next().unwrap().to_string();
            let verdict = words.next().unwrap_or("");
            assert!(
                verdict == "holds" || (verdict == "breaks:" && words.next().is_some()),
                "status.txt:{}: write `NAME holds` or `NAME breaks: REASON`",
                i + 1
            );
            (i + 1, name, verdict == "holds")
        })
        .collect()
}

/// What `status.txt` gets wrong against the tallies.
fn status_errors(rewrites: &[Rewrite], tallies: &[Tally]) -> Vec<String> {
    let status = status();
    let mut errors = Vec::new();
    for (line, name, _) in &status {
        if !rewrites.iter().any(|r| r.name == name) {
            errors.push(format!("status.txt:{line}: `{name}` is not in the catalog"));
        }
    }
    for (r, t) in rewrites.iter().zip(tallies) {
        let Some((line, _, holds)) = status.iter().find(|s| s.1 == r.name) else {
            errors.push(format!("status.txt has no line for `{}`", r.name));
            continue;
        };
        for bug in &t.bugs {
            errors.push(format!("rewrite `{}` is wrong: {bug}", r.name));
        }
        if t.applied == 0 {
            errors.push(format!("`{}` applies to no file of any tree", r.name));
        } else if *holds && t.broke > 0 {
            errors.push(format!(
                "`{}` is marked `holds` but broke on {} of {}: {}",
                r.name,
                t.broke,
                t.applied,
                t.first.as_deref().unwrap_or("")
            ));
        } else if !*holds && t.broke == 0 && t.bugs.is_empty() {
            errors.push(format!(
                "`{}` now holds on all {} trees it applies to: change status.txt:{line} to `{} holds`",
                r.name, t.applied, r.name
            ));
        }
    }
    errors
}

#[test]
fn rewrites_keep_the_findings() {
    let rewrites = catalog();
    // `NAME` or `NAME@TREE` (a fixture's name, or `variants/NAME`).
    let show = std::env::var("WIRELINT_METAMORPHIC_SHOW").ok();
    let (show, only) = match show.as_deref().map(|s| s.split_once('@')) {
        Some(Some((name, tree))) => (Some(name), Some(tree)),
        Some(None) => (show.as_deref(), None),
        None => (None, None),
    };
    let trees = trees(only);
    let cases: Vec<Case> = cases(&trees, &rewrites)
        .into_iter()
        .filter(|c| show.is_none_or(|s| s == rewrites[c.rewrite].name))
        .collect();
    let outcomes = par_map(&cases, |c| run_case(&trees, c));
    if show.is_some() {
        for (c, o) in cases.iter().zip(&outcomes) {
            show_case(&trees[c.tree].label, c, o);
        }
        return;
    }
    let tallies = tally(&trees, &rewrites, &cases, outcomes);
    if let Some(table) = std::env::var_os("WIRELINT_METAMORPHIC_TABLE") {
        print_table(&rewrites, &tallies, table == "full");
    }
    let errors = status_errors(&rewrites, &tallies);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The names of the catalog are unique.
#[test]
fn rewrite_names_are_unique() {
    let rewrites = catalog();
    for (i, r) in rewrites.iter().enumerate() {
        assert!(
            !rewrites[..i].iter().any(|o| o.name == r.name),
            "{} twice",
            r.name
        );
    }
}

/// `WIRELINT_METAMORPHIC_DUMP=FILE cargo test --test metamorphic dump --
/// --nocapture` prints the syntax tree the rewrites see (kinds, fields,
/// byte ranges): a help for writing a rewrite.
#[test]
fn dump() {
    let Some(path) = std::env::var_os("WIRELINT_METAMORPHIC_DUMP") else {
        return;
    };
    let path = path.to_string_lossy().into_owned();
    let text = std::fs::read(&path).unwrap();
    let tree = Lang::of(&path)
        .expect("a file of a language the catalog rewrites")
        .parse(&text);
    let mut cursor = tree.walk();
    let mut depth = 0;
    loop {
        let n = cursor.node();
        if n.is_named() {
            let field = cursor
                .field_name()
                .map(|f| format!("{f}: "))
                .unwrap_or_default();
            let snippet: String = String::from_utf8_lossy(&text[n.byte_range()])
                .chars()
                .take(40)
                .collect();
            println!(
                "{}{field}{} {:?} {snippet:?}",
                "  ".repeat(depth),
                n.kind(),
                n.byte_range()
            );
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
            depth -= 1;
        }
    }
}

/// The mapping of the edit model: a kept byte moves by what was inserted
/// before it, a moved byte goes where its range went (a created file
/// included), a replaced byte goes to the start of its replacement.
#[test]
fn the_edit_mapping_follows_the_bytes() {
    use edit::{new, orig, Edits};
    let src = b"aa BB cc DD";
    let mut e = Edits::new(src);
    e.insert(0, "++");
    e.replace(3..5, vec![new("x")]);
    e.replace(9..11, vec![new("y")]);
    e.create("f".to_string(), vec![new("> "), orig(9..11)]);
    let r = e.finish().unwrap();
    assert_eq!(r.text(), b"++aa x cc y");
    assert_eq!(r.map(0), (None, 2));
    assert_eq!(r.map(4), (None, 5));
    assert_eq!(r.map(6), (None, 7));
    assert_eq!(r.map(10), (Some("f".to_string()), 3));
    assert_eq!(r.created(), vec![("f".to_string(), b"> DD".to_vec())]);
}

/// Two rewrites on a small input, byte for byte.
#[test]
fn rewrites_write_what_they_say() {
    let apply = |name: &str, path: &str, text: &str| {
        let rewrite = catalog().into_iter().find(|r| r.name == name).unwrap();
        let tree = rewrite.lang.parse(text.as_bytes());
        let src = Source {
            path,
            text: text.as_bytes(),
            tree: &tree,
        };
        String::from_utf8((rewrite.apply)(&src).unwrap().text()).unwrap()
    };
    assert_eq!(
        apply(
            "lua-rcall-alias",
            "a.lua",
            "-- KEYS[1] row\nredis.call('HSET', KEYS[1], 'state', ARGV[1])\nreturn 1\n"
        ),
        "-- KEYS[1] row\nlocal rcall = redis.call\nrcall('HSET', KEYS[1], 'state', ARGV[1])\nreturn 1\n"
    );
    assert_eq!(
        apply(
            "rust-format-concat",
            "k.rs",
            "fn k(q: &str) -> String {\n    format!(\"emq:{{{q}}}:pending\")\n}\n"
        ),
        "fn k(q: &str) -> String {\n    [\"emq:{\", q, \"}:pending\"].concat()\n}\n"
    );
    // A rewrite that finds no site does not apply.
    let rewrite = catalog()
        .into_iter()
        .find(|r| r.name == "lua-key-helper")
        .unwrap();
    let text = b"return redis.call('GET', KEYS[1])\n";
    let tree = rewrite.lang.parse(text);
    let src = Source {
        path: "a.lua",
        text,
        tree: &tree,
    };
    assert!((rewrite.apply)(&src).is_none());
}
