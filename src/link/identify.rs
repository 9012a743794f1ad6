//! Which script a call site runs: an embedded body, a const or attribute
//! holding it (or its SHA), its name in any case convention, or its SHA1;
//! and, when none fits, why, in words.

use std::collections::HashMap;

use super::{Model, ScriptId, SpeakerId};
use crate::facts::{FileId, Value};

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
        Value::Const { path, .. } => format!(
            "`{}` holds no script wirelint can see",
            path.last().map(String::as_str).unwrap_or("?")
        ),
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

/// Which script a value names: an embedded body, a const or attribute
/// holding it (or its SHA), its name in any case convention, or its SHA1.
pub(super) fn identify(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    model: &Model,
    script_at: &HashMap<(FileId, usize), ScriptId>,
    depth: usize,
) -> Option<ScriptId> {
    if depth > 4 {
        return None;
    }
    let by_name = |name: &str| -> Option<ScriptId> {
        let norm = super::normalize_name(name);
        // A name that holds a script only in this file (a local, a generic
        // `@script`) names that definition here, and nothing elsewhere.
        let here = model
            .scripts
            .iter()
            .position(|s| s.local_names.contains(&(file, norm.clone())));
        if here.is_some() || !super::shares_identity(&norm, false) {
            return here;
        }
        let exact = model.scripts.iter().position(|s| {
            s.speaker == speaker
                && s.norm_names.contains(&norm)
                && s.names.iter().any(|n| n == name)
        });
        exact
            .or_else(|| {
                model
                    .scripts
                    .iter()
                    .position(|s| s.speaker == speaker && s.norm_names.contains(&norm))
            })
            // Then a shared `.lua` file, then any copy.
            .or_else(|| {
                model
                    .scripts
                    .iter()
                    .position(|s| s.is_file && s.norm_names.contains(&norm))
            })
            .or_else(|| {
                model
                    .scripts
                    .iter()
                    .position(|s| s.norm_names.contains(&norm))
            })
    };
    match v {
        Value::ScriptRef { index, .. } => script_at.get(&(file, *index)).copied(),
        Value::Const { path, .. } => by_name(path.last()?),
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
        Value::Call { args, .. } => args
            .iter()
            .find_map(|a| identify(a, speaker, file, model, script_at, depth + 1)),
        _ => None,
    }
}
