//! What a long-lived process (`wirelint server`) keeps between its runs
//! besides the facts (`super::cache::Memo`): the files discovery found
//! (`super::files::Discovered`), until it is told the file list changed,
//! and what the last link kept per speaker (`crate::link::LinkMemo`).

/// Passed to each run as `Options::session`.
#[derive(Debug, Default)]
pub struct Session {
    pub discovered: super::files::Discovered,
    pub link: crate::link::LinkMemo,
}
