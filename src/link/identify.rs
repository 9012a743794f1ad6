//! Which script a call site runs: an embedded body, a const or attribute
//! holding it (or its SHA), its name in any case convention, or its SHA1;
//! and, when none fits, why, in words.

use crate::hash::HashMap;

use super::{Ctx, LinkInput, Model, Resolver, ScriptId, SpeakerId};
use crate::facts::{FileId, Op, Value};

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
        // `this.x`, `self.x`: a field of the receiver, which a method reads
        // (the receiver itself is named `self` or `this`).
        Value::Param {
            index: crate::facts::RECEIVER,
            name,
            ..
        } if name != "self" && name != "this" => format!(
            "the script is the receiver's field `{name}`, which holds no script wirelint can see"
        ),
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
        Value::Call { args, .. } | Value::Op { args, .. }
            if args.iter().any(|a| matches!(a, Value::OneOf { .. })) =>
        {
            args.iter()
                .find(|a| matches!(a, Value::OneOf { .. }))
                .map(unidentified)
                .unwrap_or_default()
        }
        // A field or element read (`entry.0`, `state.sha`): what it is
        // read from, not the projection's inner name.
        Value::Op {
            op: Op::Field(field),
            args,
            ..
        } => {
            let of = args
                .first()
                .map(|b| format!(" of `{}`", b.describe()))
                .unwrap_or_default();
            let what = match field.parse::<u32>() {
                Ok(n) => format!("element {n}"),
                Err(_) => format!("the field `{field}`"),
            };
            format!("the script is {what}{of}, which wirelint cannot follow to a script")
        }
        Value::Op {
            op: Op::Lookup,
            args,
            ..
        } => {
            let table = args.first().map(Value::describe).unwrap_or_default();
            let key = args.get(1).map(Value::describe).unwrap_or_default();
            format!("the script is looked up in `{table}` by `{key}`, which wirelint cannot follow to a script")
        }
        Value::Call { path, .. } => format!(
            "the script comes from `{}(..)`, which wirelint cannot follow to a script",
            path.join(".")
        ),
        Value::Op { op, .. } => format!(
            "the script comes from `{}(..)`, which wirelint cannot follow to a script",
            op.written()
        ),
        other => format!(
            "the script is `{}`, which wirelint cannot follow",
            other.describe()
        ),
    }
}

/// The values a script chosen at run time may be, when the code names
/// each: `if d { "a" } else { "b" }`, or a lookup by such a choice
/// (`get(..)` of it), one lookup per name. At most [`super::MAX_ALTS`].
pub(super) fn choices(v: &Value) -> Option<Vec<Value>> {
    choices_within(v, 0).filter(|out| out.len() >= 2 && out.len() <= super::MAX_ALTS)
}

fn choices_within(v: &Value, depth: usize) -> Option<Vec<Value>> {
    match v {
        Value::OneOf { alts, .. } => Some(alts.clone()),
        // `.sha` of `get(..)` of a choice: a projection of each lookup.
        Value::Call { args, .. } | Value::Op { args, .. } if depth < 4 => {
            let (at, alts) = args
                .iter()
                .enumerate()
                .find_map(|(i, a)| Some((i, choices_within(a, depth + 1)?)))?;
            let each = alts
                .into_iter()
                .map(|alt| {
                    let mut args = args.clone();
                    args[at] = alt;
                    v.with_args(args)
                })
                .collect();
            Some(each)
        }
        _ => None,
    }
}

/// The name a versioned command name starts with: a template whose
/// literal text is `name:` and whose rest is values alone
/// (`${name}:${version}` with `name` bound), so `name` is what it names;
/// `None` for any other template.
fn versioned_head(t: &crate::facts::Template) -> Option<String> {
    use crate::facts::Seg;
    let mut head = String::new();
    let mut segs = t.segs.iter();
    for s in segs.by_ref() {
        match s {
            Seg::Lit { text, .. } => head.push_str(text),
            _ => break,
        }
    }
    // The values after the head hold no literal text of their own.
    if segs.any(|s| matches!(s, Seg::Lit { .. })) {
        return None;
    }
    let name = head.strip_suffix(':')?;
    let plain = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    plain.then(|| name.to_string())
}

