use super::*;
use crate::contract::Contract;

fn t(parts: &[&str]) -> Template {
    // Literal parts; `*` is a hole. Spans are consecutive.
    let mut segs = Vec::new();
    let mut at = 0usize;
    for p in parts {
        let span = Span::new(0, at, at + p.len());
        at += p.len();
        if *p == "*" {
            segs.push(Seg::Hole {
                label: "x".into(),
                span,
            });
        } else {
            segs.push(Seg::Lit {
                text: p.to_string(),
                span,
            });
        }
    }
    Template {
        segs,
        span: Span::new(0, 0, at),
    }
}

fn verdict(parts: &[&str]) -> KeyVerdict {
    let c = Contract::embedded();
    analyze(&t(parts), c.keyspace.as_ref().unwrap())
}

/// The lead test answers as the verdicts do: a key the prefix does not
/// lead is never in the keyspace.
#[test]
fn in_keyspace_agrees_with_the_verdicts() {
    let c = Contract::embedded();
    let ks = c.keyspace.as_ref().unwrap();
    let cases: &[&[&str]] = &[
        &["emq:{", "*", "}:job:", "*"],
        &["em", "q:{", "*", "}:pending"],
        &["e", "m", "q", ":{", "*", "}"],
        &["emq:", "*", ":job"],
        &["emq", "*"],
        &["em", "*", "q:{", "*", "}"],
        &["emx:{", "*", "}:job:", "*"],
        &["bull:", "*", ":wait"],
        &["*", "emq:{", "*", "}"],
        &["emq:{"],
        &["emq"],
        &[],
    ];
    for parts in cases {
        let key = t(parts);
        let slow = !matches!(
            analyze(&key, ks),
            KeyVerdict::Skip | KeyVerdict::Prefix { .. }
        );
        assert_eq!(in_keyspace(&key, ks), slow, "{parts:?}");
        let lead: String = parts.iter().take_while(|p| **p != "*").copied().collect();
        assert_eq!(
            leads_with(&key, &ks.prefix),
            lead.starts_with(&ks.prefix),
            "{parts:?}"
        );
    }
    assert!(in_keyspace(&t(&["emq:{", "*", "}:job:", "*"]), ks));
}

#[test]
fn canonical_keys_are_fine() {
    assert_eq!(verdict(&["emq:{", "*", "}:", "*"]), KeyVerdict::Fine);
    assert_eq!(verdict(&["emq:{", "*", "}:job:", "*"]), KeyVerdict::Fine);
    assert_eq!(verdict(&["emq:{", "*", "}:pending"]), KeyVerdict::Fine);
    assert_eq!(verdict(&["emq:{", "*", "}"]), KeyVerdict::Fine);
}

#[test]
fn divergences_point_at_their_bytes() {
    assert_eq!(
        verdict(&["emk:{", "*", "}:pending"]),
        KeyVerdict::Prefix {
            found: "emk:".into(),
            span: Span::new(0, 0, 4)
        }
    );
    assert!(matches!(
        verdict(&["emq:", "*", ":pending"]),
        KeyVerdict::HashTag { span, .. } if span == Span::new(0, 5, 6)
    ));
    assert_eq!(
        verdict(&["emq:{", "*", "}:jobs:", "*"]),
        KeyVerdict::Type {
            found: "jobs:".into(),
            span: Span::new(0, 8, 13)
        }
    );
    assert!(matches!(
        verdict(&["emq:{", "*", ":job}"]),
        KeyVerdict::HashTag { .. }
    ));
}

#[test]
fn foreign_and_unknown_keys_are_skipped() {
    assert_eq!(verdict(&["bull:", "*", ":wait"]), KeyVerdict::Skip);
    assert_eq!(verdict(&["*", ":pending"]), KeyVerdict::Skip);
    assert_eq!(verdict(&["emq:", "*"]), KeyVerdict::Skip);
    assert_eq!(verdict(&["http://x"]), KeyVerdict::Skip);
}

#[test]
fn records_are_found_by_key() {
    let c = Contract::embedded();
    let ks = c.keyspace.as_ref().unwrap();
    let rec = record_of(&t(&["emq:{", "*", "}:job:", "*"]), ks, &c.records);
    assert_eq!(rec.map(|r| r.name.as_str()), Some("job"));
    assert!(record_of(&t(&["emq:{", "*", "}:pending"]), ks, &c.records).is_none());
    assert!(record_of(&t(&["*"]), ks, &c.records).is_none());
    assert!(record_of(&t(&["emq:{", "*", "}:", "*"]), ks, &c.records).is_none());
}

fn family(name: &str) -> Contract {
    crate::contract::shipped::named(name)
        .unwrap()
        .load(None)
        .unwrap()
}

/// Global keys and the bare queue key read as keys of the keyspace; the
/// queue key's types still do, and a wrong type is still one.
#[test]
fn whole_templates_are_keys_of_the_keyspace() {
    let c = family("asynq");
    let ks = c.keyspace.as_ref().unwrap();
    for parts in [
        &["asynq:queues"][..],
        &["asynq:servers:{", "*", "}"],
        &["asynq:servers:{127.0.0.1:1234:server123}"],
        &["asynq:servers:{", "*", ":", "*", ":", "*", "}"],
        &["asynq:{", "*", "}:t:", "*"],
        &["asynq:sema:", "*"],
    ] {
        assert_eq!(analyze(&t(parts), ks), KeyVerdict::Fine, "{parts:?}");
        assert!(in_keyspace(&t(parts), ks), "{parts:?}");
    }
    assert!(matches!(
        analyze(&t(&["asynq:{", "*", "}:pendng"]), ks),
        KeyVerdict::Type { .. }
    ));
    let c = family("rsmq");
    let ks = c.keyspace.as_ref().unwrap();
    assert_eq!(analyze(&t(&["rsmq:", "*"]), ks), KeyVerdict::Fine);
    assert_eq!(analyze(&t(&["rsmq:QUEUES"]), ks), KeyVerdict::Fine);
    assert_eq!(analyze(&t(&["rsmq:", "*", ":Q"]), ks), KeyVerdict::Fine);
    assert!(matches!(
        analyze(&t(&["rsmq:", "*", ":q"]), ks),
        KeyVerdict::Type { .. }
    ));
    let rec = record_of(&t(&["rsmq:", "*", ":Q"]), ks, &c.records);
    assert_eq!(rec.map(|r| r.name.as_str()), Some("attributes"));
    // A key that opens with a hole is no evidence of a whole template.
    assert!(!in_keyspace(&t(&["*", "QUEUES"]), ks));
}

