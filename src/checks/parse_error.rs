//! # WL001 parse-error
//!
//! ## What it does
//! Warns that a file (or a Lua script embedded in a host string) has syntax
//! errors. The facts found in its valid parts are still checked.
//!
//! When the parser gives up on a file (it has a budget of lexer reads and
//! CPU time, so that no input can hang a run), the finding names the exact
//! bytes that were not checked; it is an error, failing the run, when those
//! bytes could hold protocol code (a Redis command name, `KEYS[`, a
//! key-like literal, a script).
//!
//! ## Why it breaks the wire
//! It does not by itself; but what sits inside the broken region cannot be
//! read, so a divergence there may go unreported.
//!
//! ## Example
//! ```elixir
//! @enqueue """
//! redis.call('HSET', KEYS[1], 'state', 'pending'
//! """
//! ```
//!
//! ## How to fix
//! Fix the syntax error; if the file is valid and the parser is wrong,
//! suppress this warning for the file and report the parser bug.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::extract::lang::LuaIn;
use crate::facts::{Lang, Span};

pub static RULE: Rule = Rule {
    code: "WL001",
    name: "parse-error",
    layer: Layer::Input,
    severity: Severity::Warning,
    summary: "the file has syntax errors; facts from its valid parts are still checked",
    source: include_str!("parse_error.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    syntax_errors(cx, out);
    let scripts = cx.model.scripts.iter().filter_map(|s| s.lua.unchecked);
    for span in cx.model.unchecked.iter().copied().chain(scripts) {
        out.push(unchecked(cx, span));
    }
}

/// A region the parser gave up on: never checked.
fn unchecked(cx: &CheckContext<'_>, span: Span) -> Diagnostic {
    let f = cx.sources.get(span.file);
    let bytes = f
        .bytes
        .get(span.start as usize..span.end as usize)
        .unwrap_or_default();
    let protocol = crate::redis::could_hold_protocol(bytes);
    let mut d = RULE.diagnostic(
        format!(
            "bytes {}..{} were not checked: the parser gave up on them (its time or read budget ran out){}",
            span.start,
            span.end,
            if protocol {
                ", and they could hold protocol code"
            } else {
                ""
            }
        ),
        Label::new(span, "not checked"),
    );
    if protocol {
        d.severity = Severity::Error;
    }
    let help = "nothing in this region is checked; split or simplify the file so that it parses";
    cx.finish_input(&mut d, help.into());
    d
}

fn syntax_errors(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let mut groups: Vec<(&[Span], &str)> = cx
        .model
        .parse_errors
        .iter()
        .map(|(f, spans)| {
            (
                spans.as_slice(),
                cx.sources.get(*f).lang.map(Lang::name).unwrap_or(""),
            )
        })
        .collect();
    for s in &cx.model.scripts {
        let file_lang = cx.sources.get(s.def_span.file).lang;
        let embedded = file_lang.is_none_or(|l| l.host().lua() == LuaIn::Strings);
        if !s.lua.errors.is_empty() && embedded {
            groups.push((s.lua.errors.as_slice(), "embedded lua"));
        }
    }
    for (spans, lang) in groups {
        let Some(first) = spans.first() else {
            continue;
        };
        let more = match spans.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let mut d = RULE.diagnostic(
            format!("{lang} syntax error{more}; facts from the rest of the file are still checked"),
            Label::new(*first, "cannot parse this"),
        );
        let help =
            "what this region says about keys, fields and scripts is not checked until it parses";
        cx.finish_input(&mut d, help.into());
        out.push(d);
    }
}
