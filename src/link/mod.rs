//! Linking: from per-file facts to one model of the repository.
//!
//! - speakers: every file belongs to one;
//! - constants and key builders: `Value::Const`/`Value::Call`/`Value::Param`
//!   inside templates are resolved within the speaker, so a call site's key
//!   is the callee's template with the call's own arguments in place;
//! - script identity: `.lua` files, embedded Lua, and `include_str!` /
//!   `File.read!` references become one inventory of scripts.
//!
//! Resolution stays inside what the code shows: whatever cannot be resolved
//! becomes a hole, and a hole matches anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use crate::contract::Contract;
use crate::facts::{Command, FileFacts, FileId, LuaFacts, Span, Template, Value};
use crate::keyshape::is_key_like;
use crate::source::SourceMap;

pub mod argv;
mod built;
pub mod calls;
mod classes;
mod definers;
mod flow;
mod identify;
mod included;
mod inventory;
mod lists;
pub mod memo;
mod named;
pub mod records;
mod resolve;
pub mod roles;
mod rows;
pub mod runs;
pub mod scope;
mod script_keys;
pub mod scripts;
mod sends;
mod substitute;

pub use definers::Definers;
use inventory::Inventory;
pub use memo::LinkMemo;

pub(crate) use resolve::{Ctx, Resolver, MAX_ALTS};

pub type SpeakerId = usize;
pub type ScriptId = usize;

/// A runtime that speaks the protocol: a project directory, or the shared
/// scripts outside any project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Speaker {
    pub name: String,
    /// Relative directory (`.` for the root); empty for shared scripts.
    pub dir: String,
    pub canonical: bool,
}

/// A key as one speaker builds it, fully resolved (only `Lit` and `Hole`).
#[derive(Debug, Clone)]
pub struct KeyUse {
    pub template: Template,
    pub speaker: SpeakerId,
    /// Sent as a key: a command's key argument or a script call's key (not
    /// only a string built somewhere).
    pub sent: bool,
}

/// A command argument with its resolved string forms.
#[derive(Debug, Clone)]
pub struct Arg {
    pub value: Value,
    /// The strings it may send (empty when it is not string-like). Shared:
    /// a key in a wrapper is resolved once per file and passed by every
    /// call of it.
    pub alts: std::sync::Arc<[Template]>,
}

/// Where a literal template's bytes are written: its one piece (a
/// constant's or a function's literal, where it is defined), else the
/// template.
fn literal_span(t: &Template) -> Span {
    match t.segs.as_slice() {
        [one] => one.span(),
        _ => t.span,
    }
}

impl Arg {
    /// The single literal it sends, if it is one.
    pub fn literal(&self) -> Option<(String, Span)> {
        if let Some(s) = self.value.as_str() {
            let span = match &self.value {
                Value::Str(t) => t.segs.first().map(|s| s.span()).unwrap_or(t.span),
                other => other.span(),
            };
            return Some((s, span));
        }
        match &*self.alts {
            [t] => t.as_literal().map(|s| (s, literal_span(t))),
            _ => None,
        }
    }

    /// `KEYS[n]`, if that is what it is.
    pub fn keys_index(&self) -> Option<u32> {
        match self.value {
            Value::Keys { index, .. } => index,
            _ => None,
        }
    }
}

/// A Redis command, in host code or in a script.
#[derive(Debug, Clone)]
pub struct CommandUse {
    pub name: String,
    pub name_span: Span,
    pub args: Vec<Arg>,
    pub open_tail: bool,
    pub span: Span,
    pub speaker: SpeakerId,
    /// The script whose body holds it.
    pub script: Option<ScriptId>,
}

/// A field read from a map that HGETALL filled.
#[derive(Debug, Clone)]
pub struct FieldReadUse {
    /// The templates of the key HGETALL read.
    pub key: Vec<Template>,
    pub field: String,
    pub span: Span,
    pub speaker: SpeakerId,
}

