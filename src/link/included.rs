//! Calls of functions that a script's `--- @include`d files define,
//! inlined at the call. An included file is part of the script, so a call
//! of one of its functions sends what the function sends with its
//! parameters bound to the call's arguments (`KEYS[4] .. jobId` in a
//! parameter is `KEYS[4] .. jobId` in the command, typed by the script's
//! callers like any other key of the script). The commands keep their
//! spans in the included file; a call of a name the script's top level
//! binds to `redis.call` (`rcall`) is a command. A call that no included
//! file defines stays a call the analysis cannot see into.

use super::substitute::{substitute, Args};
use super::{command_use, push_command, Ctx, Model, Resolver, ScriptId};
use crate::facts::{Command, FileId, LuaCall, LuaFunction, Seg, Sink, Template, Value};
use crate::hash::HashMap;

/// Nested calls followed from one call of the script.
const MAX_DEPTH: usize = 8;
/// Files reached through includes of includes.
const MAX_REACHED: usize = 256;
/// Commands one script gets from its included files.
const MAX_COMMANDS: usize = 4096;

/// Inlines, in every script that includes files, the calls of their
/// functions.
pub(super) fn inline(
    resolver: &Resolver<'_>,
    model: &mut Model,
    includes: &HashMap<ScriptId, Vec<ScriptId>>,
) {
    let mut ids: Vec<ScriptId> = includes.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        if model.scripts[id].lua.calls.is_empty() {
            continue;
        }
        let reached = reached(id, includes);
        let mut redis: Vec<&str> = Vec::new();
        for &s in std::iter::once(&id).chain(&reached) {
            redis.extend(model.scripts[s].lua.redis_names.iter().map(String::as_str));
        }
        let mut functions: HashMap<&str, (FileId, &LuaFunction)> = HashMap::default();
        for &s in &reached {
            let file = model.scripts[s].def_span.file;
            for f in &model.scripts[s].lua.functions {
                functions.entry(f.name.as_str()).or_insert((file, f));
            }
        }
        let mut run = Inliner {
            redis,
            functions,
            stack: Vec::new(),
            commands: Vec::new(),
            unseen: Vec::new(),
        };
        let file = model.scripts[id].def_span.file;
        for call in &model.scripts[id].lua.calls {
            run.call(call, file, 0);
        }
        let (commands, unseen) = (run.commands, run.unseen);
        let speaker = model.scripts[id].speaker;
        for (file, c) in commands {
            let cx = Ctx {
                speaker,
                module: "",
                file,
            };
            push_command(model, command_use(resolver, &c, &cx, Some(id)));
        }
        std::sync::Arc::make_mut(&mut model.scripts[id].lua).calls = unseen;
    }
}

/// The files a script includes, and those they include, in order.
fn reached(id: ScriptId, includes: &HashMap<ScriptId, Vec<ScriptId>>) -> Vec<ScriptId> {
    let mut out: Vec<ScriptId> = Vec::new();
    let mut k = 0;
    let mut next = vec![id];
    while k < next.len() && out.len() < MAX_REACHED {
        for &inc in includes.get(&next[k]).into_iter().flatten() {
            if inc != id && !out.contains(&inc) {
                out.push(inc);
                next.push(inc);
            }
        }
        k += 1;
    }
    out
}

/// One script's inlining.
struct Inliner<'m> {
    redis: Vec<&'m str>,
    functions: HashMap<&'m str, (FileId, &'m LuaFunction)>,
    /// The functions being inlined (no recursion).
    stack: Vec<&'m str>,
    /// The commands sent, with the file that holds each.
    commands: Vec<(FileId, Command)>,
    /// The calls no included file defines.
    unseen: Vec<LuaCall>,
}

impl<'m> Inliner<'m> {
    /// A call in `file`, its arguments already bound.
    fn call(&mut self, call: &LuaCall, file: FileId, depth: usize) {
        if self.redis.contains(&call.name.as_str()) {
            self.redis_call(call, file);
            return;
        }
        let found = self.functions.get(call.name.as_str()).copied();
        let Some((def_file, f)) = found else {
            self.unseen.push(call.clone());
            return;
        };
        if depth >= MAX_DEPTH || self.stack.contains(&f.name.as_str()) {
            // Not followed: what it sends stays unseen.
            self.unseen.push(call.clone());
            return;
        }
        let args = Args {
            args: &call.args,
            receiver: None,
            keep_receiver: false,
        };
        self.stack.push(f.name.as_str());
        for c in &f.commands {
            if self.commands.len() >= MAX_COMMANDS {
                break;
            }
            let mut c = c.clone();
            c.args = c.args.iter().map(|a| bind(a, args)).collect();
            self.commands.push((def_file, c));
        }
        for inner in &f.calls {
            let bound = LuaCall {
                args: inner.args.iter().map(|a| bind(a, args)).collect(),
                ..inner.clone()
            };
            self.call(&bound, def_file, depth + 1);
        }
        self.stack.pop();
    }

    /// `rcall('HSET', key, ...)`, where `rcall` is the script's
    /// `redis.call`: a command for each name it may send.
    fn redis_call(&mut self, call: &LuaCall, file: FileId) {
        let Some(first) = call.args.first() else {
            return;
        };
        let names: Vec<&Value> = match first {
            Value::OneOf { alts, .. } => alts.iter().collect(),
            v => vec![v],
        };
        for v in names {
            let Some(name) = v.as_str() else {
                continue;
            };
            if self.commands.len() >= MAX_COMMANDS {
                return;
            }
            let command = Command {
                name: name.to_ascii_uppercase(),
                name_span: v.span(),
                name_of: None,
                args: call.args[1..].to_vec(),
                open_tail: call.open,
                tail: Vec::new(),
                span: call.span,
                func: None,
                sink: Sink::Client,
            };
            self.commands.push((file, command));
        }
    }
}

/// A value of the function with its parameters bound, strings spliced
/// flat (`key .. ':lock'` with `key` bound to `KEYS[4] .. id` is one
/// template of three parts), as the script would have built it.
fn bind(v: &Value, args: Args<'_>) -> Value {
    flat(substitute(v, args, 0), 0)
}

fn flat(v: Value, depth: usize) -> Value {
    match v {
        Value::Str(t) if depth < 16 => {
            let mut segs = Vec::with_capacity(t.segs.len());
            for s in t.segs {
                match s {
                    Seg::Value(inner) => match flat(*inner, depth + 1) {
                        Value::Str(u) => segs.extend(u.segs),
                        Value::Unknown { label, span } => segs.push(Seg::Hole { label, span }),
                        other => segs.push(Seg::Value(Box::new(other))),
                    },
                    other => segs.push(other),
                }
            }
            Value::Str(Template { segs, span: t.span })
        }
        Value::OneOf { alts, span } if depth < 16 => Value::OneOf {
            alts: alts.into_iter().map(|a| flat(a, depth + 1)).collect(),
            span,
        },
        other => other,
    }
}
