//! Lua evaluated, not matched: a script's statements run in order over
//! lexical scopes, so that what reaches `redis.call` is known however the
//! script is written. An alias of `redis.call` (`local rcall = redis.call`,
//! used as an upvalue too) is `redis.call`; a call of a local function
//! binds its parameters (fixed, `...`, `unpack` of a literal table) to the
//! call site's values and runs its body, so a write through a wrapper is
//! the same command as a direct one, with the call site's values and
//! spans; a function returns its value (a key builder); `..`,
//! `string.format` and `table.concat` build strings.
//!
//! Both arms of a branch run (an assignment in one joins the values the
//! variable may hold); a loop body runs once. A function is run at each
//! of its calls, at most [`MAX_CALLS`] deep and never inside itself; a
//! function nobody calls runs once with unknown parameters. Evaluation has
//! a budget of steps: past it, calls are not entered (the `redis.call`s
//! they hold are read on their own, as written).
//!
//! Evaluation also says which `ARGV[n]` reads every caller must supply
//! (WL308): a read whose `nil` reaches Redis, arithmetic, `..`, a string
//! function or an index, on a path the caller's own arguments do not
//! choose. A branch, loop or `and`/`or` whose test depends on ARGV
//! (`ARGV[2] == ''`, `#ARGV`, `ARGV[3] or '0'`), or on nothing known,
//! makes what it guards optional, and an early return under it makes the
//! rest optional; a test of Redis state alone (`EXISTS`, `GET`, a lock)
//! does not: the script's normal path runs the read.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::value::{Kind, Lv};
use super::Src;
use crate::extract::fields::LUA as F;
use crate::facts::{Command, KeyDecl, LuaCall, LuaFunction, Span, Value};
use crate::parse::{children, named_children};

/// Nesting of blocks, expressions and calls together: past it, a value is
/// unknown and a block is not run (no stack overflow on any input).
const MAX_DEPTH: usize = 64;
/// Function calls entered at once.
const MAX_CALLS: usize = 8;
/// Evaluation steps for one chunk.
const BUDGET: usize = 200_000;
/// Functions defined in a chunk that are run when nobody calls them.
const MAX_UNCALLED: usize = 4096;
/// Parts a template bound to a name may hold; a longer one is bound as a
/// hole. A name grown by `k = k .. KEYS[2]` step after step was copied
/// whole at each step: 100,000 steps took over a minute.
const MAX_BOUND_PARTS: usize = 256;

/// A variable's binding.
pub(super) struct Bound<'t> {
    pub(super) v: Lv<'t>,
    /// A local (not a parameter) bound by the function running at `frame`.
    pub(super) local: bool,
    pub(super) frame: usize,
}

/// How a block ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Normal,
    Break,
    /// A `return`; `fails` when it returns only an error reply (the call
    /// fails on that path too, so it is no way out).
    Exit {
        fails: bool,
    },
}

/// What evaluation finds in one chunk.
#[derive(Default)]
pub(super) struct Found {
    pub commands: Vec<Command>,
    pub required: Vec<(u32, Span)>,
    pub aliases: Vec<KeyDecl>,
    /// The `redis.call` nodes evaluated (by id).
    pub visited: HashSet<usize>,
    pub calls: Vec<LuaCall>,
    /// The functions a file defines at its top level, summarized.
    pub functions: Vec<LuaFunction>,
    /// The top level's names for `redis.call`.
    pub redis_names: Vec<String>,
}