/// One copy of a Lua script.
#[derive(Debug, Clone)]
pub struct Script {
    /// Names the code gives it: the file stem, attributes and consts that
    /// hold it.
    pub names: Vec<String>,
    /// [`normalize_name`] of each name that identifies the script across
    /// files and speakers: a file stem, a const or an attribute with a
    /// specific name ([`shares_identity`]).
    pub norm_names: BTreeSet<String>,
    /// Names that identify it only in one file: a local variable
    /// (`let script = ..`) or a generic name (`@script`, `LUA`).
    pub local_names: BTreeSet<(FileId, String)>,
    pub speaker: SpeakerId,
    /// Where the script is defined (a `.lua` file's first line, or the
    /// attribute or const holding it).
    pub def_span: Span,
    pub lua: std::sync::Arc<LuaFacts>,
    /// Index into the contract's scripts, when the script is one of them.
    pub contract: Option<usize>,
    /// The bytes the runtime sends, and their SHA1 (what EVALSHA names).
    pub text: Option<std::sync::Arc<str>>,
    pub sha1: Option<String>,
    /// The key count in the file name (`moveToActive-11.lua`).
    pub file_count: Option<(u32, Span)>,
    /// The key count written where the script is registered.
    pub registration: Option<(u32, Span)>,
    /// Whether the Lua lives in a `.lua` file (else in a host string).
    pub is_file: bool,
    /// Another script `@include`s it: a fragment, not run on its own.
    pub included: bool,
    /// Whether its Lua is known (false for a file the tree does not hold:
    /// then it may touch any key, and only its callers are checked).
    pub body: bool,
}

/// The whole repository, linked.
#[derive(Debug, Default)]
pub struct Model {
    pub speakers: Vec<Speaker>,
    /// Indexed by [`FileId`]; `None` for the contract file.
    pub file_speaker: Vec<Option<SpeakerId>>,
    pub keys: Vec<KeyUse>,
    pub commands: Vec<CommandUse>,
    pub scripts: Vec<Script>,
    /// Every place a script is run, with what it is passed.
    pub script_calls: Vec<calls::ScriptCallUse>,
    /// Places a script is run that could not be linked to their script.
    pub unlinked_calls: Vec<calls::UnlinkedCall>,
    /// Fields read from a whole hash after HGETALL.
    pub field_reads: Vec<FieldReadUse>,
    /// Records as the code uses them (hash commands grouped by key).
    pub records: Vec<records::RecordUse>,
    /// Syntax errors per file.
    pub parse_errors: Vec<(FileId, Vec<Span>)>,
    /// Regions of test code inside source files.
    pub test_regions: Vec<Span>,
    /// Regions of files that a parser gave up on (outside scripts, whose
    /// own are in their facts).
    pub unchecked: Vec<Span>,
    /// Comments, host and embedded Lua, where suppressions may sit.
    pub comments: Vec<Span>,
    /// Things worth saying that are not findings (unresolved script files).
    pub notes: Vec<(FileId, String)>,
    /// Command-shaped lists that never reach Redis (compared, asserted,
    /// handed to code not proven to send them): counted, not checked.
    pub unsent_commands: usize,
}

impl Model {
    pub fn speaker_name(&self, id: SpeakerId) -> &str {
        &self.speakers[id].name
    }

    /// The keys put on the wire that read as keys (a literal namespace and a
    /// `:`): what `extract`, the matrix and `diff` show of a speaker's keys.
    pub fn wire_keys(&self) -> impl Iterator<Item = &KeyUse> {
        self.keys
            .iter()
            .filter(|k| k.sent && is_key_like(&k.template))
    }
}

