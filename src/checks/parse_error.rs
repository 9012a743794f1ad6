//! # WL001 parse-error
//!
//! ## What it does
//! Warns that a file (or a Lua script embedded in a host string) has syntax
//! errors where the broken region could hide protocol facts: the lines it
//! covers hold a Redis command name in quotes, `KEYS[`/`ARGV[`, `redis`, a
//! script reference (`include_str!`, `File.read`), the contract's prefix or
//! a hash-tagged key literal. A syntax error elsewhere (a grammar gap in
//! code that speaks no Redis) is counted in one note, not listed. Embedded
//! Lua is always a script, so its errors are always listed. The facts found
//! in a file's valid parts are still checked.
//!
//! When the parser gives up on a file (it has a budget of lexer reads and
//! CPU time, so that no input can hang a run; an Elixir file is parsed only
//! up to the line where its `do`/`fn` blocks nest more than 1,000 deep),
//! or the extractor stops reading one (the values of a file may read two
//! million expression nodes in all, however its calls nest), the finding
//! names the exact bytes that were not checked; it is an error, failing the run, when those
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
use crate::facts::{FileId, Lang, Span};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

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
        .bytes()
        .get(span.start as usize..span.end as usize)
        .unwrap_or_default();
    let protocol = crate::redis::could_hold_protocol(bytes);
    let mut d = RULE.diagnostic(
        format!(
            "bytes {}..{} were not checked: the parser or the extractor gave up on them (a time, read or value budget ran out, or its blocks nest too deep){}",
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
    // Its automaton (two needles per Redis command) only when some file
    // has syntax errors.
    let hides = (!cx.model.parse_errors.is_empty()).then(|| Hides::new(cx));
    let mut groups: Vec<(&[Span], &str, Option<Span>)> = Vec::new();
    for (f, spans) in &cx.model.parse_errors {
        let at = hides.as_ref().and_then(|h| h.first_hiding(cx, *f, spans));
        if let Some(at) = at {
            let lang = cx.sources.get(*f).lang.map(Lang::name).unwrap_or("");
            groups.push((spans.as_slice(), lang, Some(at)));
        }
    }
    for s in &cx.model.scripts {
        let file_lang = cx.sources.get(s.def_span.file).lang;
        let embedded = file_lang.is_none_or(|l| l.host().lua() == LuaIn::Strings);
        if !s.lua.errors.is_empty() && embedded {
            groups.push((s.lua.errors.as_slice(), "embedded lua", None));
        }
    }
    for (spans, lang, at) in groups {
        let Some(first) = at.or_else(|| spans.first().copied()) else {
            continue;
        };
        let more = match spans.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let mut d = RULE.diagnostic(
            format!("{lang} syntax error{more}; facts from the rest of the file are still checked"),
            Label::new(first, "cannot parse this"),
        );
        let help =
            "what this region says about keys, fields and scripts is not checked until it parses";
        cx.finish_input(&mut d, help.into());
        out.push(d);
    }
}

/// How many files have syntax errors only where no protocol fact can hide:
/// counted in a note, not listed.
pub fn unlisted(cx: &CheckContext<'_>) -> usize {
    if cx.model.parse_errors.is_empty() {
        return 0;
    }
    let hides = Hides::new(cx);
    cx.model
        .parse_errors
        .iter()
        .filter(|(f, spans)| hides.first_hiding(cx, *f, spans).is_none())
        .count()
}

/// What a broken region must hold to possibly hide a protocol fact.
struct Hides(AhoCorasick);

impl Hides {
    fn new(cx: &CheckContext<'_>) -> Hides {
        let mut needles: Vec<String> = ["redis", "Redis", "REDIS", "KEYS[", "ARGV[", ":{"]
            .iter()
            .map(|s| s.to_string())
            .chain(["include_str!", "File.read", "Script::new"].map(String::from))
            .collect();
        for c in crate::redis::commands() {
            let upper = c.to_ascii_uppercase();
            needles.push(format!("\"{upper}\""));
            needles.push(format!("'{upper}'"));
        }
        if let Some(ks) = cx.contract.and_then(|c| c.keyspace.as_ref()) {
            if !ks.prefix.is_empty() {
                needles.push(ks.prefix.clone());
            }
        }
        Hides(
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostFirst)
                .build(&needles)
                .expect("the needles are short literals"),
        )
    }

    /// The first error whose lines could hide a protocol fact; any error
    /// of a script file that speaks Redis (its valid parts call Redis or
    /// read KEYS).
    fn first_hiding(&self, cx: &CheckContext<'_>, file: FileId, spans: &[Span]) -> Option<Span> {
        let script_file = cx.sources.get(file).lang.is_some_and(Lang::is_script);
        if script_file
            && cx
                .model
                .scripts
                .iter()
                .any(|s| s.def_span.file == file && s.is_redis())
        {
            return spans.first().copied();
        }
        let bytes = cx.sources.get(file).bytes();
        spans.iter().copied().find(|s| {
            let (start, end) = (s.start as usize, (s.end as usize).max(s.start as usize));
            let from = bytes[..start.min(bytes.len())]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let to = bytes
                .get(end..)
                .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
                .map_or(bytes.len(), |i| end + i);
            bytes
                .get(from..to)
                .is_some_and(|region| self.0.is_match(region))
        })
    }
}
