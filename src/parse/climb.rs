//! Parents of nodes found by descents from the root ([`Climb`]).

use std::collections::HashMap;

use tree_sitter::Node;

/// Parents found by descents from the root, for the climbs an extractor
/// makes from one node after another. Each `Node::parent` call is itself a
/// descent from the root, so climbing from every command of a deep tree
/// was quadratic; here the path of the last descent is kept, a climb along
/// it costs nothing, and a node below it costs only the rest of the way
/// down. A node of another tree gets its `parent()`.
pub struct Climb<'t> {
    /// `path[0]` is the root; each next node a child of the one before.
    path: Vec<Node<'t>>,
    /// Nodes the descent did not find, answered by `parent()`.
    pub(super) missed: usize,
    /// The children of nodes with more than [`WIDE`], by node id: a
    /// descent through a wide node (an `ERROR` of every token of a broken
    /// file) finds its child by binary search.
    wide: HashMap<usize, Vec<Node<'t>>>,
}

/// The child count from which a node's children are kept for the climbs.
const WIDE: u32 = 32;

impl<'t> Climb<'t> {
    pub fn new(root: Node<'t>) -> Self {
        Climb {
            path: vec![root],
            missed: 0,
            wide: HashMap::new(),
        }
    }

    /// `n`'s parent. `n` may come from another tree (the tokens of a macro
    /// parsed again): the descent then fails and `parent()` answers.
    pub fn parent<'n>(&mut self, n: Node<'n>) -> Option<Node<'n>>
    where
        't: 'n,
    {
        let (s, e, id) = (n.start_byte(), n.end_byte(), n.id());
        // Back up the path to `n` itself or to a node that holds more than
        // `n` (a node of `n`'s range may be above or below it).
        while self.path.len() > 1 {
            let last = self.path[self.path.len() - 1];
            if last.id() == id {
                return Some(self.path[self.path.len() - 2]);
            }
            let (ls, le) = (last.start_byte(), last.end_byte());
            if ls <= s && e <= le && (ls, le) != (s, e) {
                break;
            }
            self.path.pop();
        }
        if self.path[0].id() == id {
            return None;
        }
        let depth = self.path.len();
        loop {
            let cur = self.path[self.path.len() - 1];
            match self.child_holding(cur, s, e, id) {
                Some(c) if c.id() == id => return Some(cur),
                Some(c) => self.path.push(c),
                None => {
                    self.path.truncate(depth);
                    self.missed += 1;
                    return n.parent();
                }
            }
        }
    }

    /// The child of `p` that is node `id` or holds the range `s..e`.
    fn child_holding(&mut self, p: Node<'t>, s: usize, e: usize, id: usize) -> Option<Node<'t>> {
        if p.child_count() > WIDE {
            let kids = self.wide.entry(p.id()).or_insert_with(|| {
                let mut cursor = p.walk();
                p.children(&mut cursor).collect()
            });
            let from = kids.partition_point(|c| c.end_byte() < s);
            return kids[from..]
                .iter()
                .copied()
                .find_map(|c| holds(c, s, e, id))
                .flatten();
        }
        // From the child that holds the byte before `s`: an empty node at
        // `s` may end a child that does not hold the byte `s` itself.
        let mut cursor = p.walk();
        cursor.goto_first_child_for_byte(s.saturating_sub(1))?;
        loop {
            if let Some(found) = holds(cursor.node(), s, e, id) {
                return found;
            }
            if !cursor.goto_next_sibling() {
                return None;
            }
        }
    }
}

/// For a child `c` in order: `Some(Some(c))` when it is node `id` or holds
/// `s..e`, `Some(None)` when it starts past `s` (no later child can hold
/// it), `None` to look further.
fn holds(c: Node<'_>, s: usize, e: usize, id: usize) -> Option<Option<Node<'_>>> {
    if c.id() == id {
        return Some(Some(c));
    }
    let (cs, ce) = (c.start_byte(), c.end_byte());
    if cs > s {
        return Some(None);
    }
    (e <= ce).then_some(Some(c))
}
