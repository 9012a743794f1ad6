//! The agreement matrix, as a terminal table or JSON (`check --matrix`).

use crate::matrix::{Cell, Matrix, Row};

/// A terminal table: `✓` agrees, `✗` diverges, `·` unused.
pub fn render_text(m: &Matrix) -> String {
    let label = |r: &Row| format!("{} {}", r.kind, r.item);
    let first = m
        .rows
        .iter()
        .map(|r| label(r).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let widths: Vec<usize> = m
        .speakers
        .iter()
        .map(|s| s.chars().count().max(1))
        .collect();
    let mut out = String::new();
    out.push_str(&format!("{:<first$}", "item"));
    for (s, w) in m.speakers.iter().zip(&widths) {
        out.push_str(&format!("  {s:^w$}"));
    }
    out.push('\n');
    for r in &m.rows {
        out.push_str(&format!("{:<first$}", label(r)));
        for (c, w) in r.cells.iter().zip(&widths) {
            let mark = match c {
                Cell::Agrees => "✓",
                Cell::Diverges => "✗",
                Cell::Unused => "·",
            };
            out.push_str(&format!("  {mark:^w$}"));
        }
        out.push('\n');
    }
    out.push_str("✓ agrees   ✗ diverges (a finding points at this use)   · not used\n");
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
                    .0
                    .speakers
                    .iter()
                    .zip(&self.1.cells)
                    .map(|(sp, c)| (sp, c.as_str()))
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
            let cells: serde_json::Map<String, serde_json::Value> = m
                .speakers
                .iter()
                .zip(&r.cells)
                .map(|(s, c)| (s.clone(), serde_json::Value::from(c.as_str())))
                .collect();
            serde_json::json!({"kind": r.kind, "item": r.item, "cells": cells})
        }).collect::<Vec<_>>(),
    })
}
