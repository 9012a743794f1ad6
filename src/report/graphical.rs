//! The miette adapter that the graphical reports share (`human` for
//! findings, `diff` for changes): a report [`Part`] over a named source, the
//! labels on its bytes, the severity, and the handler's settings.

use std::fmt;

use miette::{Diagnostic as MietteDiagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan};

use crate::diagnostic::Severity;
use crate::facts::Span;
use crate::source::SourceFile;

/// One file's part of a report; `related` parts are shown nested.
#[derive(Debug)]
pub struct Part<S> {
    pub message: String,
    pub code: Option<String>,
    pub severity: miette::Severity,
    pub help: Option<String>,
    pub source: S,
    pub labels: Vec<LabeledSpan>,
    pub related: Vec<Part<S>>,
}

impl<S> Part<S> {
    /// A part with no code or help, of advice severity.
    pub fn advice(message: String, source: S, labels: Vec<LabeledSpan>) -> Part<S> {
        Part {
            message,
            code: None,
            severity: miette::Severity::Advice,
            help: None,
            source,
            labels,
            related: Vec::new(),
        }
    }
}

impl<S> fmt::Display for Part<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<S: fmt::Debug> std::error::Error for Part<S> {}

impl<S: miette::SourceCode + fmt::Debug> MietteDiagnostic for Part<S> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn MietteDiagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|p| p as &dyn MietteDiagnostic),
        ))
    }
}

/// The handler: Unicode, coloured or not, no links, `width` columns,
/// related parts nested.
pub fn handler(color: bool, width: usize) -> GraphicalReportHandler {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_urls(false)
        .with_width(width)
        .with_show_related_as_nested(true)
        .tab_width(4)
}

/// Renders `part` onto `out`, every line through [`super::escape::lines`]
/// (wrapping may cut a long word from outside where it likes).
pub fn render<S: miette::SourceCode + fmt::Debug>(
    handler: &GraphicalReportHandler,
    out: &mut String,
    part: &Part<S>,
) -> fmt::Result {
    let mut one = String::new();
    handler.render_report(&mut one, part)?;
    out.push_str(&super::escape::lines(&one));
    Ok(())
}

/// miette's severity for ours.
pub fn severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    }
}

/// Lines longer than this (bytes of display text) are cut to windows
/// around the labels: miette lays a label out with a format width, which
/// cannot pass 65,535 columns, and nobody reads a 70,000-column line.
const LONG_LINE: usize = 400;
/// Bytes kept on each side of a label's start and end on a cut line.
const AROUND: usize = 60;
/// At most this many windows on one cut line.
const MAX_WINDOWS: usize = 64;

/// The part of a file that one report shows, as miette reads it: the lines
/// around its labels (not the whole file, which each report would copy),
/// as display text (invalid UTF-8 replaced, control characters shown as
/// their pictures so that no file drives the terminal), long lines cut to
/// windows around the labels. Line numbers and the header's column are the
/// file's own (columns in Unicode scalar values, as in every format).
#[derive(Debug)]
pub struct Excerpt {
    name: String,
    text: String,
    /// The file's line number (0-based) of the excerpt's first line.
    first_line: usize,
    /// Per label start in the excerpt: the file's 0-based column.
    columns: Vec<(usize, usize)>,
}

impl Excerpt {
    /// The lines of `f` around `spans` (with `context` lines each side),
    /// and each span's range in the excerpt, in order.
    pub fn new(
        name: String,
        f: &SourceFile,
        spans: &[Span],
        context: usize,
    ) -> (Excerpt, Vec<std::ops::Range<usize>>) {
        let lines: Vec<(usize, usize)> = spans
            .iter()
            .map(|s| (f.line_col(s.start).line - 1, f.line_col(s.end).line - 1))
            .collect();
        let first = lines
            .iter()
            .map(|l| l.0)
            .min()
            .unwrap_or(0)
            .saturating_sub(context);
        let last = lines.iter().map(|l| l.1).max().unwrap_or(0) + context;
        let (from, to) = (f.line_start(first), f.line_end(last));
        let clip = clip(f, from, to, spans);
        let (from, to, first) = (clip.from, clip.to, clip.first_line.unwrap_or(first));
        // Text that displays as itself (the common case) is not decoded
        // again per label: thousands of findings on one long line made that
        // quadratic (one HSET with 8,000 unknown fields: 9 s).
        let plain = plain_text(&f.bytes()[from..to]);
        let shown = |a: u32, b: u32| {
            let (a, b) = ((a as usize).clamp(from, to), (b as usize).clamp(from, to));
            if plain.is_some() {
                return (a - from, b.max(a) - from);
            }
            (
                crate::source::display_text(&f.bytes()[from..a]).len(),
                crate::source::display_text(&f.bytes()[from..b.max(a)]).len(),
            )
        };
        let mut text = String::with_capacity(to - from + 1);
        match plain {
            Some(t) => text.push_str(t),
            None => text.push_str(&crate::source::display_text(&f.bytes()[from..to])),
        }
        // A clipped line is still cut to windows [`MARGIN`] inside its
        // ends, which `cut_long_lines` marks with `…` as it does the line's
        // own ends; it needs the line's end to mark the last.
        if clip.tail {
            text.push('\n');
        }
        let ranges: Vec<(usize, usize)> = spans.iter().map(|s| shown(s.start, s.end)).collect();
        let points: Vec<usize> = ranges.iter().flat_map(|&(a, b)| [a, b]).collect();
        let (text, map) = cut_long_lines(&text, &points);
        let ranges: Vec<std::ops::Range<usize>> = ranges
            .iter()
            .map(|&(a, b)| map(a)..map(b).max(map(a)))
            .collect();
        let columns = spans
            .iter()
            .zip(&ranges)
            .map(|(s, r)| (r.start, f.line_col(s.start).column - 1))
            .collect();
        (
            Excerpt {
                name,
                text,
                first_line: first,
                columns,
            },
            ranges,
        )
    }
}

