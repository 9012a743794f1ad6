//! # WL311 id-shape
//!
//! ## What it does
//! Flags a speaker that passes an id of a gated record (`[ids.job]`) that
//! cannot have the declared shape, from its literal bytes: a literal id
//! whose length is not `bytes` or that does not start with the brand
//! `kind`, or a template whose literal start is not the brand or whose
//! literal bytes alone are longer than `bytes`. The id is the ARGV slot
//! whose role (in the contract's `argv`, or a header comment) is the
//! record key's placeholder (`id` for `job:<id>`).
//!
//! ## Why it breaks the wire
//! The scripts admit only ids of the record's kind and length (the gate).
//! An id minted another way is refused by the gate in every runtime, or,
//! where a script lacks the gate, writes a row the other speakers cannot
//! trust.
//!
//! ## Example
//! ```elixir
//! # [ids.job]: bytes = 14, kind = "JOB"
//! id = "job-" <> Integer.to_string(n)
//! Redix.command(conn, ["EVALSHA", sha, 2, row, pending, id, payload])
//! ```
//!
//! ## How to fix
//! Mint ids as the contract says: the brand, then random bytes up to the
//! declared length (`"JOB" <> Base.encode16(:crypto.strong_rand_bytes(5))`
//! and one more byte, or the canonical speaker's minting function).

use super::{at_call, CheckContext, Rule};
use crate::contract::{IdSpec, PatTok};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::{Seg, Template};
use crate::link::calls::ScriptCallUse;

pub static RULE: Rule = Rule {
    code: "WL311",
    name: "id-shape",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a speaker passes an id whose literal bytes cannot have the declared length or brand",
    source: include_str!("id_shape.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    let Some(ks) = contract.keyspace.as_ref() else {
        return;
    };
    for spec in &contract.ids {
        // The placeholder of the record's key: `id` for `job:<id>`.
        let Some(record) = contract.records.iter().find(|r| r.name == spec.record) else {
            continue;
        };
        let Some(ty) = ks.type_named(&record.type_name) else {
            continue;
        };
        let Some(hole) = ty.pattern.iter().find_map(|t| match t {
            PatTok::Var(v) => Some(v.as_str()),
            PatTok::Lit(_) => None,
        }) else {
            continue;
        };
        for u in &cx.model.script_calls {
            let script = &cx.model.scripts[u.script];
            for (j, a) in u.argv.iter().enumerate() {
                let role = script.argv_role(j as u32 + 1, contract.into());
                if role.is_none_or(|r| r.text != hole) {
                    continue;
                }
                for t in a.alts.iter() {
                    if let Some(why) = misshapen(t, spec) {
                        out.push(finding(cx, u, spec, t, j as u32 + 1, why));
                    }
                }
            }
        }
    }
}

/// Why a template cannot be an id of `spec`, from its literal bytes.
fn misshapen(t: &Template, spec: &IdSpec) -> Option<String> {
    let n = spec.bytes as usize;
    if let Some(lit) = t.as_literal() {
        if lit.len() != n {
            return Some(format!("`{lit}` is {} bytes, not {n}", lit.len()));
        }
        if !lit.starts_with(&spec.kind) {
            return Some(format!("`{lit}` does not start with `{}`", spec.kind));
        }
        return None;
    }
    if let Some(Seg::Lit { text, .. }) = t.segs.first() {
        let shared = text.len().min(spec.kind.len());
        if text.as_bytes()[..shared] != spec.kind.as_bytes()[..shared] {
            return Some(format!(
                "it starts with `{text}`, not the brand `{}`",
                spec.kind
            ));
        }
    }
    let literal: usize = t
        .segs
        .iter()
        .map(|s| match s {
            Seg::Lit { text, .. } => text.len(),
            _ => 0,
        })
        .sum();
    (literal > n).then(|| format!("its literal bytes alone are {literal}, more than {n}"))
}

fn finding(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    spec: &IdSpec,
    t: &Template,
    n: u32,
    why: String,
) -> Diagnostic {
    let at = t.segs.first().map(|s| s.span()).unwrap_or(t.span);
    let (span, built_at) = at_call(u.span, at);
    let name = cx.script_name(u.script);
    let mut d = RULE.diagnostic(
        format!(
            "the `{}` id passed as `ARGV[{n}]` of `{name}` cannot be a {}-byte `{}` id: {why}",
            spec.record, spec.bytes, spec.kind
        ),
        Label::new(span, format!("not a `{}` id", spec.kind)),
    );
    if let Some(s) = built_at {
        d.related.push(Label::new(s, "the id is passed here"));
    }
    if let Some(s) = cx.contract_span(&spec.span) {
        d.related.push(Label::new(
            s,
            format!(
                "the contract's `{}` ids: {} bytes, brand `{}`",
                spec.record, spec.bytes, spec.kind
            ),
        ));
    }
    let help = format!(
        "mint the id as `{}` followed by {} more bytes; the scripts' gate (`{}`) refuses any other",
        spec.kind,
        spec.bytes as usize - spec.kind.len(),
        spec.gate
    );
    cx.blame(&mut d, u.speaker, help, "which ids may own a row");
    d
}
