//! # WL307 keys-declaration-conflict
//!
//! ## What it does
//! Flags a script whose declarations of its key count disagree: its header
//! comment lists 9 keys, its file name says 8 (`moveToActive-8.lua`), its
//! registration says 7, its own check (`if #KEYS ~= 6 then error(..)
//! end`) accepts 6, or the contract says otherwise.
//!
//! ## Why it breaks the wire
//! Callers in different runtimes read different declarations. One passes 9
//! keys, another 8, and one of them shifts every ARGV value by one.
//!
//! ## Example
//! ```lua
//! -- moveToActive-8.lua
//! -- KEYS[9] 'marker'
//! ```
//!
//! ## How to fix
//! Make every declaration state the count the body uses, and rename the
//! file with it. When the header comment disagrees with the contract, the
//! finding carries the header written again from the contract's keys
//! (`fix`, safe), one line per key in the style of its first line; when
//! it lists more keys than the registration, the lines past the count go.

use super::{CheckContext, Rule};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Layer, Severity};
use crate::facts::Span;
use crate::link::scripts::{CountSource, DeclaredCount};

pub static RULE: Rule = Rule {
    code: "WL307",
    name: "keys-declaration-conflict",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "the header, file name, registration and contract disagree on a script's key count",
    source: include_str!("keys_declaration_conflict.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for (id, script) in cx.model.scripts.iter().enumerate() {
        let counts = script.declared_counts(cx.contract);
        let Some(strongest) = counts.first() else {
            continue;
        };
        let Some(other) = counts.iter().find(|c| c.count != strongest.count) else {
            continue;
        };
        let name = cx.script_name(id);
        let primary = cx
            .declaration_span(script, other)
            .unwrap_or(script.def_span);
        let mut d = RULE.diagnostic(
            format!(
                "`{name}` declares {} keys in {} but {} in {}",
                other.count,
                other.source.describe(),
                strongest.count,
                strongest.source.describe()
            ),
            Label::new(primary, format!("{} keys", other.count)),
        );
        if let Some(s) = cx.declaration_span(script, strongest) {
            d.related
                .push(Label::new(s, format!("{} keys", strongest.count)));
        }
        let help = format!(
            "make every declaration say the same count; callers that follow {} pass {} keys and the others shift every ARGV",
            other.source.describe(),
            other.count
        );
        cx.blame_script(&mut d, script.speaker, help, "the script's KEYS", &name);
        if other.source == CountSource::Header {
            d.fix = regenerate(cx, script, strongest);
        }
        out.push(d);
    }
}

/// The header's `KEYS[n]` lines written again for the strongest
/// declaration: the contract's roles, or the header's own first `count`
/// lines for a registration. Only for a header of one line per key,
/// `KEYS[1]` to `KEYS[n]` in order on lines of their own, each a Lua
/// comment in the host bytes as it is (no host quote or escape on it).
fn regenerate(
    cx: &CheckContext<'_>,
    script: &crate::link::Script,
    strongest: &DeclaredCount,
) -> Option<Fix> {
    let mut decls: Vec<&crate::facts::KeyDecl> = script.lua.header_keys.iter().collect();
    decls.sort_by_key(|d| d.index);
    if decls
        .iter()
        .enumerate()
        .any(|(i, d)| d.index as usize != i + 1)
    {
        return None;
    }
    let roles: Vec<String> = match strongest.source {
        CountSource::Contract => {
            let c = cx.contract?;
            c.scripts[script.contract?]
                .keys
                .iter()
                .map(|k| k.0.clone())
                .collect()
        }
        CountSource::Registration if (strongest.count as usize) < decls.len() => decls
            [..strongest.count as usize]
            .iter()
            .map(|d| d.role.clone())
            .collect(),
        _ => return None,
    };
    let first = decls.first()?;
    let file = first.span.file;
    let bytes = cx.sources.get(file).bytes();
    let lines = header_lines(cx, &decls)?;
    // The first line is the template: `KEYS[1]` and its role's slot.
    let (ls, le) = lines[0];
    let template = std::str::from_utf8(&bytes[ls..le]).ok()?;
    let (rs, re) = (first.span.start as usize - ls, first.span.end as usize - ls);
    let keys = template.get(..rs)?.find("KEYS[1]")?;
    let slot = template.get(rs..re)?;
    let quote = slot.chars().next().filter(|c| *c == '\'' || *c == '"');
    let mut text = String::new();
    for (i, role) in roles.iter().enumerate() {
        if !crate::extract::encode::plain(role) {
            return None;
        }
        let role = match quote {
            Some(q) => format!("{q}{role}{q}"),
            None => role.clone(),
        };
        if i > 0 {
            text.push('\n');
        }
        let head = &template[..keys];
        let between = &template[keys + "KEYS[1]".len()..rs];
        text.push_str(&format!(
            "{head}KEYS[{}]{between}{role}{}",
            i + 1,
            &template[re..]
        ));
    }
    let (start, mut end) = (ls, lines.last()?.1);
    if roles.is_empty() && end < bytes.len() {
        end += 1;
    }
    let span = Span::new(file, start, end);
    if !declares_after(cx, span, &text, &roles) {
        return None;
    }
    Some(Fix::one(
        Applicability::Safe,
        format!(
            "write the header's KEYS lines from {}",
            strongest.source.describe()
        ),
        Edit { span, text },
    ))
}

