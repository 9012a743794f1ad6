//! What checks return: findings with byte spans, never text positions.

use crate::facts::Span;

/// Every rule code, in code order: what `wirelint.toml` and inline
/// suppressions may name. The rules themselves live in `checks::RULES`,
/// above the configuration; `tests/tidy.rs` holds the two lists equal.
pub const RULE_CODES: &[&str] = &[
    "WL001", "WL002", "WL101", "WL102", "WL103", "WL104", "WL105", "WL201", "WL202", "WL203",
    "WL204", "WL301", "WL302", "WL303", "WL304", "WL305", "WL306", "WL307", "WL308", "WL309",
    "WL310", "WL311", "WL312",
];

/// Every code of `wirelint audit`'s rules, in code order: what
/// `wirelint.toml`'s `select` and `ignore` may name besides
/// [`RULE_CODES`]. The rules live in `audit::rules::RULES`, above the
/// configuration; `tests/tidy.rs` holds the two lists equal.
pub const AUDIT_CODES: &[&str] = &[
    "WA101", "WA102", "WA103", "WA104", "WA201", "WA202", "WA301", "WA302",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a rule sits: L1 keys and fields, L2 scripts, or wirelint's own
/// notes about the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    Input,
    L1,
    L2,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Input => "input",
            Layer::L1 => "L1",
            Layer::L2 => "L2",
        }
    }
}

/// A labelled span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

impl Label {
    pub fn new(span: Span, message: impl Into<String>) -> Label {
        Label {
            span,
            message: message.into(),
        }
    }
}

/// One edit: `text` in place of the bytes of `span` (an empty `text`
/// deletes them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// Whether a fix may be applied without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// The contract, the canonical speaker or every other speaker names the
    /// bytes: `check --fix` applies it.
    Safe,
    /// A suggestion that may change what the code means: only with
    /// `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// The edits that fix a finding, in one or more files, applied together
/// or not at all. Checks compute them; `check --fix`, the reporters and
/// the server apply or offer them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the edits do, as a title: "replace `emk:` with `emq:`".
    pub message: String,
    /// Non-overlapping edits.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// One edit.
    pub fn one(applicability: Applicability, message: impl Into<String>, edit: Edit) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits: vec![edit],
        }
    }
}

/// Who can still find or read the data after the divergence.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Impact {
    pub breaks: Vec<String>,
    pub unaffected: Vec<String>,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub layer: Layer,
    pub message: String,
    /// On the diverging bytes.
    pub primary: Label,
    /// The contract entry, or the agreeing speaker's code.
    pub related: Vec<Label>,
    pub help: Option<String>,
    /// The speaker whose code holds the primary span.
    pub speaker: Option<String>,
    pub impact: Option<Impact>,
    /// The edits that fix it, where the fix has one right answer.
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// Order of output: path (by file table order, which is sorted by
    /// path), then offset, then code.
    pub fn sort_key(&self) -> (u32, u32, &'static str, u32, &str) {
        (
            self.primary.span.file,
            self.primary.span.start,
            self.code,
            self.primary.span.end,
            &self.message,
        )
    }
}
