//! Shared by the fuzz targets: extract one file and check that every span
//! in its facts lies inside it.

use wirelint::facts::{FileFacts, Lang};
use wirelint::parse::Parsers;

thread_local! {
    static PARSERS: std::cell::RefCell<Parsers> =
        std::cell::RefCell::new(Parsers::new().expect("grammars load"));
}

/// Extracts `src` as `lang` and asserts the span invariant.
pub fn extract_and_check(lang: Lang, src: &[u8]) -> FileFacts {
    let facts = PARSERS.with(|p| {
        wirelint::extract::extract_file(&mut p.borrow_mut(), lang, 0, src, "enqueue")
    });
    check_spans(&facts, src.len());
    facts
}

/// Every `Span { file: 0, start: S, end: E }` in the facts' debug form has
/// `S <= E <= len`.
pub fn check_spans(facts: &FileFacts, len: usize) {
    let dbg = format!("{facts:?}");
    let mut rest = dbg.as_str();
    while let Some(i) = rest.find("Span { file: ") {
        rest = &rest[i + "Span { file: ".len()..];
        let nums: Vec<u64> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .take(3)
            .map(|s| s.parse().unwrap())
            .collect();
        let (start, end) = (nums[1], nums[2]);
        assert!(
            start <= end && end as usize <= len,
            "span {start}..{end} outside a {len}-byte file"
        );
    }
}

/// The paths a fuzz input's files may have: the first byte of each file
/// picks one (projects, each language, a contract script name, the
/// contract and `wirelint.toml`).
pub const TREE_PATHS: &[&str] = &[
    "apps/q/mix.exs",
    "apps/q/lib/q/keys.ex",
    "apps/q/lib/q/jobs.ex",
    "apps/q/priv/enqueue.lua",
    "peers/rust/Cargo.toml",
    "peers/rust/src/lib.rs",
    "peers/rust/src/queue.rs",
    "scripts/enqueue.lua",
    "scripts/ack-2.lua",
    "wirelint.toml",
    "contract.toml",
    "lib/loose.ex",
];

/// Splits a fuzz input into a tree: files separated by `\0\x01`, each
/// naming its path by its first byte ([`TREE_PATHS`]); files of one path
/// are joined.
pub fn tree_of(data: &[u8]) -> std::collections::BTreeMap<&'static str, Vec<u8>> {
    let mut tree: std::collections::BTreeMap<&'static str, Vec<u8>> = Default::default();
    let mut rest = data;
    loop {
        let (chunk, next) = match memchr_sep(rest) {
            Some(i) => (&rest[..i], Some(&rest[i + 2..])),
            None => (rest, None),
        };
        if let Some((&pick, body)) = chunk.split_first() {
            let path = TREE_PATHS[pick as usize % TREE_PATHS.len()];
            tree.entry(path).or_default().extend_from_slice(body);
        }
        match next {
            Some(n) => rest = n,
            None => return tree,
        }
    }
}

fn memchr_sep(b: &[u8]) -> Option<usize> {
    b.windows(2).position(|w| w == b"\0\x01")
}

thread_local! {
    static ROOT: tempfile::TempDir = tempfile::tempdir().expect("a temporary root");
}