/// What following each value gave ([`Lookup::followed`]).
pub(super) type Followed = HashMap<(SpeakerId, FileId), HashMap<Value, Option<ScriptId>>>;

/// What identifying a script may consult.
pub(super) struct Lookup<'a> {
    /// What following a value gave, per speaker, file and value
    /// (`flow.rs`): binding asks the same values again each round.
    /// Keyed by speaker and file, then by value, so that a lookup borrows
    /// the value and only a miss copies it.
    pub followed: std::sync::Mutex<Followed>,
    pub model: &'a Model,
    pub script_at: &'a HashMap<(FileId, usize), ScriptId>,
    pub loaders: &'a Loaders,
    pub resolver: &'a Resolver<'a>,
    pub names: ScriptNames<'a>,
    /// The script inventory: the `.lua` file a read ([`Op::Read`]) names.
    pub files: &'a super::inventory::Inventory,
    pub sources: &'a crate::source::SourceMap,
    pub speaker_dirs: &'a [Option<std::path::PathBuf>],
}

/// The script of the `.lua` file a read's path names: relative to the
/// directory of the file the read is written in where something comes
/// before the path's literal end, else to the speaker's, as the inventory
/// finds a file a host names where it is read (`Inventory::script_of_path`).
fn read_script(
    path: &Value,
    file: FileId,
    speaker: SpeakerId,
    lk: &Lookup<'_>,
) -> Option<ScriptId> {
    let (rel, relative_to_file) = crate::extract::lua_file_of(path)?;
    // A file beside the reading file's is the one it names, whatever the
    // path's parts the link filled in (Go's embedded files are the
    // package directory's).
    let beside = lk.sources.get(file).path.parent().map(|d| d.join(&rel));
    if let Some(id) = beside.and_then(|p| lk.files.script_at_path(&super::normalize_path(&p))) {
        return Some(id);
    }
    let root = || lk.speaker_dirs.get(speaker).cloned().flatten();
    let base = if relative_to_file {
        let path = &lk.sources.get(file).path;
        path.parent().map(std::path::Path::to_path_buf)
    } else {
        root()
    }?;
    let at = |base: &std::path::Path| {
        lk.files
            .script_of_path(&super::normalize_path(&base.join(&rel)))
    };
    at(&base).or_else(|| {
        // A path after a part computed at run time (a configured root:
        // Elixir's `Application.get_env(:app, :root) |> Path.join(rel)`)
        // names, with a directory in its literal end, that file under the
        // project's root.
        (relative_to_file && rel.contains('/'))
            .then(root)
            .flatten()
            .and_then(|r| at(&r))
    })
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

/// Which script a value names: what [`direct`] says, else what the value
/// comes to through the definitions of the code base ([`super::flow`]):
/// every value it may be names the same script.
pub(super) fn identify(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    if let Some(id) = direct(v, speaker, file, lk, depth) {
        // A name only a script written in another speaker's code goes by
        // (`take_lua` here, `take_script` there): where this speaker's own
        // definitions make the value a script, that is the one it runs.
        let s = &lk.model.scripts[id];
        if s.speaker != speaker && !s.is_file && depth == 0 && followable(v) {
            if let Some(own) = followed(v, speaker, file, lk, depth) {
                return Some(own);
            }
        }
        return Some(id);
    }
    // A string that is one value's text (`"#{script}"`) names what the
    // value names.
    if let Value::Str(t) = v {
        if let [crate::facts::Seg::Value(x)] = t.segs.as_slice() {
            return identify(x, speaker, file, lk, depth);
        }
    }
    if depth > 0 || !followable(v) {
        return None;
    }
    followed(v, speaker, file, lk, depth)
}

/// A value the definitions of the code base may explain.
fn followable(v: &Value) -> bool {
    match v {
        Value::Call { .. } | Value::Op { .. } | Value::Const { .. } => true,
        Value::Param { index, name, .. } => *index == crate::facts::RECEIVER && name != "self",
        _ => false,
    }
}

/// Which script every value `v` comes to through the definitions of the
/// code base ([`super::flow`]) names, when they all name the same one
/// (memoised per value).
fn followed(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    let known = lk.followed.lock().ok().and_then(|m| {
        m.get(&(speaker, file))
            .and_then(|by_value| by_value.get(v).copied())
    });
    if let Some(known) = known {
        return known;
    }
    let at = super::flow::At {
        speaker,
        file,
        module: "",
        this: None,
    };
    let found = one_script(&super::flow::follow(lk.resolver, v, at), speaker, lk, depth);
    if let Ok(mut m) = lk.followed.lock() {
        m.entry((speaker, file))
            .or_default()
            .insert(v.clone(), found);
    }
    found
}

/// Whether scripts of `speaker` that differ are each bound to `name`.
fn named_apart(name: &str, speaker: SpeakerId, lk: &Lookup<'_>) -> bool {
    let norm = super::normalize_name(name);
    let Some(cands) = lk.names.by_norm.get(norm.as_str()) else {
        return false;
    };
    let mut shas = cands.iter().filter_map(|&i| {
        let s = &lk.model.scripts[i];
        (s.speaker == speaker && s.names.iter().any(|n| n == name)).then_some(&s.sha1)
    });
    let Some(first) = shas.next() else {
        return false;
    };
    shas.any(|sha| sha != first)
}

/// The script every value of `leaves` names, when they all name the same
/// one.
fn one_script(
    leaves: &[(FileId, Value)],
    speaker: SpeakerId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    let mut found = None;
    for (f, leaf) in leaves {
        match (direct(leaf, speaker, *f, lk, depth + 1), found) {
            (None, _) => return None,
            (Some(id), None) => found = Some(id),
            (Some(id), Some(x)) if id == x => {}
            (Some(_), Some(_)) => return None,
        }
    }
    found
}

/// Which script `self.f` (a [`crate::facts::RECEIVER`] field) names in a
/// method of `module`, whose last segment is the method's type: what that
/// type's constructors put in `f`, followed through the code base, when
/// every way names the same script. Not memoised: the same value read
/// without its type names nothing.
pub(super) fn identify_own_field(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    module: &str,
    lk: &Lookup<'_>,
) -> Option<ScriptId> {
    let at = super::flow::At {
        speaker,
        file,
        module,
        this: None,
    };
    one_script(&super::flow::follow(lk.resolver, v, at), speaker, lk, 0)
}

/// Which script a constant names: the script bound to its name, or what
/// its definition holds. A name several of the speaker's scripts are bound
/// to (two classes' `LUA_SCRIPT`) names the one its definition nearest the
/// use holds, or none: never the first of them.
fn const_script(
    path: &[String],
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
    by_name: &dyn Fn(&str) -> Option<ScriptId>,
) -> Option<ScriptId> {
    let name = path.last()?;
    let defined = || {
        let cx = Ctx {
            speaker,
            module: "",
            file,
        };
        let picks = lk.resolver.const_picks(path, &cx);
        let (f, first) = picks.first()?;
        let found = direct(&first.value, speaker, *f, lk, depth + 1);
        if found.is_some() || crate::facts::stored_by(&first.value).is_none() {
            return found;
        }
        // A store through a pointer that stores no script (a call that
        // only reads through it): the next store that does.
        picks[1..]
            .iter()
            .filter(|(_, d)| crate::facts::stored_by(&d.value).is_some())
            .find_map(|(f, d)| direct(&d.value, speaker, *f, lk, depth + 1))
    };
    if named_apart(name, speaker, lk) {
        return defined();
    }
    by_name(name).or_else(defined)
}

/// Which script a value names where it stands: an embedded body, a const
/// or attribute holding it (or its SHA), its name in any case convention,
/// or its SHA1; a constant whose own name names none is followed to its
/// value (`@sha Scripts.sha("requeue")`).
fn direct(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    if depth > 6 {
        return None;
    }
    let (model, script_at) = (lk.model, lk.script_at);
    let by_name = |name: &str| -> Option<ScriptId> {
        let norm = super::normalize_name(name);
        // A name that holds a script only in this file (a local, a generic
        // `@script`) names that definition here, and nothing elsewhere.
        let here = lk.names.local.get(&(file, norm.as_str())).copied();
        if here.is_some() || !super::shares_identity(&norm, false) {
            return here;
        }
        let cands = lk.names.by_norm.get(norm.as_str())?;
        // A script that is run before a file only `@include`d into others
        // (a library of functions that shares the command's name).
        let pick = |run: bool| {
            let first = |ok: &dyn Fn(&super::Script) -> bool| {
                cands.iter().copied().find(|&i| {
                    let s = &model.scripts[i];
                    (!run || !s.included) && ok(s)
                })
            };
            first(&|s| s.speaker == speaker && s.names.iter().any(|n| n == name))
                .or_else(|| first(&|s| s.speaker == speaker))
                // Then a shared `.lua` file, then any copy.
                .or_else(|| first(&|s| s.is_file))
                .or_else(|| first(&|_| true))
        };
        pick(true).or_else(|| pick(false))
    };
    match v {
        // A script defined in place, in the file its span is in (a value
        // followed from another file keeps its own).
        Value::ScriptRef { index, span } => script_at
            .get(&(span.file, *index))
            .or_else(|| script_at.get(&(file, *index)))
            .copied(),
        Value::Const { path, .. } => const_script(path, speaker, file, lk, depth, &by_name),
        Value::Atom { name, .. } => by_name(name),
        Value::Str(t) => {
            let Some(s) = v.as_str() else {
                // `${name}:${version}`: a command name the runtime versions
                // names the script its literal head names.
                return versioned_head(t)
                    .and_then(|head| by_name(&head))
                    .or_else(|| composed(t, speaker, file, lk, depth))
                    .or_else(|| {
                        let t = literal_parts(t, speaker, file, lk)?;
                        direct(&Value::Str(t), speaker, file, lk, depth + 1)
                    });
            };
            if s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
                let lower = s.to_ascii_lowercase();
                return model
                    .scripts
                    .iter()
                    .position(|x| x.sha1.as_deref() == Some(lower.as_str()));
            }
            if s.len() > 64 || s.contains(char::is_whitespace) {
                // The script's own text, sent with EVAL: the script whose
                // bytes these are.
                let sha = super::scripts::sha1_hex(&s);
                return model
                    .scripts
                    .iter()
                    .position(|x| x.sha1.as_deref() == Some(sha.as_str()));
            }
            by_name(&s)
        }
        Value::Op {
            op: Op::Read, args, ..
        } => read_script(args.first()?, file, speaker, lk),
        Value::Call { args, .. } | Value::Op { args, .. } => {
            called(v, args, speaker, file, lk, depth)
        }
        _ => None,
    }
}