/// `ENQUEUE_SCRIPT`, `:move_to_active`, `moveToActive` → `enqueue`,
/// `movetoactive`: lower case, letters and digits only, without a trailing
/// `script`/`lua`/`sha` word.
pub fn normalize_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect();
    loop {
        let before = s.len();
        for suffix in ["script", "lua", "sha", "source", "body"] {
            if s.len() > suffix.len() && s.ends_with(suffix) {
                s.truncate(s.len() - suffix.len());
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// Names too generic to say which script they hold: two `@script`
/// attributes in two modules are two scripts.
const GENERIC_NAMES: &[&str] = &[
    "script", "lua", "sha", "source", "body", "src", "code", "cmd", "command", "text", "content",
    "s", "eval", "hash", "redis", "program", "query",
];

/// Whether a name the code gives a script identifies it beyond its own
/// file: not a local variable's, and specific (`ENQUEUE_SCRIPT`, `@enqueue`,
/// `enqueue.lua`), not generic (`script`).
pub fn shares_identity(norm: &str, local: bool) -> bool {
    !local && !norm.is_empty() && !GENERIC_NAMES.contains(&norm)
}

/// Input to linking: each file's facts, with its speaker already assigned.
pub struct LinkInput<'a> {
    pub sources: &'a SourceMap,
    pub facts: &'a [(FileId, std::sync::Arc<FileFacts>)],
    pub speakers: Vec<Speaker>,
    pub file_speaker: Vec<Option<SpeakerId>>,
    /// Absolute project directory of each speaker (for `File.read!` paths).
    pub speaker_dirs: Vec<Option<PathBuf>>,
    pub contract: Option<&'a Contract>,
    /// What the last link of a long-lived process kept ([`LinkMemo`]).
    pub memo: Option<&'a LinkMemo>,
    /// How many files define each name the selection searched for.
    pub definers: &'a Definers,
}

/// Links all facts into a [`Model`]: first the commands whose name a
/// definition gives are named (`named.rs`), then the facts are linked.
pub fn link(input: &LinkInput<'_>) -> Model {
    let named = named::settle(input);
    let named_input = named.as_deref().map(|facts| input.with_facts(facts));
    let input = named_input.as_ref().unwrap_or(input);
    let Some(facts) = built::commands(input) else {
        return link_named(input);
    };
    link_named(&input.with_facts(&facts))
}

impl<'a> LinkInput<'a> {
    /// The same input over other facts.
    fn with_facts<'b>(&self, facts: &'b [(FileId, std::sync::Arc<FileFacts>)]) -> LinkInput<'b>
    where
        'a: 'b,
    {
        LinkInput {
            sources: self.sources,
            facts,
            speakers: self.speakers.clone(),
            file_speaker: self.file_speaker.clone(),
            speaker_dirs: self.speaker_dirs.clone(),
            contract: self.contract,
            memo: self.memo,
            definers: self.definers,
        }
    }
}

/// [`link`], every command named.
fn link_named(input: &LinkInput<'_>) -> Model {
    let resolver = Resolver::new(input);
    let mut model = Model {
        speakers: input.speakers.clone(),
        file_speaker: input.file_speaker.clone(),
        ..Model::default()
    };
    // The module a fact sits in is not recorded on templates and commands;
    // resolution falls back to file, then unique definitions.
    let mut inventory = Inventory::default();
    let fns = calls::index_functions(input);
    let sent = sends::Sent::of(input, &fns);
    model.unsent_commands = sent.dropped();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        let cx = Ctx {
            speaker: sp,
            module: "",
            file: *file,
        };
        link_file(&resolver, &mut model, facts, &cx, &sent);
        for (si, s) in facts.scripts.iter().enumerate() {
            inventory.add(&resolver, input, &mut model, &cx, si, s);
        }
    }
    rows::link_param_reads(&resolver, input, &mut model, &fns);
    inventory.resolve_file_refs(&mut model, input.sources);
    inventory.resolve_includes(&mut model, input.sources);
    included::inline(&resolver, &mut model, &inventory.includes);
    assign_contract(&mut model, input.contract);
    (model.script_calls, model.unlinked_calls) =
        calls::link_calls(&resolver, input, &model, &inventory, &sent, &fns);
    script_keys::fill(&resolver, &mut model);
    push_call_keys(&mut model);
    model.records = records::infer(&model, input.contract);
    model
}

