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
        ]
    );
    assert_eq!(
        f.script_calls[0].span.start,
        at(src, "pipe.invoke_script(\n")
    );
}