/// Which script a call names: what a loader of the code base returns, what
/// a function stores through a pointer, else an argument that names it.
fn called(
    v: &Value,
    args: &[Value],
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    if let Some((f, body)) = v.callee_name().and_then(|n| lk.loaders.get(speaker, &n)) {
        return direct(body, speaker, *f, lk, depth + 1);
    }
    // What a function stores through a pointer: its value, not a name
    // among the arguments.
    if crate::facts::stored_by(v).is_some() {
        return followed(v, speaker, file, lk, depth + 1);
    }
    // An argument that names the script, as written or as the function of
    // the code base it calls returns it (`get(name())`).
    args.iter().find_map(|a| {
        direct(a, speaker, file, lk, depth + 1).or_else(|| match a {
            // `get(name())`, `get(lookup("a"))`, `get(Values::new().name)`,
            // `get(NAMES["x"])`: what the argument comes to.
            Value::Call { .. } | Value::Op { .. } => followed(a, speaker, file, lk, depth + 1),
            _ => None,
        })
    })
}

/// A template whose values come to literal text through the definitions
/// of the code base (a constant, a function or a property returning it)
/// with that text in their place: `${NAME}:${version}`, `NAME` a constant
/// `'enqueue'`, names what `enqueue:${version}` names. `None` when no
/// value does.
fn literal_parts(
    t: &crate::facts::Template,
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
) -> Option<crate::facts::Template> {
    use crate::facts::Seg;
    let mut changed = false;
    let mut segs = Vec::with_capacity(t.segs.len());
    for seg in &t.segs {
        let text = match seg {
            Seg::Value(v) => literal_text(v, speaker, file, lk),
            _ => None,
        };
        match text {
            Some(text) => {
                changed = true;
                segs.push(Seg::Lit {
                    text,
                    span: seg.span(),
                });
            }
            None => segs.push(seg.clone()),
        }
    }
    changed.then_some(crate::facts::Template { segs, span: t.span })
}

