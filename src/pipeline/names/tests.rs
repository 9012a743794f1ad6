//! The name pass's cases: what the index of a file's identifiers answers,
//! and how many names are looked up.

use super::*;

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
    let ids = Idents::of(src.as_bytes());
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
        assert!(Names::new(&set(&[]), &set(&[d])).hit(src.as_bytes()), "{d}");
    }
    for (used, defined) in cases {
        let n = Names::new(&set(used), &set(defined));
        let hit = n.hit(src.as_bytes());
        assert_eq!(n.hit_in(&ids), Some(hit), "{used:?} {defined:?}");
    }
    // A name outside ASCII: only a file outside ASCII may hold it, and
    // only its bytes tell.
    let n = Names::new(&set(&["clé"]), &set(&[]));
    assert_eq!(n.hit_in(&ids), Some(false));
    let wide = "x = clé(1)";
    assert!(n.hit(wide.as_bytes()));
    assert_eq!(n.hit_in(&Idents::of(wide.as_bytes())), None);
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
            many.hit(src.as_bytes()),
            few.hit(src.as_bytes()),
            "{used:?} {defined:?}"
        );
    }
    assert!(Names::new(&set(&["key_of"]), &set(&[])).hit(src.as_bytes()));
}
