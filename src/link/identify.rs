//! Which script a call site runs: an embedded body, a const or attribute
//! holding it (or its SHA), its name in any case convention, or its SHA1;
//! and, when none fits, why, in words.

use crate::hash::HashMap;

use super::{Ctx, LinkInput, Model, Resolver, ScriptId, SpeakerId};
use crate::facts::{FileId, Value};

/// Functions that return a script's SHA from `SCRIPT LOAD`, by speaker and
/// name: the script they load and the file it is written in. A function
/// whose only calls into the code base are to such functions of one script
/// returns the same SHA (`get_hash` calling `load_script` on a cache miss).
#[derive(Default)]
pub(super) struct Loaders(HashMap<SpeakerId, ByName>);

/// A speaker's loaders by name (`None`: two different scripts).
type ByName = HashMap<String, Option<(FileId, Value)>>;

impl Loaders {
    pub(super) fn of(input: &LinkInput<'_>) -> Loaders {
        let mut map: HashMap<SpeakerId, ByName> = HashMap::default();
        let put = |map: &mut HashMap<SpeakerId, ByName>, (sp, name), v: (FileId, Value)| {
            let by_name: &mut ByName = map.entry(sp).or_default();
            let e = by_name.entry(name).or_insert_with(|| Some(v.clone()));
            if e.as_ref()
                .is_some_and(|(f, x)| *f != v.0 || x.span() != v.1.span())
            {
                *e = None; // two different scripts: ambiguous
            }
        };
        let each = |f: &mut dyn FnMut(SpeakerId, FileId, &crate::facts::FileFacts)| {
            for (file, facts) in input.facts {
                if let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() {
                    f(sp, *file, facts);
                }
            }
        };
        each(&mut |sp, file, facts| {
            for c in &facts.commands {
                let load = c.name == "SCRIPT"
                    && c.args
                        .first()
                        .and_then(Value::as_str)
                        .is_some_and(|s| s.eq_ignore_ascii_case("load"));
                let (true, Some(body), Some(func)) = (load, c.args.get(1), c.func) else {
                    continue;
                };
                let name = facts.functions[func].name.clone();
                put(&mut map, (sp, name), (file, body.clone()));
            }
        });
        for _ in 0..4 {
            // Nothing loaded, or nothing new last round: the rounds left
            // would add nothing.
            if map.is_empty() {
                break;
            }
            let known = map.clone();
            let count =
                |m: &HashMap<SpeakerId, ByName>| m.values().map(HashMap::len).sum::<usize>();
            each(&mut |sp, _, facts| {
                let Some(known) = known.get(&sp) else {
                    return;
                };
                // Per function: the one loaded script its calls all reach.
                let mut reach: HashMap<usize, Option<&(FileId, Value)>> = HashMap::default();
                for call in &facts.calls {
                    let (Some(func), Some(callee)) = (call.func, call.path.last()) else {
                        continue;
                    };
                    let v = known.get(callee.as_str()).and_then(Option::as_ref);
                    let e = reach.entry(func).or_insert(v);
                    if e.is_some_and(|x| v.is_none_or(|y| x.1.span() != y.1.span())) {
                        *e = None;
                    }
                }
                for (func, v) in reach {
                    let name = &facts.functions[func].name;
                    if let (Some(v), false) = (v, known.contains_key(name)) {
                        put(&mut map, (sp, name.clone()), v.clone());
                    }
                }
            });
            // A round puts only names it did not know, each a new entry.
            if count(&map) == count(&known) {
                break;
            }
        }
        Loaders(map)
    }

    fn get(&self, speaker: SpeakerId, name: &str) -> Option<&(FileId, Value)> {
        self.0.get(&speaker)?.get(name)?.as_ref()
    }
}