/// The model linked against one contract made the model of another: each
/// script's entry, and the records (a key of holes and separators alone
/// names a record only where the contract's keyspace has one at that
/// shape, `records::infer`). The rest of the link reads no contract.
pub fn reassign_contract(model: &mut Model, contract: Option<&Contract>) {
    assign_contract(model, contract);
    model.records = records::infer(model, contract);
}

/// Each script's entry in the contract, by name (none without one).
fn assign_contract(model: &mut Model, contract: Option<&Contract>) {
    for script in &mut model.scripts {
        script.contract = contract.and_then(|c| {
            c.scripts
                .iter()
                .position(|spec| script.norm_names.contains(&normalize_name(&spec.name)))
        });
    }
}

/// One file's facts outside its scripts: syntax errors, the key templates
/// it builds, the fields it reads after HGETALL, its commands.
fn link_file(
    resolver: &Resolver<'_>,
    model: &mut Model,
    facts: &FileFacts,
    cx: &Ctx,
    sent: &sends::Sent,
) {
    if !facts.errors.is_empty() {
        model.parse_errors.push((cx.file, facts.errors.clone()));
    }
    model
        .test_regions
        .extend(facts.test_regions.iter().copied());
    model.unchecked.extend(facts.unchecked);
    model.comments.extend(facts.comments.iter().copied());
    for s in &facts.scripts {
        if let crate::facts::ScriptSource::Inline(lua) = &s.source {
            model.comments.extend(lua.comments.iter().copied());
        }
    }
    for t in &facts.templates {
        for template in resolver.templates(&Value::Str(t.clone()), cx) {
            model.keys.push(KeyUse {
                template,
                speaker: cx.speaker,
                sent: false,
            });
        }
    }
    for r in facts.field_reads.iter().filter(|r| r.row.is_none()) {
        rows::push_read(resolver, model, r, (&r.key, r.command.as_ref()), cx, cx);
    }
    for (i, c) in facts.commands.iter().enumerate() {
        if sent.keeps(cx.file, i) {
            push_command(model, command_use(resolver, c, cx, None));
        }
    }
}

/// A command, and the keys it names.
fn push_command(model: &mut Model, cu: CommandUse) {
    push_command_keys(model, &cu);
    model.commands.push(cu);
}

/// The keys script calls pass become key uses.
fn push_call_keys(model: &mut Model) {
    let call_keys: Vec<KeyUse> = model
        .script_calls
        .iter()
        .flat_map(|u| {
            u.keys.iter().flat_map(move |k| {
                k.alts.iter().map(move |t| KeyUse {
                    template: t.clone(),
                    speaker: u.speaker,
                    sent: true,
                })
            })
        })
        .collect();
    model.keys.extend(call_keys);
}

fn command_use(
    resolver: &Resolver<'_>,
    c: &Command,
    cx: &Ctx,
    script: Option<ScriptId>,
) -> CommandUse {
    let mut args: Vec<Arg> = Vec::with_capacity(c.args.len());
    let flatten_maps = crate::redis::hash_access(&c.name).is_some();
    for a in &c.args {
        match a {
            // `%{"state" => s}` as HSET arguments: field/value pairs.
            Value::Map { pairs, .. } if flatten_maps => {
                for (k, v) in pairs {
                    args.push(Arg {
                        value: k.clone(),
                        alts: resolver.templates(k, cx).into(),
                    });
                    args.push(Arg {
                        value: v.clone(),
                        alts: Vec::new().into(),
                    });
                }
            }
            _ => args.push(Arg {
                value: a.clone(),
                alts: resolver.templates(a, cx).into(),
            }),
        }
    }
    CommandUse {
        name: c.name.clone(),
        name_span: c.name_span,
        args,
        open_tail: c.open_tail,
        span: c.span,
        speaker: cx.speaker,
        script,
    }
}

