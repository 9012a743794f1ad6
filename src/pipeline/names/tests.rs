//! The name pass's cases: what the index of a file's identifiers answers,
//! and how many names are looked up.

use super::*;

/// The language of a file with the extension `ext`.
fn lang(ext: &str) -> Lang {
    Lang::from_path(std::path::Path::new(&format!("x.{ext}"))).expect("a language")
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
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
            Names::new(&set(&[]), &set(&[d])).hit(lang("ex"), src.as_bytes()),
            "{d}"
        );
    }
    for (used, defined) in cases {
        let n = Names::new(&set(used), &set(defined));
        let hit = n.hit(lang("ex"), src.as_bytes());
        assert_eq!(n.hit_in(&ids), Some(hit), "{used:?} {defined:?}");
    }
    // A name outside ASCII: only a file outside ASCII may hold it, and
    // only its bytes tell.
    let n = Names::new(&set(&["clé"]), &set(&[]));
    assert_eq!(n.hit_in(&ids), Some(false));
    let wide = "x = clé(1)";
    assert!(n.hit(lang("ex"), wide.as_bytes()));
    assert_eq!(n.hit_in(&Idents::of(lang("ex"), wide.as_bytes())), None);
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
        let few = Names::new(&set(used), &set(defined));
        let mut many_used = set(used);
        many_used.extend(filler.iter().cloned());
        let many = Names::new(&many_used, &set(defined));
        assert!(many.by_word && !few.by_word);
        assert_eq!(
            many.hit(lang("ex"), src.as_bytes()),
            few.hit(lang("ex"), src.as_bytes()),
            "{used:?} {defined:?}"
        );
    }
    assert!(Names::new(&set(&["key_of"]), &set(&[])).hit(lang("ex"), src.as_bytes()));
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
        let n = Names::new(&set(&[]), &set(&[name]));
        assert_eq!(n.hit(lang, src.as_bytes()), defines, "{lang:?} {name}");
        let ids = Idents::of(lang, src.as_bytes());
        assert_eq!(n.hit_in(&ids), Some(defines), "{lang:?} {name}");
    }
    // `key` is a method here; without its `def`, neither `@key` nor the
    // local at the start of a line defines it.
    let local = "@key = 1\nkey = 2\n";
    let n = Names::new(&set(&[]), &set(&["key"]));
    assert!(!n.hit(lang("rb"), local.as_bytes()));
    assert!(n.hit(lang("py"), local.as_bytes()));
}

/// In Go, a composite literal's key and a short variable declaration
/// are no definitions; a constant of a block is one.
#[test]
fn go_keys_and_locals_are_no_definitions() {
    let src = "const (\n\tPrefix = \"q\"\n)\nfunc f() {\n\tr := T{\n\t\tName: x,\n\t}\n}\n";
    for (name, defines) in [("Prefix", true), ("Name", false), ("r", false)] {
        let n = Names::new(&set(&[]), &set(&[name]));
        assert_eq!(n.hit(lang("go"), src.as_bytes()), defines, "{name}");
        let ids = Idents::of(lang("go"), src.as_bytes());
        assert_eq!(n.hit_in(&ids), Some(defines), "{name}");
    }
}

/// Go's functions, methods and variables are definitions.
#[test]
fn go_functions_and_methods_are_definitions() {
    let src = "var prefix = \"q\"\nfunc key(id string) string { return id }\n\
               func (r *Queue) Name() string { return r.name }\n";
    for name in ["prefix", "key", "Name"] {
        let n = Names::new(&set(&[]), &set(&[name]));
        assert!(n.hit(lang("go"), src.as_bytes()), "{name}");
    }
    let n = Names::new(&set(&[]), &set(&["name"]));
    assert!(!n.hit(lang("go"), src.as_bytes()));
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
    let n = Names::new(&set(&[]), &set(&[".queue"]));
    for (lang, src, sets) in cases {
        assert_eq!(n.hit(*lang, src.as_bytes()), *sets, "{lang:?} {src}");
        let ids = Idents::of(*lang, src.as_bytes());
        assert_eq!(n.hit_in(&ids), Some(*sets), "{lang:?} {src}");
    }
}
