//! The kinds of change `wirelint diff` reports: code, name, layer,
//! severity, and the text `wirelint explain` prints.

use crate::diagnostic::{Layer, Severity};

/// One kind of change: code, name, layer, severity, what it means.
pub struct Kind {
    pub code: &'static str,
    pub name: &'static str,
    pub layer: Layer,
    pub severity: Severity,
    pub summary: &'static str,
}

pub const KINDS: &[Kind] = &[
    Kind {
        code: "WD001",
        name: "not-compared",
        layer: Layer::Input,
        severity: Severity::Warning,
        summary: "a source file one side could not read (over `--max-file-size`, binary, unreadable), so what changed in it is not known",
    },
    Kind {
        code: "WD101",
        name: "key-removed",
        layer: Layer::L1,
        severity: Severity::Error,
        summary: "a speaker no longer sends a key template it sent at the base",
    },
    Kind {
        code: "WD102",
        name: "key-changed",
        layer: Layer::L1,
        severity: Severity::Error,
        summary:
            "a key template differs from the base's in one `:` segment (prefix, hash tag, type)",
    },
    Kind {
        code: "WD103",
        name: "key-added",
        layer: Layer::L1,
        severity: Severity::Error,
        summary: "a speaker sends a key template it did not send at the base",
    },
    Kind {
        code: "WD201",
        name: "field-removed",
        layer: Layer::L1,
        severity: Severity::Error,
        summary: "a speaker no longer writes a field of a record it still uses",
    },
    Kind {
        code: "WD202",
        name: "field-renamed",
        layer: Layer::L1,
        severity: Severity::Error,
        summary: "a written field of a record has another name than at the base",
    },
    Kind {
        code: "WD203",
        name: "field-added",
        layer: Layer::L1,
        severity: Severity::Warning,
        summary: "a speaker writes a new field in a record it already used",
    },
    Kind {
        code: "WD204",
        name: "field-read-renamed",
        layer: Layer::L1,
        severity: Severity::Error,
        summary: "a speaker reads a field of a record under another name than at the base",
    },
    Kind {
        code: "WD301",
        name: "script-keys-changed",
        layer: Layer::L2,
        severity: Severity::Error,
        summary: "a script's KEYS changed in number, order, role or use",
    },
    Kind {
        code: "WD302",
        name: "script-body-changed",
        layer: Layer::L2,
        severity: Severity::Error,
        summary: "a script's bytes changed (another SHA1)",
    },
    Kind {
        code: "WD303",
        name: "script-removed",
        layer: Layer::L2,
        severity: Severity::Error,
        summary: "a speaker no longer holds a script it held at the base",
    },
    Kind {
        code: "WD304",
        name: "script-added",
        layer: Layer::L2,
        severity: Severity::Warning,
        summary: "a speaker holds a script it did not hold at the base",
    },
    Kind {
        code: "WD305",
        name: "call-keys-changed",
        layer: Layer::L2,
        severity: Severity::Error,
        summary: "a call passes another number of keys than at the base, and not the number its script takes",
    },
];

impl Kind {
    /// What `wirelint explain WDxxx` prints.
    pub fn doc(&self) -> String {
        format!(
            "# {} {}\n\n\
             Layer {}, {} by default.\n\n\
             ## What it reports\n\
             `wirelint diff --against REF`: {}.\n\n\
             ## Why it breaks the wire\n\
             What sits below the line (key bytes, hash fields, a script's KEYS and bytes) is \
             what every speaker agrees on: a change there leaves the data the others wrote, or \
             will read, where they no longer look.\n\n\
             ## How to fix\n\
             Change every speaker in the same pull request, with a migration for the data \
             already written; or, when the removal is meant, list it under `[retired]` in the \
             contract so that `diff` accepts it.\n",
            self.code,
            self.name,
            self.layer.as_str(),
            self.severity.as_str(),
            self.summary
        )
    }
}

pub fn kind(code: &str) -> &'static Kind {
    KINDS
        .iter()
        .find(|k| k.code == code)
        .expect("a known change code")
}
