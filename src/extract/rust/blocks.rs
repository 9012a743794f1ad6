//! Block expressions as values. A block is its tail expression, evaluated
//! in the environment its own statements extend: its `let`s bind, and the
//! statements that grow a local `String` (`push_str`, `push`, `+=`,
//! `write!`, `writeln!`) or a local `Vec` (`push`, `extend`,
//! `extend_from_slice`, `append`) change what that local holds, in order.
//!
//! ```text
//! { let mut b = String::new(); b.push_str("emq:{"); write!(b, "{q}}}").unwrap(); b }
//! ```
//!
//! is the template `emq:{<q>}`. Evaluation leaves the walk's scope as it
//! found it: the locals a block binds or changes are restored after it
//! (the walk itself keeps the effects of the statements it visits).
//!
//! What a statement does to a local is known only in straight-line code.
//! A change the block cannot follow (a push in a loop or a branch, a
//! method that is not a read, `&mut b` handed on, an assignment) leaves a
//! hole: a string grown there gets a hole where the code appends, a list a
//! tail that cannot be counted, anything else is unknown. A local of an
//! enclosing scope changed inside the block is unknown in it (the walk may
//! have applied that change already).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::facts::{Seg, Span, Template, Value};
use crate::parse::{children, named_children};

use super::values::append_value;
use super::{args_of, is_comment, method_of, peel_ref, Cx, MAX_DEPTH};

/// Statements of one block that are evaluated; a longer block is unknown.
const MAX_STATEMENTS: usize = 256;

/// Nodes of one statement searched for changes of locals; past it, every
/// local the block holds is taken as changed.
const MAX_SCAN: usize = 4096;

/// Items a list is kept exact for; past it, its tail is open.
const MAX_ITEMS: usize = 64;

/// Methods that read their receiver and leave it as it was.
const READS: &[&str] = &[
    "len",
    "is_empty",
    "as_str",
    "as_bytes",
    "as_ref",
    "as_slice",
    "as_deref",
    "borrow",
    "deref",
    "clone",
    "cloned",
    "copied",
    "to_string",
    "to_owned",
    "to_vec",
    "into",
    "into_owned",
    "into_iter",
    "iter",
    "chars",
    "bytes",
    "lines",
    "split",
    "trim",
    "contains",
    "starts_with",
    "ends_with",
    "find",
    "get",
    "first",
    "last",
    "join",
    "concat",
    "capacity",
    "to_lowercase",
    "to_uppercase",
    "eq",
    "cmp",
];

/// Methods that append to their receiver: in straight-line code what they
/// append is known, elsewhere a hole is.
const APPENDS: &[&str] = &["push_str", "push", "extend", "extend_from_slice", "append"];

