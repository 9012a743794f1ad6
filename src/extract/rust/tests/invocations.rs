//! Script calls and the calls that run them: an invocation is the call,
//! a preparation alone is none.

use super::{at, facts};
use crate::facts::{FileFacts, Value};

/// Each script call as `script keys [..] args [..]`, in order.
fn calls(f: &FileFacts) -> Vec<String> {
    f.script_calls
        .iter()
        .map(|c| {
            let keys: Vec<String> = c.keys.iter().map(Value::describe).collect();
            let args: Vec<String> = c.args.iter().map(Value::describe).collect();
            format!(
                "{} keys [{}] args [{}]",
                c.script.describe(),
                keys.join(", "),
                args.join(", ")
            )
        })
        .collect()
}

/// `pipe.invoke_script(..)` runs the script call its argument builds, in
/// the pipeline: a chain written there, or one a variable holds.
#[test]
fn a_pipeline_runs_the_invocation_it_is_given() {
    let src = r#"
impl Store {
    fn commit_all(&self, ids: &[String]) -> redis::Pipeline {
        let mut pipe = redis::pipe();
        pipe.load_script(&self.commit).ignore();
        for id in ids {
            pipe.invoke_script(
                self.commit.key(format!("job:{id}")).arg(1),
            );
        }
        let last = TOUCH.key("jobs:last");
        pipe.invoke_script(&last);
        pipe.invoke_script(&self.reap_of(ids));
        pipe
    }
}
"#;
    let f = facts(src);
    assert_eq!(
        calls(&f),
        vec![
            "commit keys [job:<id>] args [1]",
            "TOUCH keys [jobs:last] args []",
            "reap_of keys [] args []",
        ]
    );
    assert_eq!(f.script_calls[0].span.start, at(src, "invoke_script(\n"));
}

/// A script call prepared and bound to a variable is a call once a
/// statement runs it; prepared and never run, or dropped, it is none;
/// returned unrun, it runs where its callers run it; handed to another
/// function, it runs as that function says (the call stays where it was
/// built).
#[test]
fn only_an_invocation_is_a_call() {
    let src = r#"
fn run(con: &mut C, q: &str) -> R {
    let mut inv = ENQUEUE.prepare_invoke();
    inv.key(format!("q:{q}"));
    inv.arg(1);
    inv.invoke(con)
}
fn unrun(q: &str) {
    let mut inv = ENQUEUE.prepare_invoke();
    inv.key(format!("q:{q}"));
}
fn returned(q: &str) -> ScriptInvocation<'static> {
    let mut inv = REAP.prepare_invoke();
    inv.key(q);
    inv
}
fn handed(con: &mut C, q: &str) {
    let inv = PING.key(q);
    send(&inv, con);
}
"#;
    let f = facts(src);
    assert_eq!(
        calls(&f),
        vec![
            "ENQUEUE keys [q:<q>] args [1]",
            "REAP keys [q] args []",
            "PING keys [q] args []",
        ]
    );
    // Placed where its chain begins.
    assert_eq!(
        f.script_calls[0].span.start,
        at(src, "ENQUEUE.prepare_invoke()")
    );
    assert!(!f.script_calls[0].returned && f.script_calls[1].returned);
    assert_eq!(f.script_calls[2].span.start, at(src, "PING.key(q)"));
}