pub(super) struct Eval<'s, 't> {
    pub(super) s: &'s Src<'s>,
    pub(super) scopes: Vec<HashMap<String, Bound<'t>>>,
    pub(super) out: Found,
    pub(super) defined: Vec<Node<'t>>,
    pub(super) called: HashSet<usize>,
    /// The functions being run (by node id).
    pub(super) stack: Vec<usize>,
    /// The outermost call being run: a command's span.
    pub(super) site: Option<Span>,
    pub(super) ret: Option<Lv<'t>>,
    /// The current path is chosen by the caller's arguments (or by nothing
    /// known): reads on it are not required.
    pub(super) optional: bool,
    pub(super) depth: usize,
    pub(super) steps: usize,
    /// Whether calls of functions defined elsewhere are recorded (not
    /// while functions nobody calls run).
    pub(super) recording: bool,
    /// The functions the chunk defines at its top level, by name.
    pub(super) top: Vec<(String, Node<'t>)>,
    /// The next call run is a summary's: the commands in it span
    /// themselves, not the call.
    pub(super) no_site: bool,
    /// Reading a library of Redis Functions for this one function
    /// (`super::functions`): only its callback runs.
    pub(super) function: Option<String>,
}

/// Evaluates a chunk; `summarize` (a `.lua` file, which a script may
/// include) also summarizes the functions it defines at its top level.
pub(super) fn run<'t>(
    s: &Src<'_>,
    root: Node<'t>,
    summarize: bool,
    function: Option<&str>,
) -> Found {
    let mut ev = Eval {
        s,
        scopes: vec![HashMap::new()],
        out: Found::default(),
        defined: Vec::new(),
        called: HashSet::new(),
        stack: Vec::new(),
        site: None,
        ret: None,
        optional: false,
        depth: 0,
        steps: 0,
        recording: true,
        top: Vec::new(),
        no_site: false,
        function: function.map(str::to_string),
    };
    ev.stmts(root);
    ev.recording = false;
    // A function of a library runs what its callback reaches, no more.
    let mut k = if function.is_some() { usize::MAX } else { 0 };
    while k < ev.defined.len() && k < MAX_UNCALLED && ev.steps < BUDGET {
        let f = ev.defined[k];
        if !ev.called.contains(&f.id()) {
            ev.optional = true;
            let span = ev.s.span(f);
            let depth = ev.scopes.len();
            ev.call_fn(f, depth, Vec::new(), true, span);
        }
        k += 1;
    }
    if summarize {
        ev.summarize();
    }
    ev.out
}

