//! The observed contract: what each speaker actually puts on the wire (key
//! templates, records with the fields written and read, scripts with their
//! declared KEYS and SHA1, script call sites), and a contract inferred from
//! it that a team can review and adopt (`wirelint extract --as-contract`).
//!
//! Computes only; `report::extract` renders.

use std::collections::{BTreeMap, BTreeSet};

use super::callers::{callers_argv, callers_count, passed_type};
use crate::contract::Contract;
use crate::extract::script_name_from_stem;
use crate::facts::Span;
use crate::link::calls::NumKeys;
use crate::link::records::key_shape;
use crate::link::roles::{key_type_word, role_alternatives, same_type, KeyTypes, SlotRole};
use crate::link::{normalize_name, Model, ScriptId, SpeakerId};
use crate::pipeline::Analysis;

#[derive(Debug, Clone)]
pub struct ObservedKey {
    pub shape: String,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ObservedRecord {
    pub key: String,
    pub writes: Vec<String>,
    pub reads: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct ObservedScript {
    pub name: String,
    pub names: Vec<String>,
    pub sha1: Option<String>,
    pub declared: Option<(u32, &'static str)>,
    /// Slot roles, 1-based order.
    pub roles: Vec<Option<String>>,
    pub argv: ObservedArgv,
    pub span: Span,
}

/// What a script does with its ARGV.
#[derive(Debug, Clone)]
pub struct ObservedArgv {
    /// The highest index read on the script's normal path.
    pub required: u32,
    /// The most it may read; `None` when variadic or unknown.
    pub upper: Option<u32>,
    /// ARGV roles, 1-based order, up to the highest index read or named.
    pub roles: Vec<Option<String>>,
    /// Slots read with `tonumber`.
    pub numeric: Vec<u32>,
    /// Flag slots and the literals they are told apart by.
    pub flags: Vec<(u32, Vec<String>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObservedCall {
    pub script: String,
    pub numkeys: Option<u32>,
    /// The key shapes passed; `None` where a key is not visible.
    pub keys: Vec<Option<String>>,
    pub keys_complete: bool,
    /// The ARGV passed: the literal of each slot, `None` where a value is not
    /// one literal.
    pub argv: Vec<Option<String>>,
    pub argv_complete: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ObservedSpeaker {
    pub name: String,
    pub dir: String,
    pub keys: Vec<ObservedKey>,
    pub records: Vec<ObservedRecord>,
    pub scripts: Vec<ObservedScript>,
    pub calls: Vec<ObservedCall>,
}

/// Keeps what lies in the paths a run was given (`holds`, on paths
/// relative to its root): each speaker's keys, scripts and calls there,
/// and the speakers that keep any or whose folder lies there (with their
/// records, which belong to no one file).
pub fn retain_under(
    speakers: &mut Vec<ObservedSpeaker>,
    a: &Analysis,
    holds: impl Fn(&str) -> bool,
) {
    let at = |s: &Span| holds(&a.sources.get(s.file).rel);
    for sp in speakers.iter_mut() {
        sp.keys.retain(|k| at(&k.span));
        sp.scripts.retain(|s| at(&s.span));
        sp.calls.retain(|c| at(&c.span));
    }
    speakers.retain(|sp| {
        holds(&sp.dir) || !sp.keys.is_empty() || !sp.scripts.is_empty() || !sp.calls.is_empty()
    });
}

pub fn observe(a: &Analysis) -> Vec<ObservedSpeaker> {
    let mut out: Vec<ObservedSpeaker> = a
        .model
        .speakers
        .iter()
        .map(|s| ObservedSpeaker {
            name: s.name.clone(),
            dir: s.dir.clone(),
            keys: Vec::new(),
            records: Vec::new(),
            scripts: Vec::new(),
            calls: Vec::new(),
        })
        .collect();
    // Test code is no speaker's use, as the matrix and coverage tell it.
    let test = crate::views::coverage::TestCode::of(a);
    let test = |span: Span| test.holds(span);
    observe_keys(a, &test, &mut out);
    observe_records(a, &test, &mut out);
    observe_scripts(a, &test, &mut out);
    observe_calls(a, &test, &mut out);
    out.retain(|s| {
        !(s.keys.is_empty() && s.records.is_empty() && s.scripts.is_empty() && s.calls.is_empty())
    });
    out
}

/// Each speaker's key shapes, each at its first place.
fn observe_keys(a: &Analysis, test: &impl Fn(Span) -> bool, out: &mut [ObservedSpeaker]) {
    let mut seen: BTreeSet<(SpeakerId, String)> = BTreeSet::new();
    let mut keys: Vec<(SpeakerId, ObservedKey)> = a
        .model
        .wire_keys()
        .filter(|k| !test(k.template.span))
        .map(|k| {
            (
                k.speaker,
                ObservedKey {
                    shape: key_shape(&k.template),
                    span: k.template.span,
                },
            )
        })
        .collect();
    keys.sort_by(|a, b| (a.0, &a.1.shape, a.1.span).cmp(&(b.0, &b.1.shape, b.1.span)));
    for (sp, k) in keys {
        if seen.insert((sp, k.shape.clone())) {
            out[sp].keys.push(k);
        }
    }
}

/// Each speaker's records, with the fields it writes and reads.
fn observe_records(a: &Analysis, test: &impl Fn(Span) -> bool, out: &mut [ObservedSpeaker]) {
    for r in &a.model.records {
        let mut per: BTreeMap<SpeakerId, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
        for (field, uses) in &r.fields {
            for u in uses.iter().filter(|u| !test(u.span)) {
                let e = per.entry(u.speaker).or_default();
                if u.write {
                    e.0.insert(field.clone());
                } else {
                    e.1.insert(field.clone());
                }
            }
        }
        for (sp, (w, rd)) in per {
            out[sp].records.push(ObservedRecord {
                key: r.key.clone(),
                writes: w.into_iter().collect(),
                reads: rd.into_iter().collect(),
            });
        }
    }
}

/// Each speaker's Redis scripts: names, SHA1, declared KEYS and roles.
fn observe_scripts(a: &Analysis, test: &impl Fn(Span) -> bool, out: &mut [ObservedSpeaker]) {
    let contract = a.contract.as_ref();
    for s in a
        .model
        .scripts
        .iter()
        .filter(|s| s.is_redis() && !test(s.def_span))
    {
        let declared = s.declared_count(contract);
        let count = declared
            .map(|d| d.count)
            .or_else(|| s.body_max())
            .unwrap_or(0);
        let roles = (1..=count)
            .map(|n| s.slot_role(n, contract).map(|r| r.text))
            .collect();
        let argv = &s.lua.argv;
        let upper = s.argv_upper(contract);
        let last = upper.unwrap_or_else(|| argv.max_read());
        out[s.speaker].scripts.push(ObservedScript {
            name: s.display_name(contract),
            names: s.names.clone(),
            sha1: s.sha1.clone(),
            declared: declared.map(|d| (d.count, d.source.describe())),
            roles,
            argv: ObservedArgv {
                required: argv.required_count(),
                upper,
                roles: (1..=last)
                    .map(|n| s.argv_role(n, contract).map(|r| r.text))
                    .collect(),
                numeric: argv
                    .numeric
                    .iter()
                    .map(|r| r.0)
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                flags: (1..=argv.max_read())
                    .filter_map(|n| {
                        let v = argv.flag_values(n)?;
                        Some((n, v.into_iter().map(str::to_string).collect()))
                    })
                    .collect(),
            },
            span: s.def_span,
        });
    }
}

/// Each speaker's script call sites, with the key shapes they pass: a
/// call site once per script and what it is seen to pass (a wrapper that
/// runs its script by EVALSHA, then EVAL when the server lacks it, is one
/// call of each of its callers).
fn observe_calls(a: &Analysis, test: &impl Fn(Span) -> bool, out: &mut [ObservedSpeaker]) {
    let contract = a.contract.as_ref();
    for u in a.model.script_calls.iter().filter(|u| !test(u.span)) {
        let calls = &mut out[u.speaker].calls;
        let call = ObservedCall {
            script: a.model.scripts[u.script].display_name(contract),
            numkeys: match u.numkeys {
                NumKeys::Literal(n, _) | NumKeys::Counted(n, _) => Some(n),
                _ if u.keys_complete => Some(u.keys.len() as u32),
                _ => None,
            },
            keys: u
                .keys
                .iter()
                .map(|k| match &*k.alts {
                    [t] => Some(key_shape(t)),
                    _ => None,
                })
                .collect(),
            keys_complete: u.keys_complete,
            argv: u.argv.iter().map(|a| a.literal().map(|l| l.0)).collect(),
            argv_complete: u.args_complete,
            span: u.span,
        };
        // Uses come in span order, each span's in script order.
        let seen = calls
            .iter()
            .rev()
            .take_while(|c| c.span == u.span)
            .any(|c| *c == call);
        if !seen {
            calls.push(call);
        }
    }
}

/// A TOML basic string of `s`.
pub(super) fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// An identifier for a contract table: letters, digits, `_`.
fn ident(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let out = out.trim_matches('_').to_string();
    if out.is_empty() {
        "key".into()
    } else {
        out
    }
}

/// A contract in the `rules/` format describing what the code does.
pub fn as_contract(a: &Analysis, name: &str) -> String {
    let mut text = String::new();
    text.push_str(
        "# Extracted by `wirelint extract --as-contract`: what the code puts on the wire.\n",
    );
    text.push_str("# Review it before adopting it as the canonical contract.\n\n");
    text.push_str(&format!("name = {}\n", quote(name)));
    if scripts_build_keys(&a.model) {
        text.push_str(
            "# Its scripts build keys in Lua (from a prefix they are passed), not only from KEYS.\nscripts_build_keys = true\n",
        );
    }
    // Keys and fields only test code uses are the tests' own, not the
    // wire's.
    let test_code = super::coverage::TestCode::of(a);
    let kept = |span: Span| !test_code.holds(span);
    let mut type_of_shape: BTreeMap<String, String> = BTreeMap::new();
    if let Some(mut ks) = inferred_keyspace(&a.model, &kept) {
        let kinds = super::data_types::used_as(&a.model, &shape_types(&ks), &kept);
        prune_instances(&mut ks, &kinds);
        type_of_shape = shape_types(&ks);
        write_keyspace(&mut text, &a.model, &ks, &type_of_shape, &kept);
        super::data_types::write(&mut text, &a.model, &type_of_shape, &kept);
    } else {
        super::data_types::write_given(&mut text, a, &kept);
    }
    write_scripts(&mut text, a, &type_of_shape, &kept);
    text
}

/// Whether a script sends a key it builds in Lua, not one derived from
/// `KEYS[n]` (what WL301 reads): the draft then states it as the code's
/// design.
fn scripts_build_keys(m: &Model) -> bool {
    use crate::facts::{Seg, Value};
    m.commands.iter().filter(|c| c.script.is_some()).any(|cmd| {
        let built = |p: usize| match cmd.args.get(p).map(|a| &a.value) {
            Some(Value::Str(t)) => !matches!(
                t.segs.first(),
                Some(Seg::Value(v)) if matches!(**v, Value::Keys { .. })
            ),
            _ => false,
        };
        match crate::redis::key_positions(&cmd.name) {
            Some(ps) => ps.iter().any(|&p| built(p)),
            None => (0..cmd.args.len()).any(built),
        }
    })
}

/// A keyspace inferred from the keys the code builds.
struct Inferred {
    /// The literal before the queue (`emq:`).
    prefix: String,
    /// Whether the queue sits in a hash tag.
    tagged: bool,
    /// The types after the queue, by name (`job` → `job:<id>`).
    types: BTreeMap<String, String>,
    /// Whole keys under the prefix that follow no queue (`rsmq:QUEUES`),
    /// and the bare queue key (`rsmq:<queue>`), by name.
    whole: BTreeMap<String, String>,
}

/// Each type's key shape (`emq:{<*>}:job:<*>`) → the type's name.
fn shape_types(ks: &Inferred) -> BTreeMap<String, String> {
    let queue = if ks.tagged { "{<*>}:" } else { "<*>:" };
    let typed = ks.types.iter().map(|(t, p)| {
        (
            format!("{}{queue}{}", ks.prefix, p.replace("<id>", "<*>")),
            t.clone(),
        )
    });
    let whole = ks.whole.iter().map(|(t, p)| {
        (
            p.replace("<queue>", "<*>").replace("<id>", "<*>"),
            t.clone(),
        )
    });
    typed.chain(whole).collect()
}

/// The keyspace, when the key shapes have one prefix P: with a hash tag
/// when every tagged shape `P{<*>}:T` has it (EchoMQ's, asynq's), else
/// when every shape `P<*>:T` does (BullMQ's, RSMQ's), with P's other keys
/// as whole keys.
fn inferred_keyspace(m: &Model, kept: &dyn Fn(Span) -> bool) -> Option<Inferred> {
    let mut shapes: Vec<String> = m
        .wire_keys()
        .filter(|k| kept(k.template.span))
        .map(|k| key_shape(&k.template))
        .collect();
    shapes.sort();
    shapes.dedup();
    let typed = typed_shapes(&shapes, "{<*>}:")
        .map(|(p, t)| (p, t, true))
        .or_else(|| typed_shapes(&shapes, "<*>:").map(|(p, t)| (p, t, false)))
        .map(|(p, t, tagged)| ((p, tagged), t));
    let Some((prefix, types)) = typed else {
        // No queue key: a keyspace of whole keys (Sidekiq's `queue:<id>`,
        // `stat:processed`), each a template of its own.
        let whole = whole_keys(&shapes, "", &BTreeMap::new());
        return (!whole.is_empty()).then(|| Inferred {
            prefix: String::new(),
            tagged: false,
            types: BTreeMap::new(),
            whole,
        });
    };
    let whole = whole_keys(&shapes, &prefix.0, &types);
    Some(Inferred {
        prefix: prefix.0,
        tagged: prefix.1,
        types,
        whole,
    })
}

/// The prefix P and the types T of the shapes `P<queue>T`, when there is
/// one P: `queue` is `{<*>}:` (a hash tag) or `<*>:`, P a namespace and
/// its separator (`bull:`), T no placeholder first.
fn typed_shapes(shapes: &[String], queue: &str) -> Option<(String, BTreeMap<String, String>)> {
    let mut prefixes: BTreeSet<String> = BTreeSet::new();
    let mut types: BTreeMap<String, String> = BTreeMap::new();
    for shape in shapes {
        let Some((prefix, rest)) = shape.split_once(queue) else {
            continue;
        };
        // A contract's key holds no white space or control character (it
        // could match no key wirelint reads, and the contract is refused).
        let unmatchable = shape.chars().any(|c| c.is_whitespace() || c.is_control());
        // Without a hash tag, the prefix is a namespace and its `:`.
        let untagged_bad = !queue.starts_with('{') && (prefix.len() < 2 || !prefix.ends_with(':'));
        if prefix.contains(['{', '}', '<'])
            || untagged_bad
            || rest.is_empty()
            || rest.starts_with("<*>")
            || unmatchable
        {
            continue;
        }
        let pattern = rest.replace("<*>", "<id>");
        // Nor one the contract cannot read (`job><id>`: a `>` with no `<`).
        if crate::contract::parse_pattern(&pattern).is_err() {
            continue;
        }
        prefixes.insert(prefix.to_string());
        let lead = rest.split([':', '<']).next().unwrap_or(rest);
        let mut tname = ident(lead);
        while types.get(&tname).is_some_and(|p| *p != pattern) {
            tname.push('_');
        }
        types.insert(tname, pattern);
    }
    let prefix = (prefixes.len() == 1 && !types.is_empty())
        .then(|| prefixes.iter().next().cloned())
        .flatten()?;
    Some((prefix, types))
}

/// The keys under `prefix` that follow no queue: all literal
/// (`rsmq:QUEUES`), or the bare queue key (`rsmq:<*>`).
fn whole_keys(
    shapes: &[String],
    prefix: &str,
    types: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for shape in shapes {
        let Some(rest) = shape.strip_prefix(prefix) else {
            continue;
        };
        if rest.is_empty() || rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
            continue;
        }
        let (template, mut name) = if rest == "<*>" {
            if prefix.is_empty() {
                // A key that is all hole says nothing of the keyspace.
                continue;
            }
            (format!("{prefix}<queue>"), "queue".to_string())
        } else if !rest.contains(['<', '>', '{', '}']) {
            (shape.clone(), ident(rest).to_ascii_lowercase())
        } else if let Some(t) = id_template(rest) {
            let lead = rest.split([':', '<', '{']).next().unwrap_or(rest);
            (format!("{prefix}{t}"), ident(lead).to_ascii_lowercase())
        } else {
            continue;
        };
        if out.values().any(|t| *t == template) {
            continue;
        }
        while types.contains_key(&name) || out.contains_key(&name) {
            name.push('_');
        }
        out.insert(name, template);
    }
    out
}

/// Leaves out a concrete key beside a template it is one of, used as the
/// same data types (`queue:default` beside `queue:<id>`, both lists): an
/// instance, not a key of its own. `rsmq:QUEUES`, a set beside the sorted
/// sets at `rsmq:<queue>`, stays.
fn prune_instances(ks: &mut Inferred, kinds: &BTreeMap<String, BTreeSet<&'static str>>) {
    let none = BTreeSet::new();
    let kinds_of = |name: &str| kinds.get(name).unwrap_or(&none);
    let templates: Vec<(Vec<crate::contract::PatTok>, &BTreeSet<&str>)> = ks
        .whole
        .iter()
        .filter(|(_, t)| t.contains('<'))
        .filter_map(|(n, t)| Some((crate::contract::parse_pattern(t).ok()?, kinds_of(n))))
        .collect();
    let instances: Vec<String> = ks
        .whole
        .iter()
        .filter(|(n, t)| {
            let used = kinds_of(n);
            !t.contains('<')
                && !used.is_empty()
                && templates
                    .iter()
                    .any(|(p, k)| *k == used && crate::contract::literal_matches(p, t))
        })
        .map(|(n, _)| n.clone())
        .collect();
    for n in instances {
        ks.whole.remove(&n);
    }
}

/// A key of no queue that holds ids, as a whole template: each hole an
/// `<id>`, a hash tag's whole content one `<id>` (a tag holds an id with
/// its `:`s, `asynq:servers:{<host>:<pid>:<id>}`, and its literal test
/// ids too). It opens with a word (else it is a queue's key), and is a
/// pattern the contract reads.
fn id_template(rest: &str) -> Option<String> {
    if !rest.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return None;
    }
    let mut out = String::new();
    let mut tail = rest;
    while let Some(open) = tail.find('{') {
        let close = open + tail[open..].find('}')?;
        if tail[open + 1..close].is_empty() || tail[open + 1..close].contains('{') {
            return None;
        }
        out.push_str(&tail[..open]);
        out.push_str("{<*>}");
        tail = &tail[close + 1..];
    }
    if tail.contains('}') {
        return None;
    }
    out.push_str(tail);
    let t = out.replace("<*>", "<id>");
    crate::contract::parse_pattern(&t).ok()?;
    Some(t)
}

/// `[keyspace]`, its types, and the records at those types.
fn write_keyspace(
    text: &mut String,
    m: &Model,
    ks: &Inferred,
    type_of_shape: &BTreeMap<String, String>,
    kept: &dyn Fn(Span) -> bool,
) {
    text.push_str("\n[keyspace]\n");
    if !ks.types.is_empty() {
        let queue = if ks.tagged { "{<queue>}" } else { "<queue>" };
        text.push_str(&format!(
            "key = {}\n",
            quote(&format!("{}{queue}:<type>", ks.prefix))
        ));
        text.push_str("\n[keyspace.types]\n");
        for (t, p) in &ks.types {
            text.push_str(&format!("{t} = {}\n", quote(p)));
        }
    }
    if !ks.whole.is_empty() {
        text.push_str("\n[keyspace.keys]\n");
        for (t, p) in &ks.whole {
            text.push_str(&format!("{t} = {}\n", quote(p)));
        }
    }
    let mut records: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &m.records {
        if let Some(t) = type_of_shape.get(&r.key) {
            // A field name the contract cannot hold (empty) is left out,
            // so that the contract is one wirelint accepts.
            records.entry(t.clone()).or_default().extend(
                r.fields
                    .iter()
                    .filter(|(f, uses)| !f.is_empty() && uses.iter().any(|u| kept(u.span)))
                    .map(|(f, _)| f.clone()),
            );
        }
    }
    for (t, fields) in records.into_iter().filter(|(_, f)| !f.is_empty()) {
        text.push_str(&format!("\n[records.{t}]\ntype = {}\n", quote(&t)));
        let list: Vec<String> = fields.iter().map(|f| quote(f)).collect();
        text.push_str(&format!("fields = [{}]\n", list.join(", ")));
    }
}

/// `[scripts.NAME]` for the scripts whose KEYS are declared (a header, a
/// file name, a registration) or counted alike by every caller; the
/// slots a declared script never touches are its `unused`.
fn write_scripts(
    text: &mut String,
    a: &Analysis,
    type_of_shape: &BTreeMap<String, String>,
    kept: &dyn Fn(Span) -> bool,
) {
    let contract = a.contract.as_ref();
    let names = TypeNames::of(a, type_of_shape);
    let mut done: BTreeSet<String> = BTreeSet::new();
    for s in &a.model.scripts {
        let Some(first) = s.names.first().filter(|_| kept(s.def_span)) else {
            continue;
        };
        let sname = ident(&script_name_from_stem(first.trim_start_matches('@')));
        if !done.insert(normalize_name(&sname)) {
            continue;
        }
        let copies: Vec<ScriptId> = (0..a.model.scripts.len())
            .filter(|&i| {
                a.model.scripts[i].names.first().is_some_and(|f| {
                    normalize_name(&ident(&script_name_from_stem(f.trim_start_matches('@'))))
                        == normalize_name(&sname)
                })
            })
            .collect();
        // Its declared count, else the one count all its calls pass
        // (RSMQ's scripts sit in strings with no header: `evalsha(sha, 3,
        // ..)`).
        let declared = |i: ScriptId| a.model.scripts[i].declared_count(contract).map(|d| d.count);
        let own = s.declared_count(contract).map(|d| d.count);
        let Some(count) = own.or_else(|| callers_count(&a.model, &copies)) else {
            continue;
        };
        let used: BTreeSet<u32> = s.lua.key_uses.iter().map(|k| k.0).collect();
        // A slot its own declaration counts and its body never touches is
        // the upstream's to keep (`unused`); counted only from callers, the
        // count is a guess and the script stays out.
        let unused: Vec<u32> = match s.lua.dynamic_keys {
            true => Vec::new(),
            false => (1..=count).filter(|n| !used.contains(n)).collect(),
        };
        if !unused.is_empty() && own.is_none() {
            continue;
        }
        // A name two scripts of different KEYS share (BullMQ's
        // `includes/addDelayedJob.lua`, a function library, beside
        // `addDelayedJob-6.lua`) would give both one declaration.
        if copies.iter().any(|&i| match declared(i) {
            Some(c) => c != count,
            None => own.is_some(),
        }) {
            continue;
        }
        let roles: Vec<String> = (1..=count)
            .map(|n| {
                passed_type(&a.model, &copies, n, type_of_shape)
                    .or_else(|| {
                        let role = s.slot_role(n, contract)?;
                        if let Some(t) = names.named(&role, contract) {
                            return Some(t);
                        }
                        let words = role_alternatives(&role.text).into_iter().next()?;
                        let named = words
                            .iter()
                            .find(|w| type_of_shape.values().any(|t| t == *w));
                        Some(named.cloned().unwrap_or_else(|| ident(&words.join("_"))))
                    })
                    .unwrap_or_else(|| format!("key{n}"))
            })
            .collect();
        text.push_str(&format!("\n[scripts.{sname}]\n"));
        let list: Vec<String> = roles.iter().map(|r| quote(r)).collect();
        text.push_str(&format!("keys = [{}]\n", list.join(", ")));
        if !unused.is_empty() {
            let slots: Vec<String> = unused.iter().map(u32::to_string).collect();
            text.push_str(&format!("unused = [{}]\n", slots.join(", ")));
        }
        // ARGV roles, when the script names every slot it reads; slots
        // every caller passes past what it reads (asynq's queue name, never
        // read), with each read slot named or not, are the wire's too.
        let reads = s.lua.argv.max_read();
        let argv: Option<Vec<String>> = match callers_argv(&a.model, &copies) {
            Some(passed) if passed > reads => Some(
                (1..=passed)
                    .map(|n| match s.argv_role(n, contract) {
                        Some(r) => quote(&r.text),
                        None => quote(&format!("arg{n}")),
                    })
                    .collect(),
            ),
            _ => (1..=reads)
                .map(|n| s.argv_role(n, contract).map(|r| quote(&r.text)))
                .collect(),
        };
        if let Some(argv) = argv.filter(|a| !a.is_empty()) {
            text.push_str(&format!("argv = [{}]\n", argv.join(", ")));
        }
    }
}

/// The key types a draft can name a slot by: the keyspace it infers and
/// the contract's (`extract --as-contract --contract bullmq`), each by its
/// normalized word (`waiting-children` is `waitingchildren`).
struct TypeNames {
    types: KeyTypes,
    by_word: BTreeMap<String, BTreeSet<String>>,
}

impl TypeNames {
    fn of(a: &Analysis, type_of_shape: &BTreeMap<String, String>) -> TypeNames {
        let contract = a.contract.as_ref();
        let mut by_word: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let contract_types = contract
            .and_then(|c| c.keyspace.as_ref())
            .into_iter()
            .flat_map(|ks| ks.types.iter().map(|t| &t.name));
        for name in type_of_shape.values().chain(contract_types) {
            if let Some(w) = key_type_word(name) {
                by_word.entry(w).or_default().insert(name.clone());
            }
        }
        TypeNames {
            types: KeyTypes::of(&a.model, contract),
            by_word,
        }
    }

    /// The one type a slot's declared role names (`'events' key` gives
    /// `events`), when exactly one does.
    /// A draft is for review, so a description names a type too when all
    /// its words run together do (`job dependencies key` gives
    /// `job-dependencies`), or when its last words do and its first word
    /// names no other type (`rate limiter key` gives `limiter`, `pc
    /// priority counter` gives `pc`); `job id key` and `wait-children
    /// key`, whose first word is another type, name none.
    fn named(&self, role: &SlotRole, contract: Option<&Contract>) -> Option<String> {
        let declared = self.types.declared(role, contract);
        if let Some(t) = self.one_of(&declared) {
            return Some(t);
        }
        role_alternatives(&role.text).iter().find_map(|words| {
            self.one_of(&[words.concat()]).or_else(|| {
                let tails: Vec<String> = (1..words.len()).map(|k| words[k..].concat()).collect();
                let named = self.one_of(&tails)?;
                match self.one_of(&words[..1]) {
                    Some(first) if first != named => None,
                    _ => Some(named),
                }
            })
        })
    }

    /// The one type the words name, when they name exactly one.
    fn one_of(&self, words: &[String]) -> Option<String> {
        let mut found: BTreeSet<&String> = BTreeSet::new();
        for w in words {
            for (word, names) in &self.by_word {
                if same_type(word, w) {
                    found.extend(names);
                }
            }
        }
        let mut it = found.into_iter();
        match (it.next(), it.next()) {
            (Some(t), None) => Some(t.clone()),
            _ => None,
        }
    }
}
