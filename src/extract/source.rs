//! What every extractor's context reads of a node the same way: its span
//! in the file, its text, a bounded label for a value the analysis cannot
//! see, and the depth-bounded walk of a subtree with the context's own
//! visitor. One definition here, so that the languages cannot drift apart
//! in how a span or a label is made.

use tree_sitter::Node;

use crate::facts::{FileId, Span};

/// The bytes of a label at the most: labels are for messages, and a huge
/// expression must not be copied at every level of a value (a 32,000-step
/// Elixir pipe made that quadratic in memory, 3.9 GB).
const MAX_LABEL: usize = 200;

/// A context over one file's bytes: give its bytes and its id, and get the
/// node readers every extractor uses.
pub(crate) trait Source {
    /// The bytes and the id of the file being extracted.
    fn source(&self) -> (&[u8], FileId);

    /// A node's bytes as a span of the file.
    fn span(&self, n: Node<'_>) -> Span {
        Span::new(self.source().1, n.start_byte(), n.end_byte())
    }

    /// A node's text (lossy where it is not UTF-8).
    fn text(&self, n: Node<'_>) -> String {
        crate::parse::text(n, self.source().0).into_owned()
    }

    /// A node's text for a hole's label, its first [`MAX_LABEL`] bytes.
    fn label(&self, n: Node<'_>) -> String {
        let src = self.source().0;
        let end = n.end_byte().min(n.start_byte() + MAX_LABEL).min(src.len());
        String::from_utf8_lossy(&src[n.start_byte().min(end)..end]).into_owned()
    }
}

/// Walks the subtree at `n` with `visit` (which says whether to descend
/// into a node), one level deeper in `*depth(cx)`; beyond `max` levels it
/// walks nothing. The visitors that call back here (a nested definition,
/// a closure) are what the bound stops.
pub(crate) fn walk_sub<C>(
    cx: &mut C,
    n: Node<'_>,
    max: usize,
    depth: fn(&mut C) -> &mut usize,
    mut visit: impl FnMut(&mut C, Node<'_>) -> bool,
) {
    if *depth(cx) > max {
        return;
    }
    *depth(cx) += 1;
    crate::parse::walk(n, |m| visit(cx, m));
    *depth(cx) -= 1;
}
