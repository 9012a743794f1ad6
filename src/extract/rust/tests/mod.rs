//! Unit tests of the Rust extractor, by concern. `facts` runs the extractor
//! over a source text; the other helpers read its facts.

mod blocks;
mod commands;
mod invocations;
mod registry;
mod scripts;
mod templates;

use super::extract;
use crate::facts::{CallFact, Command, FileFacts, Lang, ScriptDef, ScriptSource, Span};
use crate::parse::Parsers;

/// The facts of `src`. The whole text is parsed with no CPU budget (the
/// pipeline's budget has its own tests, and a loaded machine must not
/// make a unit test of the extractor fail); the extractor's own reparses
/// go through `Parsers` as in a run.
fn facts(src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    let mut whole = tree_sitter::Parser::new();
    whole
        .set_language(&crate::parse::language(Lang::Rust))
        .unwrap();
    let tree = whole.parse(src.as_bytes(), None).unwrap();
    extract(tree.root_node(), src.as_bytes(), 0, &mut p)
}

fn at(src: &str, needle: &str) -> u32 {
    src.find(needle).expect("needle") as u32
}

fn tpls(f: &FileFacts) -> Vec<String> {
    f.templates.iter().map(|t| t.to_string()).collect()
}

fn lit_args(c: &Command) -> Vec<String> {
    c.args
        .iter()
        .map(|a| a.as_str().unwrap_or_else(|| format!("<{}>", a.describe())))
        .collect()
}

/// Each command as `NAME [literal args]`, in order.
fn command_lines(f: &FileFacts) -> Vec<String> {
    f.commands
        .iter()
        .map(|c| format!("{} {:?}", c.name, lit_args(c)))
        .collect()
}

fn inline(d: &ScriptDef) -> &crate::facts::LuaFacts {
    match &d.source {
        ScriptSource::Inline(l) => l,
        other => panic!("inline script expected: {other:?}"),
    }
}

fn path_of(c: &CallFact) -> String {
    c.path.join("::")
}

fn file_path(d: &ScriptDef) -> (&str, Span) {
    match &d.source {
        ScriptSource::File { path, span, .. } => (path.as_str(), *span),
        other => panic!("file script expected: {other:?}"),
    }
}
