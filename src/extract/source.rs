//! What every extractor's context reads of a node the same way: its span
//! in the file, its text, a bounded label for a value the analysis cannot
//! see, and the depth-bounded walk of a subtree with the context's own
//! visitor. One definition here, so that the languages cannot drift apart
//! in how a span or a label is made. The contexts that walk their tree in
//! one pass over a [`Base`] (Go's, Python's, Ruby's) share the rest of
//! the walk too ([`OnePass`]): a value's depth bound, a function's body
//! walked as its own, a string built read as one template.

use std::cell::Cell;
use std::collections::HashMap;

use tree_sitter::Node;

use crate::extract::locals::{self, Locals};
use crate::extract::parts::{self, Parts};
use crate::extract::LuaFile;
use crate::facts::{FileFacts, FileId, FunctionDef, Seg, Span, Value};
use crate::parse::Parsers;

/// The bytes of a label at the most: labels are for messages, and a huge
/// expression must not be copied at every level of a value (a 32,000-step
/// Elixir pipe made that quadratic in memory, 3.9 GB).
const MAX_LABEL: usize = 200;

/// The expression nodes the values of one file may read in all: this many,
/// and one more for each byte of the file. Each value is bounded by its
/// extractor's depth (and JavaScript's fuel), but every call's arguments
/// are read again as the value of the call around it, so a file of calls
/// nested just under the depth bound cost that depth for each of its
/// nodes: 4 MB of JavaScript lines `x = f(f(..))` 495 deep took 35 s and
/// 5.8 GB. The files of the real corpus read at most 0.7 nodes a byte (a
/// Ruby file of 113 KB reads 79,000), so the budget leaves them whole.
pub(crate) const FILE_VALUE_NODES: usize = 1_000_000;

/// What is left of a file's value budget ([`FILE_VALUE_NODES`]), and where
/// it ran out: from that byte on, values are holes, the walk stops, and the
/// rest of the file is unchecked (a WL001 names it). A `Cell`, so that
/// extractors whose readers take `&self` spend it too.
#[derive(Debug)]
pub(crate) struct Budget {
    left: Cell<usize>,
    cut: Cell<Option<u32>>,
}

impl Budget {
    /// The budget of a file of `len` bytes.
    pub(crate) fn of(len: usize) -> Self {
        Budget {
            left: Cell::new(FILE_VALUE_NODES.saturating_add(len)),
            cut: Cell::new(None),
        }
    }

    /// Spends one node read at byte `at`: false once the budget is spent,
    /// the first such byte kept as where the file stops being checked.
    pub(crate) fn spend(&self, at: u32) -> bool {
        match self.left.get() {
            0 => {
                if self.cut.get().is_none() {
                    self.cut.set(Some(at));
                }
                false
            }
            n => {
                self.left.set(n - 1);
                true
            }
        }
    }

    /// Whether the budget ran out: the walk reads nothing more.
    pub(crate) fn is_out(&self) -> bool {
        self.cut.get().is_some()
    }

