//! Helpers the extractors' unit tests share: one command listing, each
//! language's tests giving how a value is shown.

use crate::facts::{FileFacts, ScriptSource, Seg, Template, Value};

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

/// The commands one file of `lang` sends, as [`commands`] lists them with
/// [`shown`].
pub(crate) fn sent(lang: crate::facts::Lang, src: &str) -> Vec<String> {
    let mut p = crate::parse::Parsers::new().expect("the grammars load");
    let f = crate::extract::extract_file(&mut p, lang, 0, src.as_bytes(), "m");
    commands(&f, shown)
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

/// A template as text: its literal pieces as written, a value in it as
/// `{..}` of what `show` writes, a hole as `hole` writes its label.
pub(crate) fn template_text(
    t: &Template,
    show: impl Fn(&Value) -> String,
    hole: impl Fn(&str) -> String,
) -> String {
    t.segs
        .iter()
        .map(|s| match s {
            Seg::Lit { text, .. } => text.clone(),
            Seg::Value(v) => format!("{{{}}}", show(v)),
            Seg::Hole { label, .. } => hole(label),
        })
        .collect()
}

/// The first argument of each call of `use_key` (or `useKey`), as
/// [`shown`].
pub(crate) fn use_key_args(f: &FileFacts) -> Vec<String> {
    f.calls
        .iter()
        .filter(|c| c.path == ["use_key"] || c.path == ["useKey"])
        .map(|c| shown(&c.args[0]))
        .collect()
}

/// Asserts that the call of `decode` passes on, first, the reply of an
/// `HGETALL` of its caller's second parameter, and that the fields read
/// of each parameter are `reads`.
pub(crate) fn assert_reply_passed_on(f: &FileFacts, reads: &[(&str, Option<usize>)]) {
    let call = f.calls.iter().find(|c| c.path == ["decode"]).unwrap();
    let (command, key) = crate::facts::hash_reply_parts(&call.args[0]).unwrap();
    assert_eq!(command.as_str().as_deref(), Some("HGETALL"));
    assert!(matches!(key, Value::Param { index: 1, .. }));
    let got = crate::extract::reads_by_param(f);
    let got: Vec<(&str, Option<usize>)> = got.iter().map(|(s, i)| (s.as_str(), *i)).collect();
    assert_eq!(got, reads);
}
