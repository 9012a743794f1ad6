//! Helpers the extractors' unit tests share: one command listing, each
//! language's tests giving how a value is shown.

use crate::facts::{FileFacts, ScriptSource, Value};

/// `NAME args..` of each command, each argument as `show` writes it, an
/// open tail as ` ..`.
pub(crate) fn commands(f: &FileFacts, show: impl Fn(&Value) -> String) -> Vec<String> {
    f.commands
        .iter()
        .map(|c| {
            let mut s = c.name.clone();
            for a in &c.args {
                s.push(' ');
                s.push_str(&show(a));
            }
            if c.open_tail {
                s.push_str(" ..");
            }
            s
        })
        .collect()
}

/// A value as a short text: a literal as written, a parameter by name.
pub(crate) fn shown(v: &Value) -> String {
    match v {
        Value::Str(t) => t.to_string(),
        Value::Int { value, .. } => value.to_string(),
        Value::Param { name, .. } => format!("${name}"),
        Value::Unknown { label, .. } => format!("?{label}"),
        other => format!("?{}", other.describe()),
    }
}

/// Each script's name, path and whether that is relative to the file;
/// every script must be a `.lua` file the code reads.
pub(crate) fn file_scripts(f: &FileFacts) -> Vec<(String, String, bool)> {
    f.scripts
        .iter()
        .map(|s| match &s.source {
            ScriptSource::File {
                path,
                relative_to_file,
                ..
            } => (s.name.clone().unwrap(), path.clone(), *relative_to_file),
            _ => panic!("file expected"),
        })
        .collect()
}
