//! The Python extractor on arguments unpacked from a list (`*args`) and
//! on strings `str.join` builds.

use crate::extract::extract_file;
use crate::extract::test_support::{shown, use_key_args};
use crate::facts::{FileFacts, Lang};
use crate::parse::Parsers;

fn facts(src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    extract_file(&mut p, Lang::Python, 0, src.as_bytes(), "jobs")
}

/// `f(*args)` of `args = [a, b]` passes `a` and `b`, to a function of the
/// code base, a client's command and `str.format` alike; a splat of a list
/// the code does not show stays one argument it cannot see, and leaves a
/// command's tail open.
#[test]
fn a_splat_of_a_shown_list_is_its_items_in_place() {
    let src = r#"
import redis
def run(r: redis.Redis, q, i, rest):
    args = [q, "job:" + i]
    job_key(*args)
    job_key(*rest)
    hs = ["emq:job", "state", 1]
    r.hset(*hs)
    r.hset("emq:job", *rest)
    return "{}:{}".format(*args)
"#;
    let f = facts(src);
    let calls: Vec<Vec<String>> = f
        .calls
        .iter()
        .filter(|c| c.path == ["job_key"])
        .map(|c| c.args.iter().map(shown).collect())
        .collect();
    assert_eq!(
        calls,
        [
            vec!["$q".to_string(), "job:<i>".into()],
            vec!["?*rest".into()]
        ]
    );
    let hset: Vec<(Vec<String>, bool)> = f
        .commands
        .iter()
        .map(|c| (c.args.iter().map(shown).collect(), c.open_tail))
        .collect();
    assert_eq!(
        hset,
        [
            (
                vec!["emq:job".to_string(), "state".into(), "1".into()],
                false
            ),
            (vec!["emq:job".to_string()], true),
        ]
    );
    let run = f.functions.iter().find(|d| d.name == "run").unwrap();
    assert_eq!(shown(&run.returns), "<q>:job:<i>");
}

/// `":".join([a, b])` with a literal separator, of a list (or tuple) whose
/// items the code shows, is the template of its items with the separator
/// between; any other join stays a call.
#[test]
fn a_str_join_of_a_shown_list_is_its_items_with_the_separator() {
    let src = r#"
def key(q, i, sep, parts):
    use_key(":".join(["emq", q, "job", i]))
    use_key("".join((q, i)))
    use_key(sep.join([q, i]))
    use_key(":".join(parts))
"#;
    let f = facts(src);
    let args = use_key_args(&f);
    assert_eq!(args.len(), 4);
    assert_eq!(args[..2], ["emq:<q>:job:<i>", "<q><i>"]);
    assert!(args[2..].iter().all(|a| a.starts_with('?')), "{args:?}");
}