/// A change of a local that a statement makes and the block cannot follow:
/// the local, and whether it is an append (so what came before stays).
type Change = (String, bool);

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The value of a block expression: its statements run in order over
    /// its own locals, then its tail expression.
    pub(super) fn block_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let stmts: Vec<Node<'_>> = named_children(n)
            .into_iter()
            .filter(|c| !is_comment(*c))
            .collect();
        let Some((last, body)) = stmts.split_last() else {
            return Value::unknown(self.label(n), span);
        };
        let tail = match tail_expression(*last) {
            Some(t) if stmts.len() <= MAX_STATEMENTS && d <= MAX_DEPTH => t,
            _ => return Value::unknown(self.label(n), span),
        };
        let mut env = Env::default();
        for s in body {
            self.block_statement(*s, d, &mut env);
        }
        let v = self.value(tail, d);
        env.restore(self);
        v
    }

    /// One statement of a block, run over the block's environment.
    fn block_statement(&mut self, s: Node<'_>, d: usize, env: &mut Env) {
        match s.kind() {
            "let_declaration" => self.block_let(s, d, env),
            "expression_statement" => {
                let Some(e) = named_children(s).into_iter().find(|c| !is_comment(*c)) else {
                    return;
                };
                if !self.block_change(e, d, env) {
                    self.block_unknown_changes(e, None, env);
                }
            }
            k if k.ends_with("_item") || k == "empty_statement" => {}
            _ => self.block_unknown_changes(s, None, env),
        }
    }

    /// `let p = v;`: the names of `p` bound to `v` (a name alone) or
    /// unknown (a pattern), after what `v` changes.
    fn block_let(&mut self, s: Node<'_>, d: usize, env: &mut Env) {
        let value = s.child_by_field_id(F.value);
        let pattern = s.child_by_field_id(F.pattern);
        // `let _ = write!(b, ..);` is the write.
        if let (Some(v), Some(p)) = (value, pattern) {
            if self.text(p) == "_" && self.block_change(v, d, env) {
                return;
            }
        }
        let bound = match value {
            Some(v) => {
                let bound = self.value(v, d);
                self.block_unknown_changes(v, None, env);
                if let Some(alt) = s.child_by_field_id(F.alternative) {
                    self.block_unknown_changes(alt, None, env);
                }
                bound
            }
            None => Value::unknown(self.label(s), self.span(s)),
        };
        let Some(p) = pattern else {
            return;
        };
        match self.pattern_name(p) {
            Some(name) => {
                let string = value.is_some_and(|v| self.makes_string(s, unwrap_try(v)));
                env.bind(self, &name, bound, string);
            }
            None => {
                for name in pattern_names(p, self.src) {
                    let unknown = Value::unknown(name.clone(), self.span(p));
                    env.bind(self, &name, unknown, false);
                }
            }
        }
    }

    /// A statement that changes a local of the block in a way it follows:
    /// `b.push_str(x)`, `b.push(x)`, `b += x`, `write!(b, ..)`,
    /// `keys.push(k)`, `keys.extend(..)`, through `.unwrap()`, `.expect(..)`
    /// and `?`. Returns whether it was one (and applied it).
    fn block_change(&mut self, e: Node<'_>, d: usize, env: &mut Env) -> bool {
        let e = unwrap_result(e, self.src);
        let (name, part, operand) = match e.kind() {
            "macro_invocation" => {
                let mac = self.macro_name(e);
                match self.write_target(e, &mac) {
                    Some(name) => {
                        let part = self.written(e, &mac);
                        (name, Part::Str(part), e)
                    }
                    None => return false,
                }
            }
            "compound_assignment_expr" if self.operator(e) == "+=" => {
                let (Some(l), Some(r)) =
                    (e.child_by_field_id(F.left), e.child_by_field_id(F.right))
                else {
                    return false;
                };
                if l.kind() != "identifier" {
                    return false;
                }
                (self.text(l), Part::Str(self.value(r, d)), r)
            }
            "call_expression" => {
                let Some((method, recv)) = method_of(e, self.src) else {
                    return false;
                };
                let recv = peel_ref(recv);
                let args = args_of(e);
                if recv.kind() != "identifier" || args.len() != 1 {
                    return false;
                }
                let part = match method.as_str() {
                    "push_str" => Part::Str(self.value(args[0], d)),
                    "push" => Part::Item(self.value(args[0], d)),
                    "extend" | "extend_from_slice" | "append" => {
                        Part::Items(self.value(peel_ref(args[0]), d))
                    }
                    _ => return false,
                };
                (self.text(recv), part, args[0])
            }
            _ => return false,
        };
        // What the operand changes besides is not followed (a `write!`'s
        // tokens name its target, which is the change itself).
        self.block_unknown_changes(operand, Some(&name), env);
        if !env.owns(&name) || !self.apply(&name, part, self.span(e)) {
            env.change(self, &(name, false));
        }
        true
    }

    /// Applies a followed change to the block's local `name`. Returns false
    /// when the local does not hold what the change needs.
    fn apply(&mut self, name: &str, part: Part, at: Span) -> bool {
        let string = matches!(part, Part::Str(_) | Part::Item(_)) && self.is_string_local(name);
        let Some(local) = self.scope.locals.get_mut(name) else {
            return false;
        };
        match (local, part) {
            (Value::Str(t), Part::Str(v) | Part::Item(v)) if string => {
                if t.segs.len() < MAX_ITEMS {
                    append_value(&mut t.segs, v);
                } else {
                    open_string(t, name, at);
                }
                true
            }
            (Value::List { items, tail, .. }, Part::Item(v)) => {
                if tail.is_empty() && items.len() < MAX_ITEMS {
                    items.push(v);
                } else if tail.is_empty() {
                    tail.push(Value::unknown(name, at));
                }
                true
            }
            (
                Value::List { items, tail, .. },
                Part::Items(Value::List {
                    items: more,
                    tail: more_tail,
                    ..
                }),
            ) => {
                if tail.is_empty() && more_tail.is_empty() && items.len() + more.len() <= MAX_ITEMS
                {
                    items.extend(more);
                } else if tail.is_empty() {
                    tail.push(Value::unknown(name, at));
                }
                true
            }
            (Value::List { tail, .. }, Part::Items(other)) => {
                if tail.is_empty() {
                    tail.push(other);
                }
                true
            }
            _ => false,
        }
    }

    /// The local a `write!`/`writeln!` writes into, when it is a name.
    fn write_target(&self, n: Node<'_>, mac: &str) -> Option<String> {
        if !matches!(mac, "write" | "writeln") {
            return None;
        }
        let tt = children(n).into_iter().find(|c| c.kind() == "token_tree")?;
        let mut target = None;
        for t in children(tt).into_iter().skip(1) {
            match (t.kind(), self.text(t).as_str()) {
                (_, ",") => break,
                (_, "&" | "mut") => {}
                ("identifier", _) if target.is_none() => target = Some(self.text(t)),
                _ => return None,
            }
        }
        target
    }

    /// The changes of locals a statement makes that the block does not
    /// follow, applied to its environment.
    fn block_unknown_changes(&mut self, s: Node<'_>, except: Option<&str>, env: &mut Env) {
        let mut changes = Vec::new();
        let mut budget = MAX_SCAN;
        let mut shadow = Vec::new();
        if !self.scan(s, &mut shadow, &mut changes, &mut budget, 0) {
            // Too much to search: everything the block holds may change.
            changes = env.names().map(|n| (n.to_string(), false)).collect();
        }
        for c in changes.iter().filter(|c| Some(c.0.as_str()) != except) {
            env.change(self, c);
        }
    }

    /// Finds the places in `n` that may change a local: a method that is
    /// not a read called on it, `&mut` of it, an assignment to it, a
    /// `write!` into it. Names bound by a `let` of a block inside are that
    /// block's own from there on. Returns false when the search ran out.
    fn scan(
        &self,
        n: Node<'_>,
        shadow: &mut Vec<String>,
        out: &mut Vec<Change>,
        budget: &mut usize,
        depth: usize,
    ) -> bool {
        if *budget == 0 || depth > MAX_DEPTH {
            return false;
        }
        *budget -= 1;
        let mut push = |cx: &Self, target: Node<'_>, append: bool| {
            let target = peel_ref(target);
            if target.kind() == "identifier" {
                let name = cx.text(target);
                if !shadow.contains(&name) {
                    out.push((name, append));
                }
            }
        };
        match n.kind() {
            "call_expression" => {
                if let Some((method, recv)) = method_of(n, self.src) {
                    if !READS.contains(&method.as_str()) {
                        push(self, recv, APPENDS.contains(&method.as_str()));
                    }
                }
            }
            "reference_expression" if self.text(n).starts_with("&mut") => {
                if let Some(v) = n.child_by_field_id(F.value) {
                    push(self, v, false);
                }
            }
            "assignment_expression" | "compound_assignment_expr" => {
                if let Some(l) = n.child_by_field_id(F.left) {
                    push(self, l, self.operator(n) == "+=");
                }
            }
            "token_tree" => {
                for (name, append) in self.token_changes(n) {
                    if !shadow.contains(&name) {
                        out.push((name, append));
                    }
                }
            }
            _ => {}
        }
        let mark = shadow.len();
        for c in children(n) {
            if !self.scan(c, shadow, out, budget, depth + 1) {
                return false;
            }
            if n.kind() == "block" && c.kind() == "let_declaration" {
                if let Some(p) = c.child_by_field_id(F.pattern) {
                    shadow.extend(pattern_names(p, self.src));
                }
            }
        }
        shadow.truncate(mark);
        true
    }

    /// The locals a macro's tokens may change: `x.m(..)` with `m` not a
    /// read, `&mut x`, `x =`, `x +=`, and the target of `write!`.
    fn token_changes(&self, tt: Node<'_>) -> Vec<Change> {
        let toks: Vec<String> = children(tt).into_iter().map(|t| self.text(t)).collect();
        let mut out = Vec::new();
        for (i, t) in toks.iter().enumerate() {
            let ident = t
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
            if !ident || t == "mut" {
                continue;
            }
            let next = toks.get(i + 1).map(String::as_str);
            let after = toks.get(i + 2).map(String::as_str);
            let prev = i
                .checked_sub(1)
                .and_then(|p| toks.get(p))
                .map(String::as_str);
            let method = next == Some(".") && after.is_some_and(|m| !READS.contains(&m));
            if method || prev == Some("mut") || matches!(next, Some("=" | "+=")) {
                let append = next == Some("+=") || after.is_some_and(|m| APPENDS.contains(&m));
                out.push((t.clone(), append));
            }
        }
        out
    }
}

