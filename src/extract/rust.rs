//! Rust extractor (stub until the full extractor lands).

use crate::facts::{FileFacts, FileId};
use crate::parse::Parsers;
use tree_sitter::Node;

pub fn extract(_root: Node<'_>, _src: &[u8], _file: FileId, _parsers: &mut Parsers) -> FileFacts {
    FileFacts::default()
}