impl miette::SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        // Without context lines miette reads the header's line and column;
        // with them (the snippet) its own byte columns lay out the
        // underlines and stay as they are.
        let column = match (before, after) {
            (0, 0) => self
                .columns
                .iter()
                .find(|(at, _)| *at == span.offset())
                .map_or(inner.column(), |c| c.1),
            _ => inner.column(),
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            inner.line_count(),
        )))
    }
}

/// An excerpt's bytes when its lines are longer than [`CLIP_AT`]: only
/// [`MARGIN`] bytes around its spans are read, decoded and copied. Each of
/// 87,000 findings on one 1 MB line read the whole line (28 s).
struct Clip {
    from: usize,
    to: usize,
    /// It ends inside a line.
    tail: bool,
    /// The file's line (0-based) of `from`, when clipped.
    first_line: Option<usize>,
}

const CLIP_AT: usize = 16 << 10;
const MARGIN: usize = 1 << 10;

fn clip(f: &SourceFile, from: usize, to: usize, spans: &[Span]) -> Clip {
    let whole = Clip {
        from,
        to,
        tail: false,
        first_line: None,
    };
    let bytes = f.bytes();
    let (Some(lo), Some(hi)) = (
        spans.iter().map(|s| s.start as usize).min(),
        spans.iter().map(|s| s.end as usize).max(),
    ) else {
        return whole;
    };
    if to.saturating_sub(from) <= CLIP_AT || to > bytes.len() {
        return whole;
    }
    // On character boundaries: never inside a UTF-8 sequence.
    let boundary = |i: usize| bytes.get(i).is_none_or(|b| b & 0xc0 != 0x80);
    let mut a = lo.saturating_sub(MARGIN).clamp(from, to);
    while a > from && !boundary(a) {
        a -= 1;
    }
    let mut b = hi.saturating_add(MARGIN).clamp(a, to);
    while b < to && !boundary(b) {
        b += 1;
    }
    let line = f.line_col(a as u32).line - 1;
    let end_line = f.line_col(b as u32).line - 1;
    Clip {
        from: a,
        to: b,
        tail: b < f.line_end(end_line) && !bytes[..b].ends_with(b"\n"),
        first_line: Some(line),
    }
}

/// `bytes` as text when [`crate::source::display_text`] would show them
/// unchanged: valid UTF-8 without control characters other than tab and
/// line ends (C0, DEL, and C1, which UTF-8 writes as `C2 80`..`C2 9F`).
fn plain_text(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    // Folded in blocks rather than stopped at the first hit, so that the
    // compiler can vectorise it.
    let c0 = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f;
    let control = bytes
        .chunks(4096)
        .any(|c| c.iter().fold(false, |hit, &b| hit | c0(b)))
        || memchr::memchr_iter(0xc2, bytes)
            .any(|i| bytes.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)));
    (!control).then_some(text)
}

/// Cuts every line over [`LONG_LINE`] bytes to windows around `points`,
/// joined by `…`; returns the text and the map of old offsets to new.
fn cut_long_lines(text: &str, points: &[usize]) -> (String, impl Fn(usize) -> usize) {
    // Kept pieces: (old start, old end, new start).
    let mut kept: Vec<(usize, usize, usize)> = Vec::new();
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut at = 0usize;
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        if end - at <= LONG_LINE {
            kept.push((at, end, out.len()));
            out.push_str(&text[at..end]);
        } else {
            for (a, b) in windows(text, at, end, points) {
                if a > at && kept.last().is_none_or(|k| k.1 < a) {
                    out.push('…');
                }
                kept.push((a, b, out.len()));
                out.push_str(&text[a..b]);
            }
            if !out.ends_with('\n') && text[..end].ends_with('\n') {
                out.push_str("…\n");
            }
        }
        at = end;
    }
    let map = move |p: usize| {
        let i = kept.partition_point(|k| k.0 <= p);
        match i.checked_sub(1).map(|i| kept[i]) {
            Some((a, b, n)) if p <= b => n + (p - a),
            Some((_, _, n)) => n,
            None => 0,
        }
    };
    (out, map)
}

