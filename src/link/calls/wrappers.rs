//! Public wrappers: a function that runs the script its caller passes
//! (`def eval(conn, script, keys, args)`), which its language declares
//! callable from outside the tree, and which no code in the tree calls.
//! The script is known only at its callers (outside the tree, or calls of
//! a client method, which are invocations where they stand): the body is
//! the wrapper, not an invocation of a script of its own.

use crate::facts::{FileId, Value, RECEIVER};
use crate::hash::HashSet;
use crate::link::LinkInput;

/// The names every call of the tree names (the last segment of its path),
/// read once, when a wrapper nobody binds asks.
#[derive(Default)]
pub(super) struct CalledNames<'a> {
    names: Option<HashSet<&'a str>>,
}

impl<'a> CalledNames<'a> {
    fn contains(&mut self, input: &'a LinkInput<'a>, name: &str) -> bool {
        let names = self.names.get_or_insert_with(|| {
            input
                .facts
                .iter()
                .flat_map(|(_, facts)| &facts.calls)
                .filter_map(|c| c.path.last().map(String::as_str))
                .collect()
        });
        names.contains(name)
    }
}

/// The function at `(file, func)` as a public wrapper's name
/// (`` `eval/5` of `BullMQ.RedisConnection` ``): public, and no call of the tree
/// names it (in any speaker, at any arity, on any receiver). `None` when
/// it is private, or some call may be one of it.
pub(super) fn public_wrapper<'a>(
    input: &'a LinkInput<'a>,
    (file, func): (FileId, usize),
    called: &mut CalledNames<'a>,
) -> Option<Box<str>> {
    let facts = input
        .facts
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, facts)| facts)?;
    let def = facts.functions.get(func).filter(|d| d.public)?;
    if called.contains(input, &def.name) {
        return None;
    }
    let name = format!("{}/{}", def.name, def.params.len());
    Some(if def.module.is_empty() {
        format!("`{name}`").into()
    } else {
        format!("`{name}` of `{}`", def.module).into()
    })
}

/// Why a public wrapper's body is not linked, in words.
pub(super) fn reason(script: &Value, name: &str) -> String {
    let what = match script {
        Value::Param { index, name, .. } if *index == RECEIVER && name == "self" => {
            "the script it is called on".to_string()
        }
        Value::Param { index, name, .. } if *index == RECEIVER => {
            format!("the script `self.{name}` names")
        }
        Value::Param { name, .. } => format!("the script its parameter `{name}` names"),
        _ => "the script its caller passes".to_string(),
    };
    format!(
        "a public wrapper: {name} runs {what}, and no call in the tree binds it; \
         its callers are the invocations (outside the tree, or client calls counted where they are)"
    )
}
