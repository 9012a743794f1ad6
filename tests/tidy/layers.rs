//! The layers of `src/`, lowest first: what `tests/tidy.rs` holds the
//! imports to and `tests/map.rs` holds `docs/ARCHITECTURE.md`'s table to.

/// The layers, lowest first. A module belongs to the layer of the longest
/// entry its path starts with (`pipeline::files` is in `files`, the rest of
/// `pipeline` in `pipeline`), and may import (`crate::…`, `super::…`,
/// `self::…`, or a child module's name) only from its own layer and the
/// layers below. The crate root (`lib.rs`) declares the modules and sits
/// above them all.
pub const LAYERS: &[(&str, &[&str])] = &[
    // The language-neutral model: facts, Redis commands, the file table,
    // findings and the rule codes; bounded reads of regular files; the
    // hash maps of the hot paths; the allocator.
    (
        "model",
        &[
            "facts",
            "redis",
            "source",
            "diagnostic",
            "input",
            "hash",
            "memory",
        ],
    ),
    // The contract and the reading of keys against its keyspace;
    // `wirelint.toml`.
    ("contract", &["contract", "keyshape", "config"]),
    // tree-sitter grammars and parsers.
    ("parse", &["parse"]),
    // The only code that knows a language: trees to facts.
    ("extract", &["extract"]),
    // Which files a run reads and where their bytes come from.
    ("files", &["discover", "pipeline::files", "pipeline::git"]),
    // From per-file facts to one model.
    ("link", &["link"]),
    // One rule per file, one registry.
    ("checks", &["checks"]),
    // The run: prefilter, reading, selection, analysis.
    ("pipeline", &["pipeline"]),
    // What happens to the findings after the checks.
    ("post", &["pipeline::post", "post", "scope"]),
    // Views of an analysis: the observed contract, the matrix, a diff of
    // two analyses, coverage.
    ("views", &["views"]),
    // Formats; they never decide.
    ("report", &["report"]),
    // `wirelint audit`: a live keyspace against the contract (it reads a
    // code base through the pipeline only for `--from-code`, and prints
    // through the reporters).
    ("audit", &["audit"]),
    // `wirelint server`: the pipeline behind the Language Server Protocol.
    ("server", &["server"]),
    // The command line.
    ("cli", &["cli", "main"]),
];