/// The windows of one long line `[from, to)` around the points on it,
/// merged, on character boundaries; the line's end (`\n`) is kept.
fn windows(text: &str, from: usize, to: usize, points: &[usize]) -> Vec<(usize, usize)> {
    let body_end = if text[..to].ends_with('\n') {
        to - 1
    } else {
        to
    };
    let floor = |mut i: usize| {
        while i > from && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while i < body_end && !text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut w: Vec<(usize, usize)> = points
        .iter()
        .filter(|&&p| p >= from && p <= body_end)
        .take(MAX_WINDOWS)
        .map(|&p| {
            (
                floor(p.saturating_sub(AROUND).max(from)),
                ceil((p + AROUND).min(body_end)),
            )
        })
        .collect();
    w.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in w {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    if let Some(last) = merged.last_mut() {
        if last.1 == body_end {
            last.1 = to;
        }
    }
    merged
}

/// A label on the excerpt's range of one span.
pub fn label(range: std::ops::Range<usize>, text: Option<String>, primary: bool) -> LabeledSpan {
    if primary {
        LabeledSpan::new_primary_with_span(text, range)
    } else {
        LabeledSpan::new_with_span(text, range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_what_display_text_leaves_unchanged() {
        for bytes in [
            "a\tb\r\nc é ☃ 𝄞".as_bytes(),
            b"a\x1bb",
            b"a\x7fb",
            "a\u{85}b".as_bytes(),
            b"a\xffb",
            b"a\x00",
        ] {
            let shown = crate::source::display_text(bytes);
            let same = shown.as_bytes() == bytes;
            assert_eq!(plain_text(bytes).is_some(), same, "{bytes:?}");
        }
    }

    #[test]
    fn long_lines_are_cut_around_labels() {
        let line = format!("{}KEY{}\nnext\n", "a".repeat(70_000), "b".repeat(70_000));
        let (text, map) = cut_long_lines(&line, &[70_000, 70_003]);
        assert_eq!(
            text,
            format!("…{}KEY{}…\nnext\n", "a".repeat(60), "b".repeat(60))
        );
        assert_eq!(&text[map(70_000)..map(70_003)], "KEY");
        assert_eq!(&text[map(140_004)..], "next\n");
    }

    #[test]
    fn a_finding_past_column_65535_renders() {
        let bytes = format!(
            "{}redis.call('GET','emq:{{q}}:jobz')\n",
            "local a=1;".repeat(7000)
        );
        let f = SourceFile::new("min.lua".into(), "min.lua".into(), None, bytes.into_bytes());
        let span = Span {
            file: 0,
            start: 70_026,
            end: 70_030,
        };
        let (src, ranges) = Excerpt::new("min.lua".into(), &f, &[span], 1);
        let part = Part::advice(
            "key".into(),
            src,
            vec![label(ranges[0].clone(), Some("here".into()), true)],
        );
        let mut out = String::new();
        handler(false, 100).render_report(&mut out, &part).unwrap();
        assert!(out.contains("[min.lua:1:70027]"), "{out}");
        assert!(out.contains("jobz"), "{out}");
        assert!(out.lines().all(|l| l.chars().count() < 200), "{out}");
    }

    /// On a line longer than [`CLIP_AT`], an excerpt reads only the bytes
    /// around its span, and shows what the whole line would have shown.
    #[test]
    fn an_excerpt_of_a_long_line_reads_only_around_its_span() {
        let bytes = format!(
            "x = 1\n{}KEY{}\nnext\n",
            "a".repeat(70_000),
            "b".repeat(70_000)
        );
        let f = SourceFile::new("l.lua".into(), "l.lua".into(), None, bytes.into_bytes());
        let span = Span {
            file: 0,
            start: 70_006,
            end: 70_009,
        };
        let (src, ranges) = Excerpt::new("l.lua".into(), &f, &[span], 1);
        assert_eq!(src.first_line, 1);
        assert_eq!(
            src.text,
            format!("…{}KEY{}…\n", "a".repeat(60), "b".repeat(60))
        );
        assert_eq!(&src.text[ranges[0].clone()], "KEY");
        assert_eq!(src.columns, vec![(ranges[0].start, 70_000)]);
    }
}
