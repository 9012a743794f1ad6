//! # WL303 keys-arity
//!
//! ## What it does
//! Flags a call site that passes a different number of keys than the
//! script declares: a literal numkeys, or the length of the key list it
//! passes, against the count in the contract, the registration, the file
//! name (`moveToActive-11.lua`) or the header comment.
//!
//! ## Why it breaks the wire
//! Redis splits the values after numkeys into KEYS and ARGV. One key too
//! many or too few moves the boundary: every ARGV value shifts by one and
//! the script runs on the wrong data, with no error. Each runtime's own
//! tests pass, because each tests only itself.
//!
//! ## Example
//! ```elixir
//! # enqueue declares KEYS = [job, pending]
//! Redix.command(conn, ["EVALSHA", sha, 3, row, stats, pending, id, payload])
//! ```
//!
//! ## How to fix
//! Pass exactly the declared keys, in the declared order, and let numkeys
//! count them.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::link::calls::NumKeys;

pub static RULE: Rule = Rule {
    code: "WL303",
    name: "keys-arity",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a call site passes a different number of keys than its script declares",
    source: include_str!("keys_arity.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for u in &cx.model.script_calls {
        let script = &cx.model.scripts[u.script];
        let Some(declared) = script.declared_count(cx.contract) else {
            continue;
        };
        let d = declared.count;
        let (n, span, what) = match &u.numkeys {
            NumKeys::Literal(n, span) => (*n, *span, format!("numkeys is {n}")),
            NumKeys::FromKeys | NumKeys::Unknown if u.keys_complete => {
                let span = match (u.keys.first(), u.keys.last()) {
                    (Some(a), Some(b)) => a.value.span().join(b.value.span()),
                    _ => u.span,
                };
                let n = u.keys.len() as u32;
                (
                    n,
                    span,
                    format!("{n} key{} passed", if n == 1 { " is" } else { "s are" }),
                )
            }
            _ => continue,
        };
        // Label the call itself when the count comes from a list built
        // elsewhere (a local variable, a wrapper's argument).
        let inside =
            span.file == u.span.file && span.start >= u.span.start && span.end <= u.span.end;
        let (span, built_at) = if inside {
            (span, None)
        } else {
            (u.span, Some(span))
        };
        if n == d {
            continue;
        }
        let name = cx.script_name(u.script);
        let shift = if n > d {
            let extra = n - d;
            match u.keys.get(d as usize) {
                Some(k) => format!(
                    "`{}` arrives as KEYS[{}], which `{name}` never reads, and the values it reads as ARGV shift by {extra}",
                    k.value.describe(),
                    d + 1
                ),
                None => format!("the values `{name}` reads as ARGV shift by {extra}"),
            }
        } else {
            let missing = d - n;
            format!(
                "KEYS[{}] is nil inside `{name}`, and what the caller meant as ARGV[1] lands {missing} slot{} early",
                n + 1,
                if missing == 1 { "" } else { "s" }
            )
        };
        let mut diag = RULE.diagnostic(
            format!(
                "{what}, but script `{name}` declares {d} keys ({})",
                declared.source.describe()
            ),
            Label::new(span, format!("{n} key{}", if n == 1 { "" } else { "s" })),
        );
        if let Some(s) = built_at {
            diag.related.push(Label::new(s, "the keys are listed here"));
        }
        if let Some(s) = cx.declaration_span(script, &declared) {
            diag.related
                .push(Label::new(s, format!("`{name}` declares {d} keys here")));
        }
        diag.help = Some(format!("pass exactly {d} keys: {shift}"));
        cx.finish(&mut diag, u.speaker, "run", "the script as declared");
        out.push(diag);
    }
}