    /// Marks in `facts` the bytes of the file from where the budget ran out
    /// to its end (`len`) as unchecked, with what a parse left unchecked.
    pub(crate) fn close(&self, facts: &mut FileFacts, file: FileId, len: usize) {
        let Some(at) = self.cut.get() else {
            return;
        };
        let end = u32::try_from(len).unwrap_or(u32::MAX);
        let (start, end) = match facts.unchecked {
            Some(u) => (u.start.min(at), u.end.max(end)),
            None => (at, end),
        };
        facts.unchecked = Some(Span { file, start, end });
    }
}

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

    /// A definition's name (its text and node) and body, by the grammar's
    /// field ids; `None` unless it has both.
    fn name_and_body<'t>(
        &self,
        n: Node<'t>,
        name: u16,
        body: u16,
    ) -> Option<(String, Node<'t>, Node<'t>)> {
        let (name, body) = (n.child_by_field_id(name)?, n.child_by_field_id(body)?);
        Some((self.text(name), name, body))
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

/// What the context of every extractor that walks its tree in one pass
/// (Go, Python, Ruby) holds the same way: the file and its facts as they
/// are built, the function being walked and its `return` values, the
/// scripts recorded, the name the value being read is bound to, and the
/// depth of the walk.
pub(crate) struct Base<'s, 'p> {
    pub(crate) src: &'s [u8],
    pub(crate) file: FileId,
    /// The parsers, for Lua in the host's strings.
    pub(crate) parsers: &'p mut Parsers,
    pub(crate) facts: FileFacts,
    /// The index in `facts.functions` of the function being walked.
    pub(crate) cur_func: Option<usize>,
    /// The `return` values of the functions being walked, innermost last.
    pub(crate) returns: Vec<Vec<Value>>,
    /// Scripts already recorded, by the start byte of their literal.
    pub(crate) scripts_at: HashMap<usize, usize>,
    /// The name the value being read is bound to (a script's name), its
    /// span, and whether it is a definition's.
    pub(crate) binding: Option<(String, Span, bool)>,
    /// How deep the walk's recursions are ([`walk_sub`]).
    pub(crate) depth: usize,
    /// What is left of the file's [`FILE_VALUE_NODES`].
    pub(crate) budget: Budget,
    /// The end of the last string-building expression read as a whole
    /// ([`OnePass::built`]): the strings inside it are parts, not
    /// templates of their own (Python's, Ruby's).
    pub(crate) built_until: usize,
}

impl<'s, 'p> Base<'s, 'p> {
    /// Nothing read yet of the file `src`.
    pub(crate) fn new(src: &'s [u8], file: FileId, parsers: &'p mut Parsers) -> Self {
        Base {
            src,
            file,
            parsers,
            facts: FileFacts::default(),
            cur_func: None,
            returns: Vec::new(),
            scripts_at: HashMap::new(),
            binding: None,
            depth: 0,
            budget: Budget::of(src.len()),
            built_until: 0,
        }
    }

    /// The script the `.lua` file `file` is, read at `at`
    /// ([`crate::extract::file_script`]): named by the binding being read.
    pub(crate) fn file_script(&mut self, file: LuaFile, at: Span) -> Value {
        let binding = self.binding.as_ref();
        crate::extract::file_script(&mut self.facts, &mut self.scripts_at, binding, file, at)
    }

    /// The script of the `.lua` file a path the code reads names
    /// ([`LuaFile::of`]), read at `at`; `None` unless it names one.
    pub(crate) fn path_script(&mut self, path: &Value, at: Span) -> Option<Value> {
        Some(self.file_script(LuaFile::of(path)?, at))
    }

    /// What a read of the file `path` names is ([`Self::path_script`]),
    /// else, where the path is built from values the link may fill in (a
    /// parameter, a field), the read for the link ([`crate::facts::Op::Read`]);
    /// `None` when neither. A path that is one such value as it stands
    /// (`open(path)`, `path` a parameter) is the template of that value
    /// alone, as `f"{path}"` would be.
    pub(crate) fn read_script(&mut self, path: Value, at: Span) -> Option<Value> {
        if let Some(script) = self.path_script(&path, at) {
            return Some(script);
        }
        let path = match path {
            Value::Str(t) if t.segs.iter().any(|s| matches!(s, Seg::Value(_))) => Value::Str(t),
            v if fillable(&v) => {
                let span = v.span();
                Value::Str(crate::facts::Template {
                    segs: vec![Seg::Value(Box::new(v))],
                    span,
                })
            }
            _ => return None,
        };
        Some(crate::facts::read(path, at))
    }

    /// The value of the string whose first byte is `start`, at `span`,
    /// its `parts` read ([`parts::string_value`]): a script named by the
    /// binding being read, else its template.
    pub(crate) fn string_value(
        &mut self,
        at: (usize, Span),
        parts: Parts,
        asks: crate::extract::parts::Asks,
    ) -> Value {
        let (scripts, made) = (&mut self.facts.scripts, &mut self.scripts_at);
        let binding = self.binding.as_ref();
        parts::string_value(self.parsers, scripts, made, binding, at, parts, asks)
    }

    /// A `return` of the function being walked gives `v` (at the top
    /// level, outside any function, nothing records it).
    pub(crate) fn returned(&mut self, v: Option<Value>) {
        if let (Some(v), Some(r)) = (v, self.returns.last_mut()) {
            r.push(v);
        }
    }

    /// The facts read, the commands in wire order: a chain
    /// `pipe.a(..).b(..)` is met outside in, but `a` is sent first.
    pub(crate) fn finish(self) -> FileFacts {
        let mut facts = self.facts;
        self.budget.close(&mut facts, self.file, self.src.len());
        facts.commands.sort_by_key(|c| (c.span.start, c.span.end));
        facts
    }
}

/// Whether the link may fill in a path that is `v` as it stands: a
/// parameter (a call binds it, or `self.f` a constructor sets), a
/// constant, or a field of a value.
fn fillable(v: &Value) -> bool {
    matches!(
        v,
        Value::Param { .. }
            | Value::Const { .. }
            | Value::Op {
                op: crate::facts::Op::Field(_),
                ..
            }
    )
}

/// A context that walks its tree in one pass over a [`Base`] (Go's,
/// Python's, Ruby's). It gives its base, its visitor and its reading of an
/// expression ([`one_pass!`]); it gets the depth-bounded walk and value,
/// a function's body walked as that function's, and a string built read
/// as one template.
pub(crate) trait OnePass<'s, 'p>: Source + Sized {
    /// How deep the walk and the reading of a value go at the most.
    const MAX_DEPTH: usize;

    /// What the context holds of the file.
    fn base(&mut self) -> &mut Base<'s, 'p>;

    /// The language's visitor: whether to go into `n`'s children.
    fn visit(&mut self, n: Node<'_>) -> bool;

    /// The language's value of the expression `n`, `d` levels deep.
    fn expression(&mut self, n: Node<'_>, d: usize) -> Value;

    /// Walks a subtree with the visitor, one level deeper; beyond
    /// [`OnePass::MAX_DEPTH`] levels it walks nothing ([`walk_sub`]).
    fn walk_sub(&mut self, n: Node<'_>) {
        if self.base().depth > Self::MAX_DEPTH {
            return;
        }
        self.base().depth += 1;
        // Once the file's value budget is spent, nothing more is read.
        crate::parse::walk(n, |m| !self.base().budget.is_out() && self.visit(m));
        self.base().depth -= 1;
    }

    /// The value of the expression `n`, `d` levels deep: beyond
    /// [`OnePass::MAX_DEPTH`], or once the file's [`Budget`] is spent, a
    /// hole labelled with its text.
    fn value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        if d > Self::MAX_DEPTH || !self.base().budget.spend(span.start) {
            return Value::unknown(self.label(n), span);
        }
        self.expression(n, d)
    }
    /// The function `def`, added to the file's, its `body` walked as its
    /// own, and then `last` read (a body's last expression, where the
    /// language returns it): its value at `span` is what its `return`s
    /// and `last` give ([`locals::returned`]). Its index.
    fn walk_function(
        &mut self,
        def: FunctionDef,
        span: Span,
        body: Option<Node<'_>>,
        last: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> usize {
        let index = self.base().facts.functions.len();
        self.base().facts.functions.push(def);
        let func = self.base().cur_func.replace(index);
        self.base().returns.push(Vec::new());
        if let Some(b) = body {
            self.walk_sub(b);
        }
        let mut rets = self.base().returns.pop().unwrap_or_default();
        rets.extend(last(self));
        self.base().cur_func = func;
        self.base().facts.functions[index].returns = locals::returned(rets, span);
        index
    }

    /// A string-building expression `n` not inside one read before as a
    /// whole: its value is a template of the file, and the strings inside
    /// it are its parts, not templates of their own.
    fn built(&mut self, n: Node<'_>) {
        if n.start_byte() >= self.base().built_until {
            self.base().built_until = n.end_byte();
            let v = self.value(n, 0);
            crate::extract::push_template(&mut self.base().facts, v);
        }
    }

    /// `d[k] = v` at `at`, `d` the local `name` (if it is one): `v` read,
    /// then `k`, then the item set ([`Locals::set_item`]); the name set.
    fn assign_item(
        &mut self,
        name: Option<String>,
        key: Node<'_>,
        right: Node<'_>,
        at: Node<'_>,
    ) -> Option<String>
    where
        Self: Locals,
    {
        let v = self.value(right, 0);
        let k = self.value(key, 0);
        let name = name?;
        self.set_item(name.clone(), k, v, at);
        Some(name)
    }
}

/// [`Source`], [`States`](crate::extract::sends::States) and [`OnePass`]
/// for a one-pass context `$cx` (its lifetimes named `'s` and `'p` as
/// [`Base`]'s) that holds its [`Base`] in `base`, walks with its own
/// `visit` and reads an expression with its own `expression`, at most
/// `$max` deep.
macro_rules! one_pass {
    ($cx:ty, $max:expr) => {
        impl<'s, 'p> $crate::extract::source::Source for $cx {
            fn source(&self) -> (&[u8], $crate::facts::FileId) {
                (self.base.src, self.base.file)
            }
        }

        impl<'s, 'p> $crate::extract::sends::States for $cx {
            fn stated(&mut self) -> (&mut $crate::facts::FileFacts, Option<usize>) {
                (&mut self.base.facts, self.base.cur_func)
            }
        }

        impl<'s, 'p> $crate::extract::source::OnePass<'s, 'p> for $cx {
            const MAX_DEPTH: usize = $max;

            fn base(&mut self) -> &mut $crate::extract::source::Base<'s, 'p> {
                &mut self.base
            }

            fn visit(&mut self, n: tree_sitter::Node<'_>) -> bool {
                <$cx>::visit(self, n)
            }

            fn expression(&mut self, n: tree_sitter::Node<'_>, d: usize) -> $crate::facts::Value {
                <$cx>::expression(self, n, d)
            }
        }
    };
}
pub(crate) use one_pass;