/// The host lines of a header's declarations, one after another in one
/// file, each a Lua comment as it stands in the host: a `\`-continued
/// string or literals side by side (`"a\n" "b"`) would repeat the host's
/// prefix and escapes on every line written.
fn header_lines(
    cx: &CheckContext<'_>,
    decls: &[&crate::facts::KeyDecl],
) -> Option<Vec<(usize, usize)>> {
    let file = decls.first()?.span.file;
    let bytes = cx.sources.get(file).bytes();
    let line = |at: u32| {
        let at = at as usize;
        let s = bytes[..at]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        let e = bytes[at..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| at + i);
        (s, e)
    };
    let lines: Vec<(usize, usize)> = decls.iter().map(|d| line(d.span.start)).collect();
    if lines.windows(2).any(|w| w[1].0 != w[0].1 + 1) || decls.iter().any(|d| d.span.file != file) {
        return None;
    }
    let lua_file = cx
        .sources
        .get(file)
        .lang
        .is_some_and(crate::extract::encode::bare);
    let comment_line = |d: &&crate::facts::KeyDecl, &(s, e): &(usize, usize)| {
        let (rs, re) = (d.span.start as usize, d.span.end as usize);
        let (Some(head), Some(slot), Some(tail)) =
            (bytes.get(s..rs), bytes.get(rs..re), bytes.get(re..e))
        else {
            return false;
        };
        let Some(keys) = memchr::memmem::rfind(head, b"KEYS[") else {
            return false;
        };
        let host =
            |b: &[u8]| !lua_file && b.iter().any(|c| matches!(c, b'\\' | b'"' | b'\'' | b'`'));
        let lead = head[..keys].trim_ascii();
        !lead.is_empty()
            && lead.iter().all(|c| *c == b'-')
            && !host(head)
            && (lua_file || !slot.contains(&b'\\'))
            && !host(tail)
    };
    decls
        .iter()
        .zip(&lines)
        .all(|(d, l)| comment_line(d, l))
        .then_some(lines)
}

/// Whether the file with `text` in place of `span`, read again by its own
/// extractor, holds a script there whose header declares exactly `roles`,
/// in order.
fn declares_after(cx: &CheckContext<'_>, span: Span, text: &str, roles: &[String]) -> bool {
    let f = cx.sources.get(span.file);
    let Some(facts) = f
        .lang
        .and_then(|lang| crate::extract::encode::reread(lang, f.bytes(), span, text))
    else {
        return false;
    };
    let start = span.start as usize;
    let declares = |l: &crate::facts::LuaFacts| {
        l.header_keys.len() == roles.len()
            && l.header_keys
                .iter()
                .zip(roles)
                .enumerate()
                .all(|(i, (d, r))| d.index as usize == i + 1 && &d.role == r)
    };
    // The script that holds the new lines.
    let holds = |l: &crate::facts::LuaFacts| {
        l.span.start as usize <= start + text.len() && l.span.end as usize >= start
    };
    facts.scripts.iter().any(
        |d| matches!(&d.source, crate::facts::ScriptSource::Inline(l) if holds(l) && declares(l)),
    )
}