/// Without a queue key, only a whole template makes a key of the
/// keyspace, and nothing else is read.
#[test]
fn a_keyspace_of_whole_templates_only() {
    let c = family("sidekiq");
    let ks = c.keyspace.as_ref().unwrap();
    assert_eq!(analyze(&t(&["queue:", "*"]), ks), KeyVerdict::Fine);
    assert_eq!(analyze(&t(&["stat:processed"]), ks), KeyVerdict::Fine);
    assert_eq!(analyze(&t(&["emq:{", "*", "}:x"]), ks), KeyVerdict::Skip);
    assert!(in_keyspace(&t(&["queues"]), ks));
    assert!(!in_keyspace(&t(&["*"]), ks));
}

/// Behind a lookalike of a plain prefix, a missing separator or a
/// bare-placeholder type is no evidence (`bullmq:5.0` is no `bull:` key).
#[test]
fn lookalikes_need_a_telling_key_behind_them() {
    let c = family("bullmq");
    let ks = c.keyspace.as_ref().unwrap();
    assert_eq!(analyze(&t(&["bullmq:5.65.1"]), ks), KeyVerdict::Skip);
    assert_eq!(analyze(&t(&["bull:", "*", ":", "*"]), ks), KeyVerdict::Fine);
    assert_eq!(analyze(&t(&["bull:dGVzdA=="]), ks), KeyVerdict::Skip);
    assert!(matches!(
        analyze(&t(&["bul:", "*", ":wait"]), ks),
        KeyVerdict::Prefix { .. }
    ));
}

/// The check of literal ends before the table never turns a match away:
/// every key of up to four atoms against every pattern of up to three
/// (bytes, structure, holes, placeholders) gives the table's answer.
#[test]
fn literal_ends_reject_only_what_the_table_rejects() {
    let s = Span::new(0, 0, 1);
    let atom_set = [
        Atom::Char('a', s),
        Atom::Char(':', s),
        Atom::Char('{', s),
        Atom::Hole("x".into(), s),
    ];
    let pat_set = [
        P::C('a'),
        P::C('b'),
        P::C(':'),
        P::C('{'),
        P::Any(false),
        P::Any(true),
    ];
    fn all<T: Clone>(set: &[T], most: usize) -> Vec<Vec<T>> {
        let mut out = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..most {
            last = last
                .iter()
                .flat_map(|p: &Vec<T>| {
                    set.iter().map(move |x| {
                        let mut q = p.clone();
                        q.push(x.clone());
                        q
                    })
                })
                .collect();
            out.extend(last.iter().cloned());
        }
        out
    }
    let (keys, pats) = (all(&atom_set, 4), all(&pat_set, 3));
    let mut rejected = 0;
    for a in &keys {
        for p in &pats {
            let full = table(a, p);
            if !literal_ends_agree(a, p) {
                assert!(!full, "{a:?} against {} atoms", p.len());
                rejected += 1;
            }
        }
    }
    assert!(rejected > 0);
}

/// A type's closing literal bytes turn a key away only where the table
/// does: every key of up to four atoms against every pattern of up to
/// three tokens.
#[test]
fn a_types_tail_rejects_only_what_the_table_rejects() {
    let s = Span::new(0, 0, 1);
    let atom_set = [
        Atom::Char('a', s),
        Atom::Char('b', s),
        Atom::Char(':', s),
        Atom::Hole(String::new(), s),
    ];
    let tok_set = [
        PatTok::Lit("a".into()),
        PatTok::Lit("ab".into()),
        PatTok::Lit(":".into()),
        PatTok::Var("x".into()),
    ];
    let seqs = |set: &[Atom]| {
        let mut out: Vec<Vec<Atom>> = vec![Vec::new()];
        for _ in 0..4 {
            let next: Vec<Vec<Atom>> = out
                .iter()
                .flat_map(|p| {
                    set.iter().map(move |x| {
                        let mut q = p.clone();
                        q.push(x.clone());
                        q
                    })
                })
                .collect();
            out.extend(next);
        }
        out
    };
    let keys = seqs(&atom_set);
    let mut pats: Vec<Vec<PatTok>> = vec![Vec::new()];
    for _ in 0..3 {
        let next: Vec<Vec<PatTok>> = pats
            .iter()
            .flat_map(|p| {
                tok_set.iter().map(move |x| {
                    let mut q = p.clone();
                    q.push(x.clone());
                    q
                })
            })
            .collect();
        pats.extend(next);
    }
    let mut rejected = 0;
    for a in &keys {
        for p in &pats {
            if !tail_agrees(a, p) {
                assert!(!matches(a, p), "{a:?} against {p:?}");
                rejected += 1;
            }
        }
    }
    assert!(rejected > 0);
}
