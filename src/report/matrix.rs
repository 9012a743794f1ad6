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