impl<'t> Eval<'_, 't> {
    pub(super) fn enter(&mut self) -> bool {
        self.steps += 1;
        if self.depth >= MAX_DEPTH {
            return false;
        }
        self.depth += 1;
        true
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A use of `v` that fails on `nil`: the ARGV reads it carries are
    /// required unless the path is optional.
    pub(super) fn strict(&mut self, v: &Lv<'t>) {
        if self.optional {
            return;
        }
        for r in &v.nil_from {
            if !self.out.required.contains(r) {
                self.out.required.push(*r);
            }
        }
    }

    /// Whether a test makes what it guards optional: it depends on the
    /// caller's arguments, or on nothing known to be Redis state.
    pub(super) fn chosen(v: &Lv<'t>) -> bool {
        v.caller || !v.state
    }

    pub(super) fn with_optional<R>(&mut self, opt: bool, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.optional;
        self.optional |= opt;
        let r = f(self);
        self.optional = saved;
        r
    }

    /// A block in a scope of its own.
    fn block(&mut self, b: Option<Node<'t>>) -> Flow {
        let Some(b) = b else {
            return Flow::Normal;
        };
        if !self.enter() {
            return Flow::Normal;
        }
        self.scopes.push(HashMap::new());
        let f = self.stmts(b);
        self.scopes.pop();
        self.leave();
        f
    }

    fn stmts(&mut self, b: Node<'t>) -> Flow {
        for st in named_children(b) {
            let f = self.stmt(st);
            if f != Flow::Normal {
                return f;
            }
        }
        Flow::Normal
    }

    fn stmt(&mut self, n: Node<'t>) -> Flow {
        self.steps += 1;
        match n.kind() {
            "variable_declaration" => {
                for c in named_children(n) {
                    match c.kind() {
                        "assignment_statement" => self.assign(c, true),
                        "variable_list" => {
                            for name in named_children(c) {
                                let nil = Lv::new(Kind::Nil, self.s.span(name));
                                self.bind(self.s.text(name), nil, true);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "assignment_statement" => self.assign(n, false),
            "function_call" => {
                self.expr(n);
            }
            "function_declaration" => self.declare(n),
            "if_statement" => return self.if_stmt(n),
            "for_statement" => return self.for_stmt(n),
            "while_statement" => {
                let cond = n.child_by_field_id(F.condition).map(|c| self.expr(c));
                let opt = cond.as_ref().is_none_or(Self::chosen);
                return self.loop_body(n.child_by_field_id(F.body), opt);
            }
            "repeat_statement" => {
                let f = self.loop_body(n.child_by_field_id(F.body), false);
                if let Some(c) = n.child_by_field_id(F.condition) {
                    self.expr(c);
                }
                return f;
            }
            "do_statement" => return self.block(n.child_by_field_id(F.body)),
            "return_statement" => return self.ret_stmt(n),
            "break_statement" => return Flow::Break,
            _ => {}
        }
        Flow::Normal
    }

    /// `local function f(..)`, `function f(..)`, `function M.f(..)`.
    fn declare(&mut self, n: Node<'t>) {
        self.defined.push(n);
        let Some(name) = n.child_by_field_id(F.name) else {
            return;
        };
        if name.kind() != "identifier" {
            return;
        }
        let local = children(n).iter().any(|c| c.kind() == "local");
        if self.stack.is_empty() && self.scopes.len() == 1 {
            self.top.push((self.s.text(name), n));
        }
        let span = self.s.span(n);
        // Bound before its body runs: a local function sees itself.
        let v = Lv::new(Kind::Func(n, self.scopes.len()), span);
        if local {
            self.bind(self.s.text(name), v, true);
        } else {
            self.set(self.s.text(name), v);
        }
    }

    fn if_stmt(&mut self, n: Node<'t>) -> Flow {
        let saved = self.optional;
        let cond = n.child_by_field_id(F.condition).map(|c| self.expr(c));
        let mut chosen = cond.as_ref().is_none_or(Self::chosen);
        let mut rest_optional = false;
        let mut exits = Vec::new();
        self.optional = saved || chosen;
        let f = self.block(n.child_by_field_id(F.consequence));
        exits.push(f);
        rest_optional |= chosen && f == (Flow::Exit { fails: false });
        let mut has_else = false;
        let alts: Vec<Node<'t>> = named_children(n)
            .into_iter()
            .filter(|c| matches!(c.kind(), "elseif_statement" | "else_statement"))
            .collect();
        for alt in alts {
            if alt.kind() == "elseif_statement" {
                let c = alt.child_by_field_id(F.condition).map(|c| self.expr(c));
                chosen |= c.as_ref().is_none_or(Self::chosen);
                self.optional = saved || chosen;
                let f = self.block(alt.child_by_field_id(F.consequence));
                rest_optional |= chosen && f == (Flow::Exit { fails: false });
                exits.push(f);
            } else {
                has_else = true;
                self.optional = saved || chosen;
                let f = self.block(alt.child_by_field_id(F.body));
                rest_optional |= chosen && f == (Flow::Exit { fails: false });
                exits.push(f);
            }
        }
        self.optional = saved || rest_optional;
        let all_exit = exits.iter().all(|f| matches!(f, Flow::Exit { .. }));
        if has_else && all_exit {
            let fails = exits.iter().all(|f| *f == Flow::Exit { fails: true });
            return Flow::Exit { fails };
        }
        Flow::Normal
    }

    fn for_stmt(&mut self, n: Node<'t>) -> Flow {
        let mut names = Vec::new();
        let mut tested = Vec::new();
        if let Some(clause) = n.child_by_field_id(F.clause) {
            let parts = match clause.kind() {
                "for_generic_clause" => named_children(clause)
                    .into_iter()
                    .flat_map(named_children)
                    .collect(),
                _ => named_children(clause),
            };
            let vars = named_children(clause)
                .into_iter()
                .find(|c| c.kind() == "variable_list");
            for p in parts {
                let is_var = vars.is_some_and(|v| p.parent() == Some(v))
                    || (clause.kind() == "for_numeric_clause"
                        && clause.child_by_field_id(F.name) == Some(p));
                if is_var && p.kind() == "identifier" {
                    names.push(p);
                } else {
                    tested.push(self.expr(p));
                }
            }
        }
        let span = self.s.span(n);
        let test = Lv::derived("loop", span, &tested);
        let opt = tested.is_empty() || Self::chosen(&test);
        self.scopes.push(HashMap::new());
        for name in names {
            let v = Lv::derived(self.s.text(name), self.s.span(name), &tested);
            self.bind(self.s.text(name), v, true);
        }
        let f = self.loop_body(n.child_by_field_id(F.body), opt);
        self.scopes.pop();
        f
    }

    /// A loop's body, run once; a `break` ends only the loop.
    fn loop_body(&mut self, body: Option<Node<'t>>, opt: bool) -> Flow {
        let saved = self.optional;
        self.optional |= opt;
        let f = self.block(body);
        self.optional = saved || (opt && f == (Flow::Exit { fails: false }));
        Flow::Normal
    }

    fn ret_stmt(&mut self, n: Node<'t>) -> Flow {
        let mut values = named_children(n);
        if let [list] = values.as_slice() {
            if list.kind() == "expression_list" {
                values = named_children(*list);
            }
        }
        let fails = matches!(values.as_slice(), [v] if self.s.is_error_reply(*v));
        let first = values.first().map(|v| self.expr(*v));
        for v in values.iter().skip(1) {
            self.expr(*v);
        }
        if let Some(v) = first {
            self.ret = Some(match self.ret.take() {
                Some(r) => r.join(v),
                None => v,
            });
        }
        Flow::Exit { fails }
    }

    fn assign(&mut self, n: Node<'t>, local: bool) {
        let kids = named_children(n);
        let names = kids
            .iter()
            .find(|c| c.kind() == "variable_list")
            .map(|l| named_children(*l))
            .unwrap_or_default();
        let values: Vec<Lv<'t>> = kids
            .iter()
            .find(|c| c.kind() == "expression_list")
            .map(|l| named_children(*l))
            .unwrap_or_default()
            .into_iter()
            .map(|v| self.expr(v))
            .collect();
        for (k, name) in names.iter().enumerate() {
            let v = values
                .get(k)
                .cloned()
                .unwrap_or_else(|| Lv::new(Kind::Nil, self.s.span(*name)));
            if name.kind() != "identifier" {
                // `t.x = v`, `t[i] = v`: indexing the table fails on nil.
                if let Some(t) = name.child_by_field_id(F.table) {
                    self.grown(Some(t));
                    let t = self.expr(t);
                    self.strict(&t);
                }
                continue;
            }
            let text = self.s.text(*name);
            // `local f = function(..) .. end` at the top level is a
            // top-level function like `local function f(..)`.
            if let Kind::Func(def, _) = v.kind {
                if self.stack.is_empty() && self.scopes.len() == 1 {
                    self.top.push((text.clone(), def));
                }
            }
            if let Kind::Val(Value::Keys { index: Some(i), .. }) = v.kind {
                let span = self.s.span(*name);
                if !self.out.aliases.iter().any(|a| a.span == span) {
                    self.out.aliases.push(KeyDecl {
                        index: i,
                        role: text.clone(),
                        span,
                    });
                }
            }
            if local {
                self.bind(text, v, true);
            } else {
                self.set(text, v);
            }
        }
    }

    /// A new binding in the innermost scope.
    fn bind(&mut self, name: String, v: Lv<'t>, local: bool) {
        let v = bounded(v);
        let frame = self.stack.len();
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, Bound { v, local, frame });
        }
    }

    /// An assignment: in the scope that binds the name (joined with what it
    /// held when that scope is not the innermost, as a branch may not run),
    /// else a global.
    fn set(&mut self, name: String, v: Lv<'t>) {
        let v = bounded(v);
        let top = self.scopes.len().saturating_sub(1);
        let at = (0..self.scopes.len())
            .rev()
            .find(|&j| self.scopes[j].contains_key(&name));
        match at {
            Some(j) => {
                if let Some(b) = self.scopes[j].get_mut(&name) {
                    if j == top {
                        b.v = v;
                    } else {
                        let old = std::mem::replace(&mut b.v, Lv::new(Kind::Nil, v.span));
                        let mut joined = old.join(v);
                        // A value given on some paths only (a default):
                        // not `nil` for an ARGV read's sake any more.
                        joined.nil_from.clear();
                        b.v = joined;
                    }
                }
            }
            None => {
                let frame = self.stack.len();
                self.scopes[0].insert(
                    name,
                    Bound {
                        v,
                        local: true,
                        frame,
                    },
                );
            }
        }
    }

    /// Runs function `f` (defined where `depth` scopes were open) with
    /// `args` (`open`: more may follow) bound to its parameters.
    pub(super) fn call_fn(
        &mut self,
        f: Node<'t>,
        depth: usize,
        args: Vec<Lv<'t>>,
        open: bool,
        span: Span,
    ) -> Lv<'t> {
        if self.stack.len() >= MAX_CALLS
            || self.stack.contains(&f.id())
            || self.steps >= BUDGET
            || self.depth >= MAX_DEPTH
        {
            return Lv::derived("call", span, &args);
        }
        self.called.insert(f.id());
        let keep = depth.min(self.scopes.len());
        let outer_scopes = self.scopes.split_off(keep);
        let frame = self.stack.len() + 1;
        let mut scope = HashMap::new();
        let mut k = 0;
        let params = f
            .child_by_field_id(F.parameters)
            .map(named_children)
            .unwrap_or_default();
        for p in params {
            match p.kind() {
                "identifier" => {
                    let v = args.get(k).cloned().unwrap_or_else(|| {
                        if open {
                            Lv::unknown(self.s.text(p), self.s.span(p))
                        } else {
                            Lv::new(Kind::Nil, self.s.span(p))
                        }
                    });
                    scope.insert(
                        self.s.text(p),
                        Bound {
                            v,
                            local: false,
                            frame,
                        },
                    );
                    k += 1;
                }
                "vararg_expression" => {
                    let items = args.get(k..).map(<[_]>::to_vec).unwrap_or_default();
                    let v = Lv::new(Kind::Table { items, open }, span);
                    scope.insert(
                        "...".to_string(),
                        Bound {
                            v,
                            local: false,
                            frame,
                        },
                    );
                }
                _ => {}
            }
        }
        self.scopes.push(scope);
        let saved_ret = self.ret.take();
        let saved_opt = self.optional;
        let outer = self.site.is_none() && !std::mem::take(&mut self.no_site);
        if outer {
            self.site = Some(span);
        }
        self.stack.push(f.id());
        self.depth += 1;
        if let Some(body) = f.child_by_field_id(F.body) {
            self.stmts(body);
        }
        self.depth -= 1;
        self.stack.pop();
        if outer {
            self.site = None;
        }
        self.optional = saved_opt;
        let ret = std::mem::replace(&mut self.ret, saved_ret);
        self.scopes.truncate(keep);
        self.scopes.extend(outer_scopes);
        ret.unwrap_or_else(|| Lv::new(Kind::Nil, span))
    }
}

/// `v`, or a hole of the same provenance when it is a template of more
/// than [`MAX_BOUND_PARTS`] parts.
fn bounded(v: Lv<'_>) -> Lv<'_> {
    match &v.kind {
        Kind::Val(Value::Str(t)) if t.segs.len() > MAX_BOUND_PARTS => {
            let label = format!("a string of over {MAX_BOUND_PARTS} parts");
            Lv {
                kind: Kind::Val(Value::unknown(label, t.span)),
                ..v
            }
        }
        _ => v,
    }
}
