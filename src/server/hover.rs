//! What a hover says: the agreement matrix's row of the key, field or
//! script under the cursor (who uses it, who diverges), with the places
//! that write and read it; on a key builder's or constant's name, the key
//! it builds.

use crate::facts::{Span, Value};
use crate::matrix::{Matrix, Row, TABLE_MAX};
use crate::pipeline::Analysis;

/// The most places listed per speaker and side, and the most speakers
/// per side; past them, a count.
const PLACES_MAX: usize = 4;
const SPEAKERS_MAX: usize = 8;

/// A use of a field: its speaker and where it is.
type Place = (crate::link::SpeakerId, Span);

/// The hover's markdown at `at`, or `None` when nothing there is on the
/// wire.
pub fn text(a: &Analysis, matrix: &Matrix, at: Span) -> Option<String> {
    if let Some(row) = crate::matrix::rows_at(a, matrix, at).into_iter().next() {
        return Some(row_text(a, matrix, row));
    }
    definition(a, matrix, at)
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
    let inside = |s: Span| s.file == at.file && s.start <= at.start && at.end <= s.end;
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
    let row = crate::matrix::rows_at(a, matrix, t.span)
        .into_iter()
        .find(|r| r.kind == "key")?;
    Some(format!(
        "`{name}` builds the key `{t}`\n\n{}",
        row_text(a, matrix, row)
    ))
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
/// field of a key row's record.
fn sides(a: &Analysis, row: &Row) -> (Vec<Place>, Vec<Place>) {
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
            for u in &r.fields[f] {
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
