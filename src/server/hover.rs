//! What a hover says: the agreement matrix's row of the key, field or
//! script under the cursor (who uses it, who diverges), with the places
//! that write and read it; on a key builder's or constant's name, the key
//! it builds.

use crate::facts::{Span, Value};
use crate::pipeline::Analysis;
use crate::views::matrix::{Matrix, Row, TABLE_MAX};

/// The most places listed per speaker and side, and the most speakers
/// per side; past them, a count.
const PLACES_MAX: usize = 4;
const SPEAKERS_MAX: usize = 8;

/// A use of a field: its speaker and where it is.
type Place = super::keyuses::Place;

/// The hover's markdown at `at`, or `None` when nothing there is on the
/// wire.
pub fn text(a: &Analysis, matrix: &Matrix, at: Span) -> Option<String> {
    if let Some(row) = crate::views::matrix::rows_at(a, matrix, at)
        .into_iter()
        .next()
    {
        return Some(row_text(a, matrix, row));
    }
    definition(a, matrix, at)
        .or_else(|| {
            // A field literal sent with a key that has no row.
            let (field, t, anchor) = super::keyuses::field_at(&a.model, at)?;
            let uses = uses_text(a, anchor, Some(&field))?;
            Some(format!("**field** `{field}` of the key `{t}`\n\n{uses}"))
        })
        .or_else(|| {
            // A call of a builder whose key has no row.
            let (t, anchor) = super::keyuses::key_at(&a.model, at)?;
            let uses = uses_text(a, anchor, None)?;
            Some(format!("**key** `{t}`\n\n{uses}"))
        })
}

/// On the name of a function or constant whose value is a key: the key
/// it builds, then what the key's row says.
fn definition(a: &Analysis, matrix: &Matrix, at: Span) -> Option<String> {
    // The model keeps no definitions: the file's own, extracted again
    // (one file, at a hover).
    let f = a.sources.get(at.file);
    let lang = f.lang?;
    if !f.is_loaded() {
        return None;
    }
    let stem = f.path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let mut parsers = crate::parse::Parsers::new().ok()?;
    let facts = crate::extract::extract_file(
        &mut parsers,
        lang,
        at.file,
        f.bytes(),
        stem.as_deref().unwrap_or_default(),
    );
    let inside = |s: Span| at.inside(s);
    let (name, value): (String, &Value) = match facts.functions.iter().find(|f| inside(f.name_span))
    {
        Some(f) => (format!("{}/{}", f.name, f.params.len()), &f.returns),
        None => {
            let c = facts.consts.iter().find(|c| inside(c.name_span))?;
            (c.name.clone(), &c.value)
        }
    };
    // Only a value that is itself a string: a function that sends a key
    // (`push`) holds keys in what it returns, but builds none.
    let Value::Str(t) = value else {
        return None;
    };
    let head = format!("`{name}` builds the key `{t}`");
    match crate::views::matrix::rows_at(a, matrix, t.span)
        .into_iter()
        .find(|r| r.kind == "key")
    {
        Some(row) => Some(format!("{head}\n\n{}", row_text(a, matrix, row))),
        None => uses_text(a, t.span, None).map(|uses| format!("{head}\n\n{uses}")),
    }
}