/// The one literal text every value `v` comes to (a constant's, what a
/// function of the code base returns), if it comes to one.
fn literal_text(v: &Value, speaker: SpeakerId, file: FileId, lk: &Lookup<'_>) -> Option<String> {
    if !matches!(
        v,
        Value::Const { .. } | Value::Call { .. } | Value::Op { .. }
    ) {
        return None;
    }
    let at = super::flow::At {
        speaker,
        file,
        module: "",
        this: None,
    };
    let mut found: Option<String> = None;
    for (f, leaf) in super::flow::follow(lk.resolver, v, at) {
        let text = match &leaf {
            Value::Const { path, .. } => {
                let cx = Ctx {
                    speaker,
                    module: "",
                    file: f,
                };
                lk.resolver.const_def(path, &cx)?.1.as_str()?
            }
            other => other.as_str()?,
        };
        if found.as_ref().is_some_and(|x| *x != text) {
            return None;
        }
        found = Some(text);
    }
    found
}

/// A script text joined from script texts (`format!("{HELPERS}\n{body}")`,
/// `PRELUDE + body`): Lua defines a function before a call of it, so the
/// last part is the script run and the parts before it are its preludes
/// (functions it may call). The last part's script, when every part names
/// a script, only whitespace joins them, and no prelude reads KEYS or ARGV
/// of its own (what the call passes is then the last part's to read).
fn composed(
    t: &crate::facts::Template,
    speaker: SpeakerId,
    file: FileId,
    lk: &Lookup<'_>,
    depth: usize,
) -> Option<ScriptId> {
    use crate::facts::Seg;
    let mut parts = Vec::new();
    for seg in &t.segs {
        match seg {
            Seg::Lit { text, .. } if text.trim().is_empty() => {}
            Seg::Value(v) => parts.push(direct(v, speaker, file, lk, depth + 1)?),
            _ => return None,
        }
    }
    let (&body, preludes) = parts.split_last()?;
    let quiet = |id: ScriptId| {
        let lua = &lk.model.scripts[id].lua;
        lua.key_uses.is_empty() && lua.argv.reads.is_empty() && !lua.argv.variadic
    };
    preludes
        .iter()
        .all(|&p| p != body && quiet(p))
        .then_some(body)
}

