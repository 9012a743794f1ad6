//! Tests of the resolver's picks and alternatives.
use super::*;

/// Two alternatives that differ only in their holes' names and places
/// send the same bytes; a literal that differs does not.
#[test]
fn alternatives_of_one_shape_are_one() {
    let lit = |t: &str, at: usize| Seg::Lit {
        text: t.into(),
        span: Span::new(0, at, at + t.len()),
    };
    let hole = |l: &str, at: usize| Seg::Hole {
        label: l.into(),
        span: Span::new(1, at, at + 1),
    };
    let a = vec![hole("prefix", 0), lit(":", 3), hole("id", 4)];
    let b = vec![hole("resolvedPrefix", 9), lit(":", 12), hole("jobId", 20)];
    let c = vec![lit("bull", 0), lit(":", 3), hole("id", 4)];
    assert!(same_shape(&a, &b));
    assert!(!same_shape(&a, &c));
}

/// The indexed pick answers what the pick over the list answers, for
/// references from every module and file, qualified or not.
#[test]
fn indexed_pick_agrees_with_the_list() {
    let modules = ["A", "B.C", "a::b::C", "", "Dup", "Dup"];
    let defs: Vec<ConstDef> = (0..40)
        .map(|i| ConstDef {
            module: modules[i % modules.len()].to_string(),
            name: "K".into(),
            value: Value::Int {
                value: i as i64,
                span: Span::new(0, 0, 0),
            },
            name_span: Span::new(0, 0, 0),
        })
        .collect();
    let cands: Vec<(FileId, &ConstDef)> = defs
        .iter()
        .enumerate()
        .map(|(i, d)| ((i % 3) as FileId, d))
        .collect();
    let ix = DefIndex::of(&cands, |c: &ConstDef| c.module.as_str());
    let quals = ["", "self", "C", "B.C", "A", "Dup", "Z", "__MODULE__"];
    for module in modules.iter().chain(["Other"].iter()) {
        for file in 0..4 {
            for q in quals {
                let path: Vec<String> = [q, "K"]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .map(|s| s.to_string())
                    .collect();
                let cx = Ctx {
                    speaker: 0,
                    module,
                    file,
                };
                for lone in [true, false] {
                    let list =
                        Resolver::pick(&cands, |c: &ConstDef| c.module.as_str(), &path, &cx, lone);
                    let indexed = Resolver::pick_indexed(&cands, &ix, &path, &cx, lone);
                    assert_eq!(list, indexed, "{module} {file} {q} {lone}");
                }
            }
        }
    }
}