/// A key without a row of its own (its namespace a value): who writes and
/// reads it, and the scripts it is passed to, as the builder's text at
/// `def` anchors it (`keyuses`); with `field`, who writes and reads that
/// field of it. Test code apart, as the matrix has it.
fn uses_text(a: &Analysis, def: Span, field: Option<&str>) -> Option<String> {
    let test = crate::views::coverage::TestCode::of(a);
    let mut uses = super::keyuses::of(&a.model, def);
    let keep = |p: &Place| !test.holds(p.1);
    uses.key.retain(keep);
    uses.passed.values_mut().for_each(|v| v.retain(keep));
    uses.passed.retain(|_, v| !v.is_empty());
    let mut parts = Vec::new();
    let sides = match field {
        Some(f) => {
            let mut sides = uses.fields.remove(f)?;
            sides.retain(keep);
            sides
        }
        None => std::mem::take(&mut uses.key),
    };
    for (title, list) in [("written by", &sides.written), ("read by", &sides.read)] {
        if !list.is_empty() {
            parts.push(format!("{title}: {}", places(a, list)));
        }
    }
    if field.is_none() {
        let contract = a.contract.as_ref();
        for ((script, n), list) in uses.passed.iter().take(SPEAKERS_MAX) {
            let name = a.model.scripts[*script].display_name(contract);
            parts.push(format!(
                "passed to `{name}` as KEYS[{n}] by {}",
                places(a, list)
            ));
        }
        let more = uses.passed.len().saturating_sub(SPEAKERS_MAX);
        match more {
            0 => {}
            1 => parts.push("passed to 1 other script".into()),
            n => parts.push(format!("passed to {n} other scripts")),
        }
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// A row: its item, each speaker's cell, and who writes and reads it.
fn row_text(a: &Analysis, matrix: &Matrix, row: &Row) -> String {
    let mut text = format!("**{}** `{}`\n", row.kind, row.item);
    if matrix.speakers.len() <= TABLE_MAX {
        for (i, sp) in matrix.speakers.iter().enumerate() {
            text.push_str(&format!("\n- `{sp}`: {}", row.cell(i).as_str()));
        }
    } else {
        for (i, cell) in &row.uses {
            let sp = &matrix.speakers[*i];
            text.push_str(&format!("\n- `{sp}`: {}", cell.as_str()));
        }
        let others = matrix.speakers.len() - row.uses.len();
        let s = if others == 1 { "" } else { "s" };
        text.push_str(&format!("\n- {others} other speaker{s}: unused"));
    }
    let (written, read) = sides(a, row);
    for (title, uses) in [("written by", written), ("read by", read)] {
        if !uses.is_empty() {
            text.push_str(&format!("\n\n{title}: {}", places(a, &uses)));
        }
    }
    text
}

/// The field uses that write and that read a field row's field, or any
/// field of a key row's record; test code apart, as the row's cells.
fn sides(a: &Analysis, row: &Row) -> (Vec<Place>, Vec<Place>) {
    let test = crate::views::coverage::TestCode::of(a);
    let (mut written, mut read) = (Vec::new(), Vec::new());
    for r in &a.model.records {
        let fields: Vec<&String> = match row.kind {
            "key" if r.key == row.item => r.fields.keys().collect(),
            "field" => r
                .fields
                .keys()
                .filter(|f| row.item == format!("{} {f}", r.key))
                .collect(),
            _ => Vec::new(),
        };
        for f in fields {
            for u in r.fields[f].iter().filter(|u| !test.holds(u.span)) {
                let side = if u.write { &mut written } else { &mut read };
                side.push((u.speaker, u.span));
            }
        }
    }
    (written, read)
}

/// `` `tq_ex` (lib/tq.ex:10, lib/tq.ex:24), `tq_rs` (src/lib.rs:12) ``:
/// each speaker once, in name order, with up to [`PLACES_MAX`] places,
/// up to [`SPEAKERS_MAX`] speakers.
fn places(a: &Analysis, uses: &[Place]) -> String {
    let mut by: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    let mut spans: Vec<&Place> = uses.iter().collect();
    spans.sort_by_key(|(_, s)| (s.file, s.start));
    for (sp, s) in spans {
        let f = a.sources.get(s.file);
        let place = format!("{}:{}", f.rel, f.line(s.start));
        let list = by.entry(a.model.speaker_name(*sp)).or_default();
        if list.last() != Some(&place) {
            list.push(place);
        }
    }
    let others = by.len().saturating_sub(SPEAKERS_MAX);
    let mut out: Vec<String> = by
        .into_iter()
        .take(SPEAKERS_MAX)
        .map(|(sp, list)| {
            let more = list.len().saturating_sub(PLACES_MAX);
            let mut shown = list.into_iter().take(PLACES_MAX).collect::<Vec<_>>();
            if more > 0 {
                shown.push(format!("{more} more"));
            }
            format!("`{sp}` ({})", shown.join(", "))
        })
        .collect();
    match others {
        0 => {}
        1 => out.push("1 other speaker".into()),
        n => out.push(format!("{n} other speakers")),
    }
    out.join(", ")
}