#[cfg(test)]
mod tests {
    use super::{unidentified, versioned_head};
    use crate::facts::{Seg, Span, Template, Value};

    fn tpl(segs: Vec<Seg>) -> Template {
        Template {
            segs,
            span: Span::new(0, 0, 1),
        }
    }

    fn lit(t: &str) -> Seg {
        Seg::Lit {
            text: t.into(),
            span: Span::new(0, 0, 1),
        }
    }

    fn hole() -> Seg {
        Seg::Value(Box::new(Value::unknown("version", Span::new(0, 0, 1))))
    }

    #[test]
    fn a_versioned_command_name_names_its_head() {
        let head = |segs| versioned_head(&tpl(segs));
        assert_eq!(
            head(vec![lit("addJob"), lit(":"), hole()]),
            Some("addJob".into())
        );
        assert_eq!(
            head(vec![lit("addJob:"), hole(), hole()]),
            Some("addJob".into())
        );
        // Literal text after the value, no `:`, or a name of several parts.
        assert_eq!(head(vec![lit("addJob:"), hole(), lit(":x")]), None);
        assert_eq!(head(vec![lit("addJob"), hole()]), None);
        assert_eq!(head(vec![lit("emq:{q}:"), hole()]), None);
        assert_eq!(head(vec![hole(), lit(":v1")]), None);
    }

    /// A receiver's field is named as one, not as a parameter; the
    /// receiver itself and a parameter are parameters.
    #[test]
    fn a_receivers_field_is_said_to_be_one() {
        let param = |index, name: &str| Value::Param {
            index,
            name: name.into(),
            span: Span::new(0, 0, 1),
        };
        assert_eq!(
            unidentified(&param(crate::facts::RECEIVER, "lua_incr")),
            "the script is the receiver's field `lua_incr`, which holds no script wirelint can see"
        );
        assert_eq!(
            unidentified(&param(crate::facts::RECEIVER, "self")),
            "the script is the parameter `self`, which no call binds"
        );
        assert_eq!(
            unidentified(&param(0, "script")),
            "the script is the parameter `script`, which no call binds"
        );
    }
}
