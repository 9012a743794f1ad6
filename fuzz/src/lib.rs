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
