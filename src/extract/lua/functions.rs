//! Redis Functions (Redis 7): a library (a chunk whose first line is
//! `#!lua name=LIB`, loaded by `FUNCTION LOAD`) registers functions by
//! name, `redis.register_function('name', callback)` or
//! `redis.register_function{function_name = 'name', callback = f}`, and
//! `FCALL name numkeys key.. arg..` runs one with the keys and arguments as
//! its callback's two parameters. Each registered function is a script of
//! its own, named by its registration: the library is read once per name
//! ([`registered`]), running only that function's callback with `KEYS` and
//! `ARGV` as its parameters.

use tree_sitter::Node;

use super::eval::Eval;
use super::value::{Kind, Lv, Slot};
use crate::extract::fields::LUA as F;
use crate::facts::Span;
use crate::parse::{named_children, walk};

/// At most this many functions are read from one library.
const MAX_FUNCTIONS: usize = 64;

/// Whether a chunk is a library of Redis Functions (`#!lua name=LIB`).
pub(crate) fn is_library(src: &[u8]) -> bool {
    src.starts_with(b"#!lua")
}

/// The name and the callback of a registration, as written.
fn registration<'t>(call: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>, Node<'t>)> {
    let args = call.child_by_field_id(F.arguments)?;
    let text = |n: Node<'_>| String::from_utf8_lossy(&src[n.byte_range()]).into_owned();
    let literal = |n: Node<'t>| -> Option<String> {
        (n.kind() == "string")
            .then(|| n.child_by_field_id(F.content))
            .flatten()
            .map(text)
    };
    let listed = named_children(args);
    if let [table] = listed.as_slice() {
        if table.kind() != "table_constructor" {
            return None;
        }
        let mut name = None;
        let mut callback = None;
        for f in named_children(*table)
            .into_iter()
            .filter(|f| f.kind() == "field")
        {
            let (Some(k), Some(v)) = (f.child_by_field_id(F.name), f.child_by_field_id(F.value))
            else {
                continue;
            };
            match text(k).as_str() {
                "function_name" => name = literal(v).map(|s| (s, v)),
                "callback" => callback = Some(v),
                _ => {}
            }
        }
        let (name, at) = name?;
        return Some((name, at, callback?));
    }
    match listed.as_slice() {
        [name, callback, ..] => Some((literal(*name)?, *name, *callback)),
        _ => None,
    }
}

/// Whether a call's callee is `redis.register_function` (Valkey's
/// `server.register_function`).
fn registers(call: Node<'_>, src: &[u8]) -> bool {
    call.child_by_field_id(F.name).is_some_and(|c| {
        let callee = String::from_utf8_lossy(src[c.byte_range()].trim_ascii());
        super::library_name(&callee) == "redis.register_function"
    })
}

/// The functions a library registers: each name, and where it is written.
pub(crate) fn registered(root: Node<'_>, src: &[u8]) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    walk(root, |n| {
        if out.len() < MAX_FUNCTIONS && n.kind() == "function_call" && registers(n, src) {
            if let Some((name, at, _)) = registration(n, src) {
                if !out.iter().any(|(x, _)| *x == name) {
                    out.push((name, at.byte_range()));
                }
            }
        }
        true
    });
    out
}

