//! A format string filled, read the same way for every language's
//! formatting (`fmt.Sprintf`, Ruby's `format` and `%`, Python's `%` and
//! `.format`): the template's literal pieces are read character by
//! character, each character that opens a directive handed to the
//! language's reader of one, which writes literal text, an argument's
//! value or a hole in its place ([`Filled`]); what is not literal stays as
//! it is.

use std::iter::Peekable;
use std::str::Chars;

use crate::extract::parts::segs_of;
use crate::facts::{Seg, Span, Template, Value};

/// What a format's literal pieces are read into.
pub(crate) struct Filled {
    segs: Vec<Seg>,
    /// The literal text since the last value.
    lit: String,
    /// The span of the literal piece being read.
    at: Span,
}

impl Filled {
    /// The span of the literal piece being read: a directive's hole's.
    pub(crate) fn at(&self) -> Span {
        self.at
    }

    /// A character of literal text.
    pub(crate) fn push(&mut self, c: char) {
        self.lit.push(c);
    }

    /// A value in place of a directive: the literal text before it, then
    /// the value's pieces.
    pub(crate) fn value(&mut self, v: Value) {
        self.flush();
        self.segs.extend(segs_of(v));
    }

    /// A hole labelled `label` in place of a directive.
    pub(crate) fn hole(&mut self, label: &str) {
        self.flush();
        self.segs.push(Seg::Hole {
            label: label.into(),
            span: self.at,
        });
    }

    fn flush(&mut self) {
        crate::extract::push_lit(&mut self.segs, &std::mem::take(&mut self.lit), self.at);
    }
}

/// `t` filled: each character of its literal pieces that is one of
/// `marks` handed to `directive` (with the characters after it, to read
/// the rest of the directive from), every other character kept.
pub(crate) fn fill(
    t: Template,
    span: Span,
    marks: &[char],
    mut directive: impl FnMut(char, &mut Peekable<Chars<'_>>, &mut Filled),
) -> Template {
    let mut out = Filled {
        segs: Vec::new(),
        lit: String::new(),
        at: span,
    };
    for s in t.segs {
        let Seg::Lit { text, span: ls } = s else {
            out.segs.push(s);
            continue;
        };
        out.at = ls;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if marks.contains(&c) {
                directive(c, &mut chars, &mut out);
            } else {
                out.push(c);
            }
        }
        out.flush();
    }
    Template {
        segs: out.segs,
        span,
    }
}