/// Why a script value names no script, in words.
pub(super) fn unidentified(v: &Value) -> String {
    match v {
        Value::Param { name, .. } => {
            format!("the script is the parameter `{name}`, which no call binds")
        }
        Value::Str(t) => match t.as_literal() {
            Some(s) if s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()) => {
                format!("no script here has the SHA1 `{s}`")
            }
            Some(s) if s.len() <= 64 && !s.contains(char::is_whitespace) => {
                format!("no script is named `{s}`")
            }
            Some(_) => "the script text holds no Redis call".into(),
            None => format!("the script is built at run time (`{t}`)"),
        },
        Value::Atom { name, .. } => format!("no script is named `:{name}`"),
        Value::OneOf { alts, .. } => format!(
            "the script is chosen at run time among {}",
            alts.iter()
                .map(|a| format!("`{}`", a.describe()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Const { path, .. } => format!(
            "`{}` holds no script wirelint can see",
            path.last().map(String::as_str).unwrap_or("?")
        ),
        // `get(if delay > 0 { "a" } else { "b" })`: a choice, not a name.
        Value::Call { args, .. } if args.iter().any(|a| matches!(a, Value::OneOf { .. })) => args
            .iter()
            .find(|a| matches!(a, Value::OneOf { .. }))
            .map(unidentified)
            .unwrap_or_default(),
        Value::Call { path, .. } => format!(
            "the script comes from `{}(..)`, which wirelint cannot follow to a script",
            path.join(".")
        ),
        other => format!(
            "the script is `{}`, which wirelint cannot follow",
            other.describe()
        ),
    }
}

/// What identifying a script may consult.
pub(super) struct Lookup<'a> {
    pub model: &'a Model,
    pub script_at: &'a HashMap<(FileId, usize), ScriptId>,
    pub loaders: &'a Loaders,
    pub resolver: &'a Resolver<'a>,
    pub names: ScriptNames<'a>,
}

/// The scripts by the names they go by, each list in script order: a
/// name looked up among every script for every call site was quadratic
/// (6,000 scripts each run once: a second).
#[derive(Default)]
pub(super) struct ScriptNames<'a> {
    /// (file, normalized name) → the first script with that local name.
    local: HashMap<(FileId, &'a str), ScriptId>,
    /// Normalized name → the scripts that go by it.
    by_norm: HashMap<&'a str, Vec<ScriptId>>,
}

impl<'a> ScriptNames<'a> {
    pub(super) fn of(model: &'a Model) -> Self {
        let mut names = ScriptNames::default();
        for (id, s) in model.scripts.iter().enumerate() {
            for (f, n) in &s.local_names {
                names.local.entry((*f, n.as_str())).or_insert(id);
            }
            for n in &s.norm_names {
                names.by_norm.entry(n.as_str()).or_default().push(id);
            }
        }
        names
    }
}

/// Which script a value names: an embedded body, a const or attribute
/// holding it (or its SHA), its name in any case convention, or its SHA1;
/// a constant whose own name names none is followed to its value
/// (`@sha Scripts.sha("requeue")`).
pub(super) fn identify(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    if depth > 6 {
        return None;
    }
    let (model, script_at, loaders) = (lk.model, lk.script_at, lk.loaders);
    let by_name = |name: &str| -> Option<ScriptId> {
        let norm = super::normalize_name(name);
        // A name that holds a script only in this file (a local, a generic
        // `@script`) names that definition here, and nothing elsewhere.
        let here = lk.names.local.get(&(file, norm.as_str())).copied();
        if here.is_some() || !super::shares_identity(&norm, false) {
            return here;
        }
        let cands = lk.names.by_norm.get(norm.as_str())?;
        let first = |ok: &dyn Fn(&super::Script) -> bool| {
            cands.iter().copied().find(|&i| ok(&model.scripts[i]))
        };
        first(&|s| s.speaker == speaker && s.names.iter().any(|n| n == name))
            .or_else(|| first(&|s| s.speaker == speaker))
            // Then a shared `.lua` file, then any copy.
            .or_else(|| first(&|s| s.is_file))
            .or_else(|| cands.first().copied())
    };
    match v {
        Value::ScriptRef { index, .. } => script_at.get(&(file, *index)).copied(),
        Value::Const { path, .. } => by_name(path.last()?).or_else(|| {
            let cx = Ctx {
                speaker,
                module: "",
                file,
            };
            let (f, value) = lk.resolver.const_def(path, &cx)?;
            identify(value, speaker, f, lk, depth + 1)
        }),
        Value::Atom { name, .. } => by_name(name),
        Value::Str(_) => {
            let s = v.as_str()?;
            if s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
                let lower = s.to_ascii_lowercase();
                return model
                    .scripts
                    .iter()
                    .position(|x| x.sha1.as_deref() == Some(lower.as_str()));
            }
            if s.len() > 64 || s.contains(char::is_whitespace) {
                return None;
            }
            by_name(&s)
        }
        Value::Call { path, args, .. } => {
            if let Some((f, body)) = path.last().and_then(|n| loaders.get(speaker, n)) {
                return identify(body, speaker, *f, lk, depth + 1);
            }
            args.iter()
                .find_map(|a| identify(a, speaker, file, lk, depth + 1))
        }
        _ => None,
    }
}
