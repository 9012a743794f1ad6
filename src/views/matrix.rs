//! The agreement matrix (`wirelint check --matrix`): the seed's "who can
//! still read the job?" table for a real repository.
//!
//! Rows are the key templates, record fields, scripts and script ARGV
//! slots that speakers use outside test code;
//! columns are speakers. A cell says whether the speaker agrees (uses the
//! item and no finding of its own points at that use), diverges (a finding
//! of its own does), or does not use the item. Computes only; reporters
//! render.

use crate::hash::HashMap;
use std::collections::BTreeMap;

use crate::diagnostic::Layer;
use crate::facts::{Seg, Span};
use crate::link::records::key_shape;
use crate::link::SpeakerId;
use crate::pipeline::Analysis;
use crate::views::coverage::TestCode;

/// The most speakers shown as columns of a table (or one line each in a
/// hover); past it, each row lists only the speakers that use its item.
pub const TABLE_MAX: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Agrees,
    Diverges,
    /// A script the speaker runs, in calls the KEYS checks could not see
    /// (not linked, or keys that cannot be counted): no evidence either way.
    Unchecked,
    Unused,
}

impl Cell {
    pub fn as_str(self) -> &'static str {
        match self {
            Cell::Agrees => "agrees",
            Cell::Diverges => "diverges",
            Cell::Unchecked => "unchecked",
            Cell::Unused => "unused",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Row {
    /// `key`, `field`, `script` or `argv`.
    pub kind: &'static str,
    pub item: String,
    /// The speakers that use the item, as indexes into `Matrix::speakers`
    /// in ascending order, each `Agrees` or `Diverges`; every other
    /// speaker's cell is `Unused`. Sparse, so that the matrix grows with
    /// the uses, not with speakers × rows (4,300 crates each writing a
    /// field of its own: 18.5 million cells, 4,300 of them used).
    pub uses: Vec<(usize, Cell)>,
}

impl Row {
    /// The cell of the speaker at `column` of `Matrix::speakers`.
    pub fn cell(&self, column: usize) -> Cell {
        match self.uses.binary_search_by_key(&column, |(c, _)| *c) {
            Ok(i) => self.uses[i].1,
            Err(_) => Cell::Unused,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Matrix {
    pub speakers: Vec<String>,
    pub rows: Vec<Row>,
}

fn overlaps(a: Span, b: Span) -> bool {
    a.file == b.file && a.start <= b.end && b.start <= a.end
}

/// One speaker's finding spans, sorted, to ask whether any overlaps a use
/// in logarithmic time (an HSET of 87,000 fields: 87,000 findings, each
/// asked for by its own row).
struct Hits {
    /// Sorted by file, then start.
    spans: Vec<Span>,
    /// The furthest end among `spans[..=i]` of `spans[i]`'s file.
    reach: Vec<u32>,
}

impl Hits {
    fn new(mut spans: Vec<Span>) -> Hits {
        spans.sort_unstable_by_key(|s| (s.file, s.start, s.end));
        let mut reach = Vec::with_capacity(spans.len());
        for (i, s) in spans.iter().enumerate() {
            let before = (i > 0 && spans[i - 1].file == s.file).then(|| reach[i - 1]);
            reach.push(before.map_or(s.end, |r: u32| r.max(s.end)));
        }
        Hits { spans, reach }
    }

    /// Whether a finding overlaps `u`: of the findings of its file that
    /// start at or before its end, the furthest must reach its start.
    fn overlaps(&self, u: Span) -> bool {
        let i = self
            .spans
            .partition_point(|f| (f.file, f.start) <= (u.file, u.end));
        i > 0 && self.spans[i - 1].file == u.file && self.reach[i - 1] >= u.start
    }
}

/// Per row (kind, item): the speakers that use it, with the spans of each use.
type Uses = BTreeMap<(&'static str, String), BTreeMap<SpeakerId, Vec<Span>>>;

pub fn build(a: &Analysis) -> Matrix {
    let m = &a.model;
    let mut uses = uses(a);
    // The speakers that take part in the protocol, as the checks count
    // them: a project that only caches in Redis is no column.
    let active =
        crate::checks::CheckContext::new(m, a.contract.as_ref(), a.contract_file, &a.sources)
            .active_speakers();
    uses.retain(|_, by| {
        by.retain(|sp, _| active.contains(sp));
        !by.is_empty()
    });
    // Speakers that use anything, in name order.
    let mut ids: Vec<SpeakerId> = uses.values().flat_map(|by| by.keys().copied()).collect();
    ids.sort_by_key(|id| m.speakers[*id].name.clone());
    ids.dedup();
    let column: HashMap<SpeakerId, usize> =
        ids.iter().enumerate().map(|(c, id)| (*id, c)).collect();
    // Each speaker's findings, by name: a use diverges when one overlaps it.
    let mut findings: HashMap<&str, Vec<Span>> = HashMap::default();
    for d in a.diagnostics.iter().filter(|d| d.layer != Layer::Input) {
        if let Some(s) = d.speaker.as_deref() {
            findings.entry(s).or_default().push(d.primary.span);
        }
    }
    let findings: HashMap<&str, Hits> = findings
        .into_iter()
        .map(|(s, spans)| (s, Hits::new(spans)))
        .collect();
    // Who takes part in each script: the runs coverage counts, as the
    // checks' agreement counts read them.
    let runs = crate::link::runs::runs(m, a.contract.as_ref());
    let takers = crate::link::runs::takers(m, &runs, |id| script_row(a, id));
    let cell = |kind: &str, item: &str, id: &SpeakerId, spans: &[Span]| {
        let name = m.speakers[*id].name.as_str();
        let hit = findings
            .get(name)
            .is_some_and(|h| spans.iter().any(|u| h.overlaps(*u)));
        let seen = kind != "script" || takers.get(item).is_some_and(|t| t.contains(id));
        match (hit, seen) {
            (true, _) => Cell::Diverges,
            (false, true) => Cell::Agrees,
            (false, false) => Cell::Unchecked,
        }
    };
    let rows = uses
        .into_iter()
        .map(|((kind, item), by)| {
            let mut used: Vec<(usize, Cell)> = by
                .iter()
                .map(|(id, spans)| (column[id], cell(kind, &item, id, spans)))
                .collect();
            used.sort_unstable_by_key(|(c, _)| *c);
            Row {
                kind,
                item,
                uses: used,
            }
        })
        .collect();
    Matrix {
        speakers: ids.iter().map(|id| m.speakers[*id].name.clone()).collect(),
        rows,
    }
}

/// The rows whose item is used at `at` (a point or a range of one file),
/// narrowest use first: what hovering there is about.
pub fn rows_at<'m>(a: &Analysis, matrix: &'m Matrix, at: Span) -> Vec<&'m Row> {
    let mut hits: Vec<(u32, &'static str, String)> = Vec::new();
    for ((kind, item), by) in uses(a) {
        let narrowest = by
            .values()
            .flatten()
            .filter(|u| overlaps(**u, at))
            .map(|u| u.end - u.start)
            .min();
        if let Some(w) = narrowest {
            hits.push((w, kind, item));
        }
    }
    hits.sort();
    hits.iter()
        .filter_map(|(_, kind, item)| {
            matrix
                .rows
                .iter()
                .find(|r| r.kind == *kind && r.item == *item)
        })
        .collect()
}

/// Every key shape, record field and script, with who uses it where.
fn uses(a: &Analysis) -> Uses {
    let m = &a.model;
    let mut uses: Uses = BTreeMap::new();
    // Test code is no speaker's use: a script a test defines
    // (`LuaScript::new("test", 1, ..)` in `#[cfg(test)]`) is no row, and a
    // test's key or run of a script no cell (coverage counts test runs
    // apart).
    let test_code = TestCode::of(a);
    let test = |span: Span| test_code.holds(span);
    let mut add = |kind: &'static str, item: String, sp: SpeakerId, spans: Vec<Span>| {
        uses.entry((kind, item))
            .or_default()
            .entry(sp)
            .or_default()
            .extend(spans);
    };
    for k in m.wire_keys().filter(|k| !test(k.template.span)) {
        let spans = k
            .template
            .segs
            .iter()
            .map(Seg::span)
            .chain(std::iter::once(k.template.span))
            .collect();
        add("key", key_shape(&k.template), k.speaker, spans);
    }
    for r in &m.records {
        for (field, list) in &r.fields {
            for u in list.iter().filter(|u| !test(u.span)) {
                add(
                    "field",
                    format!("{} {field}", r.key),
                    u.speaker,
                    vec![u.span],
                );
            }
        }
    }
    for (id, s) in m.scripts.iter().enumerate() {
        if !s.is_redis() || test(s.def_span) {
            continue;
        }
        add(
            "script",
            script_row(a, id),
            s.speaker,
            vec![s.def_span, s.lua.span],
        );
    }
    for u in m.script_calls.iter().filter(|u| !test(u.span)) {
        let mut spans = vec![u.span];
        spans.extend(u.keys.iter().map(|k| k.value.span()));
        add("script", script_row(a, u.script), u.speaker, spans);
    }
    argv_uses(a, &test, &mut add);
    uses
}

/// One row per ARGV slot of a script: the copies that read the slot and
/// the calls that pass it. A call that passes every value it has and still
/// leaves a slot the script reads empty uses that slot at the call itself
/// (where WL308 points).
fn argv_uses(
    a: &Analysis,
    test: &impl Fn(Span) -> bool,
    add: &mut impl FnMut(&'static str, String, SpeakerId, Vec<Span>),
) {
    let m = &a.model;
    let contract = a.contract.as_ref();
    let row = |id: usize, n: u32| {
        let name = script_row(a, id);
        match m.scripts[id].argv_role(n, contract) {
            Some(r) if r.source == crate::link::argv::ArgvRoleSource::Contract => {
                format!("{name} ARGV[{n}] {}", r.text)
            }
            _ => format!("{name} ARGV[{n}]"),
        }
    };
    for (id, s) in m.scripts.iter().enumerate().filter(|(_, s)| s.is_redis()) {
        if !s.body || test(s.def_span) {
            continue;
        }
        for (n, span) in &s.lua.argv.reads {
            add("argv", row(id, *n), s.speaker, vec![*span]);
        }
    }
    for u in m.script_calls.iter().filter(|u| !test(u.span)) {
        for (j, arg) in u.argv.iter().enumerate() {
            add(
                "argv",
                row(u.script, j as u32 + 1),
                u.speaker,
                vec![arg.value.span()],
            );
        }
        if !u.args_complete {
            continue;
        }
        let script = &m.scripts[u.script];
        let upper = script.argv_upper(contract).unwrap_or(0);
        for n in (u.argv.len() as u32 + 1)..=upper {
            add("argv", row(u.script, n), u.speaker, vec![u.span]);
        }
    }
}

fn script_row(a: &Analysis, id: usize) -> String {
    let s = &a.model.scripts[id];
    if let (Some(c), Some(i)) = (a.contract.as_ref(), s.contract) {
        return c.scripts[i].name.clone();
    }
    match s.names.iter().find(|n| {
        a.model
            .scripts
            .iter()
            .filter(|x| x.is_file)
            .any(|x| x.names.contains(n))
    }) {
        Some(n) => crate::extract::script_name_from_stem(n),
        None => match (s.norm_names.iter().next(), &s.sha1) {
            (Some(n), _) => n.clone(),
            // A script the code gives no name (a literal passed to EVAL):
            // known by its bytes, so that its copies share a row.
            (None, Some(sha)) => format!("<unnamed, sha1 {}>", &sha[..sha.len().min(12)]),
            // Nor by its bytes (a hole in them): by its file, and its place
            // among that file's such scripts, so that two are two rows.
            (None, None) => unnamed_row(a, id),
        },
    }
}

/// `<unnamed in lib/q.ex>`, or `<unnamed in lib/q.ex #2>` where the file
/// holds several: a script known neither by a name nor by its bytes.
fn unnamed_row(a: &Analysis, id: usize) -> String {
    let scripts = &a.model.scripts;
    let file = scripts[id].def_span.file;
    let unnamed = |s: &&crate::link::Script| {
        s.def_span.file == file && s.norm_names.is_empty() && s.sha1.is_none()
    };
    let nth = scripts[..id].iter().filter(unnamed).count() + 1;
    let path = &a.sources.get(file).rel;
    match scripts.iter().filter(unnamed).count() {
        0 | 1 => format!("<unnamed in {path}>"),
        _ => format!("<unnamed in {path} #{nth}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Hits::overlaps` answers as the pairwise test does, for nested,
    /// touching and disjoint spans over two files.
    #[test]
    fn hits_agree_with_the_pairwise_test() {
        let mut seed = 7u64;
        let mut next = |n: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as u32) % n
        };
        let span = |next: &mut dyn FnMut(u32) -> u32| {
            let file = next(2);
            let start = next(60);
            Span {
                file,
                start,
                end: start + next(20),
            }
        };
        for _ in 0..200 {
            let count = next(8);
            let findings: Vec<Span> = (0..count).map(|_| span(&mut next)).collect();
            let uses: Vec<Span> = (0..20).map(|_| span(&mut next)).collect();
            let hits = Hits::new(findings.clone());
            for u in uses {
                let pairwise = findings.iter().any(|f| overlaps(u, *f));
                assert_eq!(hits.overlaps(u), pairwise, "{u:?} against {findings:?}");
            }
        }
    }
}
