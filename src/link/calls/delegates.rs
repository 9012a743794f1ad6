//! Delegates: a function whose body only calls another with its own
//! parameters, in order, and gives back what it gives (`return g(a, b)`,
//! `def f(a, b) = g(a, b)`, a body moved into a helper the original now
//! calls). A call through it is the other's call: the same invocation,
//! listed once, where the other makes it. So the script calls a delegate's
//! call binds are never call sites of their own (they still bind on into
//! the delegate's callers), and the function it delegates to counts as
//! called only when something calls the delegate.

use crate::facts::{FileFacts, FileId, Value};
use crate::hash::{HashMap, HashSet};
use crate::link::LinkInput;

/// How many delegates of delegates are followed (a cycle reads as bound).
const MAX_DEPTH: usize = 8;

/// A function, by file and index.
type Key = (FileId, usize);

/// Whether function `f` of `facts` only delegates: it returns a call of
/// its parameters, in order, which is the one call its body makes, and it
/// sends no command and runs no script itself.
pub(super) fn is_delegate(facts: &FileFacts, f: usize) -> bool {
    let Some(def) = facts.functions.get(f) else {
        return false;
    };
    let Value::Call { path, args, .. } = &def.returns else {
        return false;
    };
    let passes_on = args.len() == def.params.len()
        && args
            .iter()
            .enumerate()
            .all(|(i, a)| matches!(a, Value::Param { index, .. } if *index == i));
    let mut calls = facts.calls.iter().filter(|c| c.func == Some(f));
    let one_call = match (calls.next(), calls.next()) {
        (Some(c), None) => c.path == *path && c.args.len() == args.len() && c.receiver.is_none(),
        _ => false,
    };
    passes_on
        && one_call
        && !facts.commands.iter().any(|c| c.func == Some(f))
        && !facts.script_calls.iter().any(|c| c.func == Some(f))
}

/// Who binds each wrapper: the functions whose calls of it bound its
/// script calls (`None`: a call outside any function).
#[derive(Default)]
pub(super) struct Callers {
    of: HashMap<Key, HashSet<Option<Key>>>,
}

/// How a wrapper's script calls stand once every call is bound.
pub(super) enum Standing {
    /// Bound by a call that is no delegate's (or by a delegate so bound):
    /// its callers are the invocations.
    Bound,
    /// Called by no one but delegates nobody binds (itself when there are
    /// none): a call site in its own right, the outermost delegate's name
    /// its public name.
    Unbound(Key),
}

impl Callers {
    pub(super) fn add(&mut self, target: Key, caller: Option<Key>) {
        self.of.entry(target).or_default().insert(caller);
    }

    /// How `key`'s script calls stand: bound when a caller that is not a
    /// delegate binds it, or a delegate that stands bound.
    pub(super) fn standing(
        &self,
        input: &LinkInput<'_>,
        key: Key,
        delegates: &mut HashMap<Key, bool>,
    ) -> Standing {
        self.standing_within(input, key, delegates, 0)
    }

    fn standing_within(
        &self,
        input: &LinkInput<'_>,
        key: Key,
        delegates: &mut HashMap<Key, bool>,
        depth: usize,
    ) -> Standing {
        let mut at = key;
        let mut seen = HashSet::default();
        loop {
            let Some(callers) = self.of.get(&at).filter(|c| !c.is_empty()) else {
                return Standing::Unbound(at);
            };
            if !seen.insert(at) || depth > MAX_DEPTH {
                return Standing::Bound;
            }
            let mut through = Vec::new();
            for c in callers {
                match c {
                    Some(c) if delegate(input, *c, delegates) => through.push(*c),
                    _ => return Standing::Bound,
                }
            }
            through.sort_unstable();
            // Each is a delegate: bound when one of them is (the first
            // one read, for a stable answer, when none is).
            if through.iter().skip(1).any(|d| {
                let s = self.standing_within(input, *d, delegates, depth + 1);
                matches!(s, Standing::Bound)
            }) {
                return Standing::Bound;
            }
            at = through[0];
        }
    }
}

/// Whether the function at `key` only delegates (memoized).
pub(super) fn delegate(input: &LinkInput<'_>, key: Key, memo: &mut HashMap<Key, bool>) -> bool {
    *memo.entry(key).or_insert_with(|| {
        input
            .facts
            .iter()
            .find(|(f, _)| *f == key.0)
            .is_some_and(|(_, facts)| is_delegate(facts, key.1))
    })
}
