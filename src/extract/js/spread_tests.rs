//! The JavaScript extractor on arguments spread from an array and on
//! strings an array's `join` builds.

use crate::extract::test_support::{shown, use_key_args};
use crate::facts::{FileFacts, Lang};
use crate::parse::Parsers;

fn facts(lang: Lang, src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    crate::extract::extract_file(&mut p, lang, 0, src.as_bytes(), "queue")
}

/// `f(...args)` of `const args = [a, b]` passes `a` and `b`; a spread of
/// an array the code does not show stays one argument it cannot see.
#[test]
fn a_spread_of_a_shown_array_is_its_items_in_place() {
    let f = facts(
        Lang::TypeScript,
        "function run(q: string, id: string, rest: string[]) {\n  const args = [q, 'job:' + id] as const;\n  queueKey(...args);\n  queueKey(...[q], 'x');\n  queueKey(...rest);\n}\n",
    );
    let calls: Vec<Vec<String>> = f
        .calls
        .iter()
        .map(|c| c.args.iter().map(shown).collect())
        .collect();
    assert_eq!(
        calls,
        [
            vec!["$q".to_string(), "job:<id>".into()],
            vec!["$q".into(), "x".into()],
            vec!["?...rest".into()],
        ]
    );
}

/// `evalsha(sha, n, ...keys, ...argv)`: an array shown is its items, a
/// parameter's array an open tail that holds the parameter (its callers'
/// arrays are what is sent); the client method is found by the count of
/// what is sent.
#[test]
fn spread_script_arguments_are_the_arrays_items_or_an_open_tail() {
    let f = facts(
        Lang::JavaScript,
        "const Redis = require('ioredis');\nfunction run(redis, sha, keys, argv) {\n  const all = [sha, 2, 'emq:a', 'emq:b', 'x'];\n  redis.evalsha(...all);\n  redis.evalsha(sha, 2, ...keys, ...argv);\n}\n",
    );
    let evalsha: Vec<_> = f.commands.iter().filter(|c| c.name == "EVALSHA").collect();
    assert_eq!(evalsha.len(), 2);
    let args: Vec<String> = evalsha[0].args.iter().map(shown).collect();
    assert_eq!(args, ["$sha", "2", "emq:a", "emq:b", "x"]);
    assert!(!evalsha[0].open_tail);
    assert_eq!(evalsha[1].args.len(), 2);
    assert!(evalsha[1].open_tail);
    let tail: Vec<String> = evalsha[1].tail.iter().map(shown).collect();
    assert_eq!(tail, ["$keys", "$argv"]);
}

/// `[a, b].join(':')` of an array whose items the code shows is the
/// template of its items with the separator between; `join()` joins with
/// `,`; an array the code does not show, or a separator that is no
/// literal, stays a call.
#[test]
fn a_join_of_a_shown_array_is_its_items_with_the_separator() {
    let f = facts(
        Lang::JavaScript,
        "function key(q, id, sep, parts) {\n  useKey(['emq', q, 'job', id].join(':'));\n  useKey([q, id].join(''));\n  useKey([q, 'x'].join());\n  useKey([q, id].join(sep));\n  useKey(parts.join(':'));\n}\n",
    );
    let args = use_key_args(&f);
    assert_eq!(args.len(), 5);
    assert_eq!(args[..3], ["emq:<q>:job:<id>", "<q><id>", "<q>,x"]);
    assert!(args[3..].iter().all(|a| a.starts_with('?')), "{args:?}");
}
