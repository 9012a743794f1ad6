//! Strings built by Lua's library: `string.format` and `table.concat`,
//! over evaluated arguments.

use super::append_value;
use super::value::{Kind, Lv};
use crate::extract::push_lit;
use crate::facts::{Seg, Span, Template, Value};

/// `string.format('emq:{%s}:%s', q, t)`: the format's literal bytes with
/// each directive replaced by its argument.
pub(super) fn format<'t>(args: &[Lv<'t>], span: Span) -> Lv<'t> {
    let derived = || Lv::derived("string.format", span, args);
    let Some(Kind::Val(Value::Str(fmt))) = args.first().map(|a| &a.kind) else {
        return derived();
    };
    let (Some(fmt_text), Some(Seg::Lit { span: fspan, .. })) = (fmt.as_literal(), fmt.segs.first())
    else {
        return derived();
    };
    let mut segs = Vec::new();
    let mut next_arg = 1usize;
    let bytes = fmt_text.as_bytes();
    let mut lit_start = 0usize;
    let mut i = 0usize;
    // Sub-spans only when the literal's bytes are the format's (no escapes).
    let exact = fspan.len() as usize == bytes.len();
    let sub = |a: usize, b: usize| {
        if exact {
            Span::new(
                fspan.file,
                fspan.start as usize + a,
                fspan.start as usize + b,
            )
        } else {
            *fspan
        }
    };
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        if bytes.get(i + 1) == Some(&b'%') {
            push_lit(
                &mut segs,
                &fmt_text[lit_start..i + 1],
                sub(lit_start, i + 1),
            );
            i += 2;
            lit_start = i;
            continue;
        }
        push_lit(&mut segs, &fmt_text[lit_start..i], sub(lit_start, i));
        let mut j = i + 1;
        while j < bytes.len() && !bytes[j].is_ascii_alphabetic() {
            j += 1;
        }
        let j = (j + 1).min(bytes.len());
        match args.get(next_arg) {
            Some(a) => append_value(&mut segs, a.to_value()),
            None => segs.push(Seg::Hole {
                label: fmt_text[i..j].to_string(),
                span: sub(i, j),
            }),
        }
        next_arg += 1;
        i = j;
        lit_start = i;
    }
    push_lit(
        &mut segs,
        &fmt_text[lit_start..],
        sub(lit_start, bytes.len()),
    );
    let mut out = derived();
    out.kind = Kind::Val(Value::Str(Template { segs, span }));
    out
}

/// `table.concat({a, ':', b})`, `table.concat({a, b}, ':')`: a literal
/// table's items joined; any other table gives an unknown string.
pub(super) fn table_concat<'t>(args: &[Lv<'t>], span: Span) -> Lv<'t> {
    let mut out = Lv::derived("table.concat", span, args);
    let Some(Kind::Table { items, open: false }) = args.first().map(|a| &a.kind) else {
        return out;
    };
    let sep = match args.get(1).map(|a| &a.kind) {
        None => None,
        Some(Kind::Val(Value::Str(t))) if t.as_literal().is_some() => Some(t.clone()),
        Some(_) => return out,
    };
    let mut segs = Vec::new();
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            if let Some(sep) = &sep {
                segs.extend(sep.segs.iter().cloned());
            }
        }
        append_value(&mut segs, item.to_value());
        out.caller |= item.caller;
        out.state |= item.state;
    }
    out.kind = Kind::Val(Value::Str(Template { segs, span }));
    out
}
