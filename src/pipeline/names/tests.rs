//! The name pass's cases: what the index of a file's identifiers answers,
//! and how many names are looked up.

use super::*;
use crate::facts::Lang;
use search::MANY_NAMES;

/// The language of a file with the extension `ext`.
fn lang(ext: &str) -> Lang {
    Lang::from_path(std::path::Path::new(&format!("x.{ext}"))).expect("a language")
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Defined names whose definitions any module may hold.
fn anywhere(names: &[&str]) -> BTreeMap<String, Within> {
    names
        .iter()
        .map(|s| (s.to_string(), Within::any()))
        .collect()
}

/// What the index holds of a file answers as its bytes do: a hit is
/// never ruled out, and a name the file does not hold (as a whole
/// identifier, or as a definition) is.
#[test]
fn identifiers_answer_as_the_bytes_do() {
    let src = "defmodule Q do\n  @prefix \"emq\"\n  def key_of(id), do: \"#{@prefix}:#{id}\"\n  \
               defp r#type(x), do: x\nend\nfn make_key() {}\nconst  LIMIT: u32 = 3;\ncall(keyspace_x)\n\
               PREFIX = 'q'\nclass Keys:\n    TTL: int = 3\n        self.sha = x == y\n\
               module Emq\n  def self.queue_key(n) = n\nend\n";
    let ids = Idents::of(lang("ex"), src.as_bytes());
    let cases: &[(&[&str], &[&str])] = &[
        (&["key_of"], &[]),
        (&[], &["key_of"]),
        (&[], &["prefix"]),
        (&[], &["type"]),
        (&[], &["make_key"]),
        (&[], &["LIMIT"]),
        (&["keyspace_x"], &[]),
        // Not whole identifiers, or used but never defined.
        (&["key"], &[]),
        (&["keyspace"], &[]),
        (&[], &["keyspace_x"]),
        (&[], &["call"]),
        (&[], &["n"]),
        (&["absent", "nothere"], &["other"]),
        (&[], &["x"]),
        (&[], &["y"]),
    ];
    // Python's: `class`, and names assigned at the start of a line.
    // Ruby's: `module`, and `def self.name`.
    for d in ["PREFIX", "Keys", "TTL", "sha", "Emq", "queue_key"] {
        assert!(
            Names::new(&set(&[]), &anywhere(&[d]))
                .scan(lang("ex"), src.as_bytes())
                .hit,
            "{d}"
        );
    }
    for (used, defined) in cases {
        let n = Names::new(&set(used), &anywhere(defined));
        let hit = n.scan(lang("ex"), src.as_bytes()).hit;
        assert_eq!(
            n.scan_in(&ids).map(|s| s.hit),
            Some(hit),
            "{used:?} {defined:?}"
        );
    }
    // A name outside ASCII: only a file outside ASCII may hold it, and
    // only its bytes tell.
    let n = Names::new(&set(&["clé"]), &anywhere(&[]));
    assert_eq!(n.scan_in(&ids).map(|s| s.hit), Some(false));
    let wide = "x = clé(1)";
    assert!(n.scan(lang("ex"), wide.as_bytes()).hit);
    assert_eq!(
        n.scan_in(&Idents::of(lang("ex"), wide.as_bytes()))
            .map(|s| s.hit),
        None
    );
}

/// Past [`MANY_NAMES`] names, plain identifiers are looked up word by
/// word: the same hits as the automaton gives.
#[test]
fn many_names_hit_as_few_do() {
    let src =
        "defmodule Q do\n  @prefix \"emq\"\n  def key_of(id), do: \"#{@prefix}:#{id}\"\nend\n\
               fn make_key() {}\ncall(keyspace_x, clé)\n";
    let filler: Vec<String> = (0..MANY_NAMES).map(|i| format!("zz{i}")).collect();
    let cases: &[(&[&str], &[&str])] = &[
        (&["key_of"], &[]),
        (&[], &["make_key"]),
        (&[], &["prefix"]),
        (&["keyspace"], &[]),
        (&[], &["call"]),
        (&["clé"], &[]),
        (&["absent"], &["other"]),
    ];
    for (used, defined) in cases {
        let few = Names::new(&set(used), &anywhere(defined));
        let mut many_used = set(used);
        many_used.extend(filler.iter().cloned());
        let many = Names::new(&many_used, &anywhere(defined));
        assert!(many.by_word && !few.by_word);
        assert_eq!(
            many.scan(lang("ex"), src.as_bytes()).hit,
            few.scan(lang("ex"), src.as_bytes()).hit,
            "{used:?} {defined:?}"
        );
    }
    assert!(
        Names::new(&set(&["key_of"]), &anywhere(&[]))
            .scan(lang("ex"), src.as_bytes())
            .hit
    );
}

/// In Ruby, a method, a class, a module and a constant are definitions;
/// an instance variable and a local assigned at the start of a line are
/// not (in Python and Elixir they are: a field, an attribute).
#[test]
fn ruby_definitions_are_its_own() {
    let src = "module Keys\n  PREFIX = 'q'\n  def key\n    @key ||= x\n  end\n  def self.join(a) = a\nend\n\
               key = build\n@map = {}\n";
    for (lang, name, defines) in [
        (lang("rb"), "Keys", true),
        (lang("rb"), "PREFIX", true),
        (lang("rb"), "key", true),
        (lang("rb"), "join", true),
        (lang("rb"), "map", false),
        (lang("py"), "map", true),
    ] {
        let n = Names::new(&set(&[]), &anywhere(&[name]));
        assert_eq!(n.scan(lang, src.as_bytes()).hit, defines, "{lang:?} {name}");
        let ids = Idents::of(lang, src.as_bytes());
        assert_eq!(
            n.scan_in(&ids).map(|s| s.hit),
            Some(defines),
            "{lang:?} {name}"
        );
    }
    // `key` is a method here; without its `def`, neither `@key` nor the
    // local at the start of a line defines it.
    let local = "@key = 1\nkey = 2\n";
    let n = Names::new(&set(&[]), &anywhere(&["key"]));
    assert!(!n.scan(lang("rb"), local.as_bytes()).hit);
    assert!(n.scan(lang("py"), local.as_bytes()).hit);
}

/// In Go, a composite literal's key and a short variable declaration
/// are no definitions; a constant of a block is one.
#[test]
fn go_keys_and_locals_are_no_definitions() {
    let src = "const (\n\tPrefix = \"q\"\n)\nfunc f() {\n\tr := T{\n\t\tName: x,\n\t}\n}\n";
    for (name, defines) in [("Prefix", true), ("Name", false), ("r", false)] {
        let n = Names::new(&set(&[]), &anywhere(&[name]));
        assert_eq!(n.scan(lang("go"), src.as_bytes()).hit, defines, "{name}");
        let ids = Idents::of(lang("go"), src.as_bytes());
        assert_eq!(n.scan_in(&ids).map(|s| s.hit), Some(defines), "{name}");
    }
}

/// Go's functions, methods and variables are definitions.
#[test]
fn go_functions_and_methods_are_definitions() {
    let src = "var prefix = \"q\"\nfunc key(id string) string { return id }\n\
               func (r *Queue) Name() string { return r.name }\n";
    for name in ["prefix", "key", "Name"] {
        let n = Names::new(&set(&[]), &anywhere(&[name]));
        assert!(n.scan(lang("go"), src.as_bytes()).hit, "{name}");
    }
    let n = Names::new(&set(&[]), &anywhere(&["name"]));
    assert!(!n.scan(lang("go"), src.as_bytes()).hit);
}

/// Fields (`.f`, read by a projection) are found where their language
/// sets them: a Ruby instance variable, a Go composite literal's key or
/// a receiver's field assigned; not a Ruby hash key or a Go local.
#[test]
fn fields_are_found_where_they_are_set() {
    let cases: &[(Lang, &str, bool)] = &[
        (lang("rb"), "def initialize\n  @queue = q\nend\n", true),
        (
            lang("rb"),
            "opts = {\n  queue: 'x'\n}\ndef queue = 1\n",
            false,
        ),
        (lang("go"), "return &T{queue: q}\n", true),
        (lang("go"), "func (t *T) set() {\n\tt.queue = q\n}\n", true),
        (lang("go"), "queue := q\nif queue == x {}\n", false),
        (lang("py"), "class T:\n    queue = 'x'\n", true),
    ];
    let n = Names::new(&set(&[]), &anywhere(&[".queue"]));
    for (lang, src, sets) in cases {
        assert_eq!(n.scan(*lang, src.as_bytes()).hit, *sets, "{lang:?} {src}");
        let ids = Idents::of(*lang, src.as_bytes());
        assert_eq!(
            n.scan_in(&ids).map(|s| s.hit),
            Some(*sets),
            "{lang:?} {src}"
        );
    }
}

/// A bounded name: a file that defines it says so (and which words it
/// holds beside it) without being a hit; the identifiers answer exactly
/// as the bytes do, so the selection counts the same definers either way.
#[test]
fn bounded_names_are_counted_not_hit() {
    let within = |w: &[&str]| Within {
        any: false,
        words: w.iter().map(|s| s.to_string()).collect(),
    };
    let mut defined = BTreeMap::new();
    defined.insert("build".to_string(), within(&["Keys", "Sink"]));
    defined.insert(".queue".to_string(), within(&["Job"]));
    let n = Names::new(&set(&[]), &defined);
    for (src, defs, words) in [
        (
            "impl Keys {\n    fn build(&self) -> String { todo!() }\n}\n",
            vec![0],
            vec!["Keys"],
        ),
        ("fn other() { let x = Sink::build(); }\n", vec![], vec![]),
        (
            "struct Job {\n    queue: String,\n}\nfn build() {}\n",
            vec![0, 1],
            vec!["Job"],
        ),
        ("fn main() {}\n", vec![], vec![]),
    ] {
        let scan = n.scan(lang("rs"), src.as_bytes());
        assert!(!scan.hit, "{src}");
        let names: Vec<&str> = scan
            .defs
            .iter()
            .map(|d| n.bounded[*d as usize].0.as_str())
            .collect();
        let mut want: Vec<&str> = defs
            .iter()
            .map(|d: &usize| ["build", ".queue"][*d])
            .collect();
        want.sort_unstable();
        let mut got = names.clone();
        got.sort_unstable();
        assert_eq!(got, want, "{src}");
        let w: Vec<&str> = scan
            .words
            .iter()
            .map(|i| n.words[*i as usize].as_str())
            .collect();
        assert_eq!(w, words, "{src}");
        let ids = Idents::of(lang("rs"), src.as_bytes());
        assert_eq!(n.scan_in(&ids), Some(scan), "{src}");
    }
}
