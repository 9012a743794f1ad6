//! The agreement matrix, as a terminal table or JSON (`check --matrix`).

use super::escape::text;
use crate::views::matrix::{Cell, Matrix, Row, TABLE_MAX};

/// A terminal table: `✓` agrees, `✗` diverges, `?` not checked, `·` unused. Past
/// [`TABLE_MAX`] speakers, one line per row naming the speakers that use
/// its item: a table of thousands of columns is read by no one, and its
/// size is speakers × rows.
pub fn render_text(m: &Matrix) -> String {
    if m.speakers.len() > TABLE_MAX {
        return render_list(m);
    }
    let label = |r: &Row| text(&format!("{} {}", r.kind, r.item)).into_owned();
    let names: Vec<String> = m.speakers.iter().map(|s| text(s).into_owned()).collect();
    let first = m
        .rows
        .iter()
        .map(|r| label(r).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let widths: Vec<usize> = names.iter().map(|s| s.chars().count().max(1)).collect();
    let mut out = String::new();
    out.push_str(&format!("{:<first$}", "item"));
    for (s, w) in names.iter().zip(&widths) {
        out.push_str(&format!("  {s:^w$}"));
    }
    out.push('\n');
    for r in &m.rows {
        out.push_str(&format!("{:<first$}", label(r)));
        for (i, w) in widths.iter().enumerate() {
            let mark = match r.cell(i) {
                Cell::Agrees => "✓",
                Cell::Diverges => "✗",
                Cell::Unchecked => "?",
                Cell::Unused => "·",
            };
            out.push_str(&format!("  {mark:^w$}"));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "✓ agrees   ✗ diverges (a finding points at this use){}   · not used\n",
        unchecked_legend(m)
    ));
    out
}

/// The legend of `?`, when a cell is one.
fn unchecked_legend(m: &Matrix) -> &'static str {
    let any = m
        .rows
        .iter()
        .any(|r| r.uses.iter().any(|(_, c)| *c == Cell::Unchecked));
    if any {
        "   ? run, but in no call wirelint checked"
    } else {
        ""
    }
}

/// The matrix of many speakers: a line per row, `✓` and the speakers that
/// agree, `✗` and those that diverge.
fn render_list(m: &Matrix) -> String {
    let mut out = format!(
        "{} speakers, too many for a table: each row names the speakers that use its item\n",
        m.speakers.len()
    );
    for r in &m.rows {
        out.push_str(&text(&format!("{} {}", r.kind, r.item)));
        for (mark, want) in [
            ("✓", Cell::Agrees),
            ("✗", Cell::Diverges),
            ("?", Cell::Unchecked),
        ] {
            let names: Vec<&str> = r
                .uses
                .iter()
                .filter(|(_, c)| *c == want)
                .map(|(i, _)| m.speakers[*i].as_str())
                .collect();
            if !names.is_empty() {
                out.push_str(&format!("  {mark} {}", text(&names.join(", "))));
            }
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "✓ agrees   ✗ diverges (a finding points at this use){}; a speaker not named does not use the item\n",
        unchecked_legend(m)
    ));
    out
}

/// The matrix in the JSON document, written as it is serialized: building
/// it as a `serde_json::Value` cloned every speaker's name into every row
/// (3,000 speakers: 3 GB). Keys in sorted order, as the release build's
/// `serde_json` maps had them (a build with `preserve_order`, as the tests'
/// was through a dev-dependency, kept insertion order); speakers of one
/// name (none in practice) still go through [`to_json`].
pub struct JsonMatrix<'a>(pub &'a Matrix);

impl serde::Serialize for JsonMatrix<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let m = self.0;
        let unique = m
            .speakers
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len()
            == m.speakers.len();
        if !unique {
            return to_json(m).serialize(s);
        }
        struct Rows<'a>(&'a Matrix);
        struct RowOut<'a>(&'a Matrix, &'a Row);
        struct Cells<'a>(&'a Matrix, &'a Row);
        impl serde::Serialize for Rows<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.rows.iter().map(|r| RowOut(self.0, r)))
            }
        }
        impl serde::Serialize for RowOut<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(3))?;
                map.serialize_entry("cells", &Cells(self.0, self.1))?;
                map.serialize_entry("item", &self.1.item)?;
                map.serialize_entry("kind", self.1.kind)?;
                map.end()
            }
        }
        impl serde::Serialize for Cells<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut cells: Vec<(&String, &str)> = self
                    .1
                    .uses
                    .iter()
                    .map(|(i, c)| (&self.0.speakers[*i], c.as_str()))
                    .collect();
                cells.sort_unstable();
                s.collect_map(cells)
            }
        }
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("rows", &Rows(m))?;
        map.serialize_entry("speakers", &m.speakers)?;
        map.end()
    }
}

pub fn to_json(m: &Matrix) -> serde_json::Value {
    serde_json::json!({
        "speakers": m.speakers,
        "rows": m.rows.iter().map(|r| {
            let cells: serde_json::Map<String, serde_json::Value> = r
                .uses
                .iter()
                .map(|(i, c)| (m.speakers[*i].clone(), serde_json::Value::from(c.as_str())))
                .collect();
            serde_json::json!({"kind": r.kind, "item": r.item, "cells": cells})
        }).collect::<Vec<_>>(),
    })
}