/// What a followed change adds.
enum Part {
    /// Text appended to a string.
    Str(Value),
    /// One item pushed (or a character pushed to a string).
    Item(Value),
    /// A collection's items appended to a list.
    Items(Value),
}

/// A block's environment: the locals of the walk's scope it binds or
/// changes, with what they held before, restored when the block ends.
#[derive(Default)]
struct Env {
    /// Name, its value and whether it was a `String` before the block.
    saved: Vec<(String, Option<Value>, bool)>,
    /// The names the block binds itself.
    own: Vec<String>,
}

impl Env {
    fn save(&mut self, cx: &Cx<'_, '_, '_>, name: &str) {
        if !self.saved.iter().any(|(n, ..)| n == name) {
            let old = cx.scope.locals.get(name).cloned();
            let string = cx.scope.strings.contains(name);
            self.saved.push((name.to_string(), old, string));
        }
    }

    fn bind(&mut self, cx: &mut Cx<'_, '_, '_>, name: &str, v: Value, string: bool) {
        self.save(cx, name);
        if !self.own.iter().any(|n| n == name) {
            self.own.push(name.to_string());
        }
        if string {
            cx.scope.strings.insert(name.to_string());
        } else {
            cx.scope.strings.remove(name);
        }
        cx.scope.locals.insert(name.to_string(), v);
    }