/// `wirelint check` on a tree, in process, the way the command line runs
/// it: the tree's `wirelint.toml` and contract (if any), the pipeline,
/// post-processing (settings, suppressions), every output format, the
/// matrix, the observed contract; an error that ends the run is rendered as
/// the command line renders it. Asserts: no panic, every machine format
/// parses, every finding's span lies in its file on character boundaries,
/// and `extract --as-contract` gives a contract wirelint accepts.
pub fn check_tree(tree: &std::collections::BTreeMap<&'static str, Vec<u8>>) {
    use wirelint::pipeline::{analyze, post, ContractChoice, Options};
    use wirelint::report::error::RunError;
    ROOT.with(|root| {
        let root = root.path();
        let config_path = root.join("wirelint.toml");
        let settings = match tree.get("wirelint.toml") {
            Some(text) => {
                let text = String::from_utf8_lossy(text);
                match wirelint::config::Config::parse(&text, &config_path) {
                    Ok(c) => c.settings,
                    Err(e) => {
                        let e = RunError::contract(e);
                        let _ = e.text();
                        check_json(&e.json(false, wirelint::report::json::VERSION), false);
                        return;
                    }
                }
            }
            None => Default::default(),
        };
        let contract = match tree.get("contract.toml") {
            Some(text) => {
                let p = root.join("contract.toml");
                std::fs::write(&p, text).expect("the contract is written");
                ContractChoice::File(p)
            }
            None => ContractChoice::Default,
        };
        let files: Vec<(String, Vec<u8>)> = tree
            .iter()
            .filter(|(p, _)| !p.ends_with(".toml") || p.ends_with("Cargo.toml"))
            .map(|(p, b)| (p.to_string(), b.clone()))
            .collect();
        let opts = Options {
            root: root.to_path_buf(),
            paths: vec![root.to_path_buf()],
            contract,
            threads: Some(1),
            max_file_bytes: wirelint::input::DEFAULT_LIMIT,
            config: wirelint::config::Config::find_limited(root, wirelint::input::DEFAULT_LIMIT),
            settings,
            buffers: Vec::new(),
            prefilter: true,
            tree: Some(files),
            cache_dir: None,
            memo: None,
            speaker_prefix: None,
            session: None,
        };
        let mut analysis = match analyze(&opts) {
            Ok(a) => a,
            Err(wirelint::pipeline::AnalyzeError::Contract(e)) => {
                let e = RunError::contract(e);
                let _ = e.text();
                check_json(&e.json(false, wirelint::report::json::VERSION), false);
                return;
            }
            Err(wirelint::pipeline::AnalyzeError::Usage(m)) => {
                check_json(&RunError::usage(m).json(false, wirelint::report::json::VERSION), false);
                return;
            }
        };
        let p = post::Post {
            settings: &opts.settings,
            only: None,
            reported: None,
            baseline: None,
            max_bytes: opts.max_file_bytes,
        };
        post::apply(&mut analysis, &p).expect("no baseline, no error");
        report_all(&analysis);
    });
}

/// One JSON document, or (`lines`) one per line.
fn check_json(doc: &str, lines: bool) {
    if lines {
        for line in doc.lines() {
            let _: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        }
    } else {
        let _: serde_json::Value = serde_json::from_str(doc).expect("a JSON document");
    }
}

fn report_all(a: &wirelint::pipeline::Analysis) {
    use wirelint::report::{CheckRun, Format, Summary};
    for d in &a.diagnostics {
        for span in std::iter::once(&d.primary.span).chain(d.related.iter().map(|r| &r.span)) {
            let f = a.sources.get(span.file);
            let (s, e) = (span.start as usize, span.end as usize);
            assert!(s <= e && e <= f.bytes().len(), "{}: {s}..{e} in {}", d.code, f.rel);
        }
    }
    let diagnostics: Vec<_> = a.diagnostics.iter().collect();
    let matrix = wirelint::views::matrix::build(a);
    let coverage = wirelint::views::coverage::build(a, None);
    let run = CheckRun {
        analysis: a,
        diagnostics: &diagnostics,
        summary: Summary::of(a),
        matrix: Some(&matrix),
        coverage: &coverage,
        list_coverage: true,
        color: false,
        quiet: false,
    };
    for format in [
        Format::Full,
        Format::Concise,
        Format::Json,
        Format::JsonLines,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
    ] {
        let out = format.reporter().report(&run);
        let doc = out.stdout.unwrap_or_default();
        match format {
            Format::Json | Format::Sarif | Format::Gitlab => check_json(&doc, false),
            Format::JsonLines => check_json(&doc, true),
            Format::Concise => assert_eq!(doc.lines().count(), diagnostics.len(), "{doc}"),
            _ => {}
        }
    }
    let contract = wirelint::views::observe::as_contract(a, "fuzz");
    if let Err(e) = wirelint::contract::Contract::parse(&contract, "extracted.toml") {
        // An empty observation gives an empty contract; anything else must load.
        assert!(
            e.message.starts_with("the contract is empty"),
            "extract --as-contract gives a contract wirelint rejects: {}\n{contract}",
            e.message
        );
    }
    let _ = wirelint::views::observe::observe(a);
}