/// The keys a command names become key uses.
fn push_command_keys(model: &mut Model, cu: &CommandUse) {
    let positions = crate::redis::key_args(&cu.name, cu.args.len());
    for p in positions {
        if let Some(arg) = cu.args.get(p) {
            for t in arg.alts.iter() {
                model.keys.push(KeyUse {
                    template: t.clone(),
                    speaker: cu.speaker,
                    sent: true,
                });
            }
        }
    }
}

/// Lexical normalisation (no file-system access): removes `.` and folds
/// `..`.
pub fn normalize_path(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Assigns speakers: the contract's speakers by path first (longest path
/// wins), then each file's project directory, then shared scripts.
/// A project is named by its directory as reports show it: `prefix` (the
/// root as seen from where paths are reported; `.` for the root itself)
/// goes before its path; the project at the reported base is `(root)`.
pub fn assign_speakers(
    rels: &[(String, Option<PathBuf>)],
    root: &Path,
    specs: &[crate::contract::SpeakerSpec],
    prefix: &str,
) -> (Vec<Speaker>, Vec<Option<SpeakerId>>, Vec<Option<PathBuf>>) {
    let mut speakers: Vec<Speaker> = Vec::new();
    let mut dirs: Vec<Option<PathBuf>> = Vec::new();
    let mut by_key: BTreeMap<String, SpeakerId> = BTreeMap::new();
    let mut out = Vec::with_capacity(rels.len());
    for (rel, project) in rels {
        let spec = specs
            .iter()
            .filter(|s| rel == &s.path || rel.starts_with(&format!("{}/", s.path)) || s.path == ".")
            .max_by_key(|s| s.path.len());
        let (key, name, dir, canonical, abs) = match (spec, project) {
            (Some(s), _) => (
                format!("spec:{}", s.name),
                s.name.clone(),
                s.path.clone(),
                s.canonical,
                Some(root.join(&s.path)),
            ),
            (None, Some(p)) => {
                let d = crate::source::rel_path(root, p);
                // Named as seen from the working directory at or above the
                // root; from below it, as from the root (a speaker is not
                // `..` nor, for the folder the run starts in, `(root)`).
                // The reported base is itself a project.
                let shown = match prefix.starts_with(crate::source::BELOW) {
                    true => d.clone(),
                    false => crate::source::under(prefix, &d),
                };
                let name = match shown {
                    n if n == "." || n.is_empty() => "(root)".to_string(),
                    n => n,
                };
                (format!("dir:{d}"), name, d, false, Some(p.clone()))
            }
            (None, None) => (
                "shared".to_string(),
                crate::discover::SHARED_SCRIPTS.to_string(),
                String::new(),
                false,
                Some(root.to_path_buf()),
            ),
        };
        let id = *by_key.entry(key).or_insert_with(|| {
            speakers.push(Speaker {
                name,
                dir,
                canonical,
            });
            dirs.push(abs);
            speakers.len() - 1
        });
        out.push(Some(id));
    }
    (speakers, out, dirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalize_across_conventions() {
        assert_eq!(normalize_name("ENQUEUE_SCRIPT"), "enqueue");
        assert_eq!(normalize_name("move_to_active"), "movetoactive");
        assert_eq!(normalize_name("moveToActive"), "movetoactive");
        assert_eq!(normalize_name("@enqueue_lua"), "enqueue");
        assert_eq!(normalize_name("script"), "script");
    }

    #[test]
    fn paths_normalize_lexically() {
        assert_eq!(
            normalize_path(Path::new("/a/b/../c/./d.lua")),
            PathBuf::from("/a/c/d.lua")
        );
    }
}