    fn owns(&self, name: &str) -> bool {
        self.own.iter().any(|n| n == name)
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.saved.iter().map(|(n, ..)| n.as_str())
    }

    /// A change the block does not follow: an append to one of its own
    /// strings or lists leaves a hole (or an open tail); any other change,
    /// or a change of a local it does not own, makes the local unknown.
    fn change(&mut self, cx: &mut Cx<'_, '_, '_>, (name, append): &Change) {
        if !cx.scope.locals.contains_key(name) {
            return;
        }
        self.save(cx, name);
        let owned = self.owns(name);
        let Some(local) = cx.scope.locals.get_mut(name) else {
            return;
        };
        let span = local.span();
        match local {
            Value::Str(t) if owned && *append => open_string(t, name, span),
            Value::List { tail, .. } if owned && *append => {
                if tail.is_empty() {
                    tail.push(Value::unknown(name.as_str(), span));
                }
            }
            _ => *local = Value::unknown(name.as_str(), span),
        }
    }

    fn restore(self, cx: &mut Cx<'_, '_, '_>) {
        for (name, old, string) in self.saved.into_iter().rev() {
            match old {
                Some(v) => cx.scope.locals.insert(name.clone(), v),
                None => cx.scope.locals.remove(&name),
            };
            if string {
                cx.scope.strings.insert(name);
            } else {
                cx.scope.strings.remove(&name);
            }
        }
    }
}

/// A hole at the end of a string, where the code appends what it does not
/// show (one hole for several).
fn open_string(t: &mut Template, name: &str, span: Span) {
    if !matches!(t.segs.last(), Some(Seg::Hole { .. })) {
        t.segs.push(Seg::Hole {
            label: name.to_string(),
            span,
        });
    }
}

/// The expression a block's last child gives as the block's value: an
/// expression, or a block-like expression written as a statement without
/// its `;` (`{ .. }`, `if`, `match`); `None` when the block ends in a
/// statement.
pub(super) fn tail_expression(last: Node<'_>) -> Option<Node<'_>> {
    match last.kind() {
        "expression_statement" => {
            let kids = children(last);
            if kids.last().is_some_and(|c| c.kind() == ";") {
                return None;
            }
            kids.into_iter().find(|c| c.is_named() && !is_comment(*c))
        }
        k if k.ends_with("_statement") || k.ends_with("_item") || k == "let_declaration" => None,
        _ => Some(last),
    }
}

/// `e?`, `e.unwrap()`, `e.expect(..)`, `e.ok()` → `e`: a `write!`'s result.
fn unwrap_result<'t>(n: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        if cur.kind() == "try_expression" {
            match named_children(cur).into_iter().next() {
                Some(i) => cur = i,
                None => break,
            }
            continue;
        }
        match method_of(cur, src) {
            Some((m, recv)) if matches!(m.as_str(), "unwrap" | "expect" | "ok") => cur = recv,
            _ => break,
        }
    }
    cur
}

/// `v?` / `v.await` → `v` (what `makes_string` reads).
fn unwrap_try(n: Node<'_>) -> Node<'_> {
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        if !matches!(cur.kind(), "try_expression" | "await_expression") {
            break;
        }
        match named_children(cur).into_iter().next() {
            Some(i) => cur = i,
            None => break,
        }
    }
    cur
}

/// The names a pattern binds (`(a, mut b)`, `Some(x)`, `S { f, .. }`),
/// as far as the search goes.
fn pattern_names(p: Node<'_>, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![p];
    let mut budget = MAX_SCAN;
    while let Some(n) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        if n.kind() == "identifier" {
            out.push(crate::parse::text(n, src).into_owned());
        }
        stack.extend(named_children(n));
    }
    out
}