impl<'t> Eval<'_, 't> {
    /// A registration: where the library is read for this function, a run
    /// of its callback with `KEYS` and `ARGV` as its parameters, each
    /// command spanning its own place.
    pub(super) fn register_function(&mut self, call: Node<'t>, span: Span) -> Lv<'t> {
        let Some((name, _, callback)) = registration(call, self.s.bytes()) else {
            return Lv::unknown("function", span);
        };
        if self.function.as_deref() != Some(name.as_str()) {
            return Lv::unknown("function", span);
        }
        if let Kind::Func(def, depth) = self.expr(callback).kind {
            let keys = Lv::new(Kind::Args(Slot::Keys), span);
            let mut argv = Lv::new(Kind::Args(Slot::Argv), span);
            argv.caller = true;
            self.no_site = true;
            self.call_fn(def, depth, vec![keys, argv], false, span);
        }
        Lv::unknown("function", span)
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::{FileFacts, Lang, ScriptSource, Value};
    use crate::parse::Parsers;

    fn facts(src: &str) -> FileFacts {
        let mut p = Parsers::new().unwrap();
        crate::extract::extract_file(&mut p, Lang::Lua, 0, src.as_bytes(), "locks")
    }

    /// Each script's name and its commands as `NAME KEYS[n]..`.
    fn scripts(f: &FileFacts) -> Vec<(String, Vec<String>)> {
        let show = |v: &Value| match v {
            Value::Keys { index: Some(i), .. } => format!("KEYS[{i}]"),
            Value::Argv { index: Some(i), .. } => format!("ARGV[{i}]"),
            other => other.as_str().unwrap_or_else(|| "?".into()),
        };
        f.scripts
            .iter()
            .map(|s| {
                let ScriptSource::Inline(lua) = &s.source else {
                    panic!("a function is read in place");
                };
                let commands = lua
                    .commands
                    .iter()
                    .map(|c| {
                        let args: Vec<String> = c.args.iter().map(show).collect();
                        format!("{} {}", c.name, args.join(" "))
                    })
                    .collect();
                (s.name.clone().unwrap_or_default(), commands)
            })
            .collect()
    }

    /// A library's functions, registered by position or by a table, are
    /// scripts of their own: each runs its callback with `KEYS` and `ARGV`
    /// as its parameters, and nothing else of the library.
    #[test]
    fn each_registered_function_is_a_script() {
        let src = "#!lua name=locks\n\nlocal function take(keys, args)\n  return redis.call('SET', keys[1], args[1], 'PX', args[2])\nend\n\nlocal function unused(keys)\n  return redis.call('DEL', keys[1])\nend\n\nredis.register_function('take_lock', take)\nredis.register_function{\n  function_name = 'drop_lock',\n  callback = function(keys, args)\n    return redis.call('DEL', keys[1], keys[2])\n  end,\n}\n";
        let f = facts(src);
        assert_eq!(
            scripts(&f),
            [
                (
                    "take_lock".to_string(),
                    vec!["SET KEYS[1] ARGV[1] PX ARGV[2]".to_string()]
                ),
                (
                    "drop_lock".to_string(),
                    vec!["DEL KEYS[1] KEYS[2]".to_string()]
                ),
            ]
        );
        // Named where it is registered; no SHA, as no EVALSHA can run it.
        let at = |s: &str| src.find(s).unwrap() as u32;
        assert_eq!(f.scripts[0].name_span.start, at("'take_lock'"));
        assert_eq!(f.scripts[1].name_span.start, at("'drop_lock'"));
        assert!(f.scripts.iter().all(|s| s.text.is_none()));
        // Its ARGV are read through a parameter: any number may be.
        let ScriptSource::Inline(lua) = &f.scripts[0].source else {
            unreachable!()
        };
        assert!(lua.argv.variadic);
    }

    /// Valkey names the library `server` too: `server.call`,
    /// `server.pcall`, `server.register_function` and
    /// `server.error_reply` are `redis`'s.
    #[test]
    fn valkeys_server_is_the_redis_library() {
        let lib = "#!lua name=limits\nlocal function take(keys, args)\n  server.call('SET', keys[1], args[1])\n  return server.pcall('PTTL', keys[1])\nend\nserver.register_function('take', take)\n";
        assert_eq!(
            scripts(&facts(lib)),
            [(
                "take".to_string(),
                vec![
                    "SET KEYS[1] ARGV[1]".to_string(),
                    "PTTL KEYS[1]".to_string()
                ]
            )]
        );
        let plain = "if server.call('EXISTS', KEYS[1]) == 1 then\n  return server.error_reply('TAKEN')\nend\nreturn server.call('SET', KEYS[1], ARGV[1])\n";
        let f = facts(plain);
        assert_eq!(
            scripts(&f),
            [(
                "locks".to_string(),
                vec![
                    "EXISTS KEYS[1]".to_string(),
                    "SET KEYS[1] ARGV[1]".to_string()
                ]
            )]
        );
    }

    /// A chunk that is no library is one script, and `KEYS` held in a
    /// local is the same table: `local k = KEYS; k[1]` is `KEYS[1]`.
    #[test]
    fn a_script_is_no_library_and_keys_in_a_local_are_keys() {
        let f = facts("local k = KEYS\nlocal a = ARGV\nreturn redis.call('SET', k[1], a[2])\n");
        assert_eq!(
            scripts(&f),
            [("locks".to_string(), vec!["SET KEYS[1] ARGV[2]".to_string()])]
        );
        assert!(facts("#!lua name=x\n").scripts.is_empty());
    }
}
