//! What the rewrites of Go, JavaScript/TypeScript, Python and Ruby share,
//! each language described by its [`Syntax`]: a string literal passed to a
//! call moved to a definition at the end of the file; a string built in
//! parts ([`Part`]) written another way; a call's argument, or all its
//! arguments as one list, bound to a new name by a statement before the
//! call's; a function's body moved into a copy of it that it calls.

use tree_sitter::Node;

use crate::edit::{distinct, inside, named, new, orig, Edits, Piece, Rewritten, Site, Source};

/// A language's grammar, as the shared rewrites read it.
pub struct Syntax {
    /// Kinds of a call's argument list.
    pub args: &'static [&'static str],
    /// Kinds of a function or method (a value in one may move out of it).
    pub funcs: &'static [&'static str],
    /// Kinds of a name (a new name is none of the file's).
    pub idents: &'static [&'static str],
    /// Kinds of a list of statements (one may be inserted before another).
    pub blocks: &'static [&'static str],
    /// Kinds an expression may sit in, up to its statement, for a
    /// statement inserted before to run first (no closure, no condition).
    pub through: &'static [&'static str],
    /// A call.
    pub call: &'static str,
    /// Kinds of an argument with no effect when evaluated (a name, a
    /// literal, a field read).
    pub simple: &'static [&'static str],
    /// The content of a plain string literal (no interpolation).
    pub plain: fn(&Source, Node) -> Option<String>,
    /// Whether a call's first argument (the command or script a generic
    /// call sends) stays where it is written: the extractor reads it only
    /// as written.
    pub keep_first: bool,
}

impl Syntax {
    /// Whether `name` is a name of the file already.
    pub fn taken(&self, src: &Source, name: &str) -> bool {
        src.nodes()
            .iter()
            .any(|n| self.idents.contains(&n.kind()) && src.text_of(*n) == name)
    }

    /// The statement `node` is part of, when a statement inserted before it
    /// runs first: its list is in a function and it starts its line.
    pub fn statement<'t>(&self, src: &Source, node: Node<'t>) -> Option<Node<'t>> {
        let mut at = node;
        loop {
            let parent = at.parent()?;
            if self.blocks.contains(&parent.kind()) {
                let lead = src.slice(src.line_start(at.start_byte())..at.start_byte());
                return (lead.trim().is_empty() && inside(parent, self.funcs)).then_some(at);
            }
            if !self.through.contains(&parent.kind()) {
                return None;
            }
            at = parent;
        }
    }
}

/// The file's stem as a name (`node-redis-store` gives `node_redis_store`):
/// names made from it differ between the files of one package.
pub fn file_name(src: &Source) -> String {
    src.stem()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .to_lowercase()
}

/// The plain string literals passed to a call (inside a function unless
/// `anywhere`), each named `FILE_text_N`; none when a name is taken. A
/// format template stays (as `format!` does in the Rust catalog), and so
/// does a call's first argument where the language's `keep_first` says so:
/// the name of the command or script a generic call sends
/// (`redis.call("HSET", ..)`, a wrapper's script name), which the
/// JavaScript extractor reads only as written (a gap the harness found, not
/// yet closed; Go's, Ruby's and Python's are named through constants); a script
/// is named after the name its call is bound to (`enqueue` gives
/// `enqueue_source`: the same script name), and stays when it is bound to
/// none.
pub fn value_sites<'t>(src: &'t Source, syn: &Syntax, anywhere: bool) -> Vec<Site<'t>> {
    let file = file_name(src);
    let mut out = Vec::new();
    let mut texts = 0;
    for n in src.nodes() {
        let Some(text) = (syn.plain)(src, n) else {
            continue;
        };
        let first = n
            .parent()
            .and_then(|p| arguments(p).first().copied())
            .is_some_and(|f| f == n);
        let script = text.contains("redis.call") || text.contains("KEYS[");
        if text.contains('%')
            || text.contains("{}")
            || (first && !script && syn.keep_first)
            || !n.parent().is_some_and(|p| syn.args.contains(&p.kind()))
            || !(anywhere || inside(n, syn.funcs))
        {
            continue;
        }
        let stem = if script {
            match binding(src, syn, n) {
                Some(name) => format!("{name}_source"),
                None => continue,
            }
        } else {
            texts += 1;
            format!("{file}_text_{}", texts - 1)
        };
        out.push(Site { node: n, stem });
    }
    if out
        .iter()
        .any(|s| syn.taken(src, &s.stem) || syn.taken(src, &s.stem.to_uppercase()))
    {
        return Vec::new();
    }
    out
}

/// The name the expression holding `n` is bound to (`var x = f(n)`,
/// `x = f(n)`), if any.
fn binding(src: &Source, syn: &Syntax, n: Node) -> Option<String> {
    let mut at = n.parent();
    while let Some(p) = at {
        if syn.funcs.contains(&p.kind()) || syn.blocks.contains(&p.kind()) {
            return None;
        }
        let name = p
            .child_by_field_name("name")
            .or_else(|| p.child_by_field_name("left"));
        if let Some(name) = name {
            let text = src.text_of(name);
            let last = text.rsplit(['.', '@']).next().unwrap_or(text);
            return (!last.is_empty() && last.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| last.to_string());
        }
        at = p.parent();
    }
    None
}

/// Every site replaced by `fetch(stem)`, and `define(sites)` appended to
/// the file: the definitions hold the sites' original bytes.
pub fn extract(
    src: &Source,
    sites: &[Site],
    fetch: impl Fn(&str) -> String,
    define: impl Fn(&[&Site]) -> Vec<Piece>,
) -> Option<Rewritten> {
    if sites.is_empty() {
        return None;
    }
    let mut e = Edits::new(src.text);
    for s in sites {
        e.replace_text(s.node.byte_range(), fetch(&s.stem));
    }
    let mut tail = vec![new("\n")];
    tail.extend(define(&distinct(sites)));
    e.replace(src.text.len()..src.text.len(), tail);
    e.finish()
}

/// One definition holding all sites: `open`, then per site `entry` (`{}`
/// the stem) before its bytes and `sep` after, then `close`.
pub fn group(sites: &[&Site], open: &str, entry: &str, sep: &str, close: &str) -> Vec<Piece> {
    let mut out = vec![new(open)];
    for s in sites {
        out.push(new(entry.replace("{}", &s.stem)));
        out.push(orig(s.node.byte_range()));
        out.push(new(sep));
    }
    out.push(new(close));
    out
}

/// A string built in parts: literal text (unescaped) and expressions
/// (their source text).
#[derive(Clone, Debug)]
pub enum Part {
    Lit(String),
    Arg(String),
}

/// Whether a literal's text can be written in any quotes of any of the
/// languages without an escape.
pub fn safe(text: &str) -> bool {
    !text.contains(['\\', '"', '\'', '`', '$', '#', '%', '\n'])
}

/// Whether `parts` are a string built from literal text and expressions
/// both, its literal text safe.
pub fn mixed(parts: &[Part]) -> bool {
    parts.iter().any(|p| matches!(p, Part::Arg(_)))
        && parts.iter().any(|p| matches!(p, Part::Lit(_)))
        && parts.iter().all(|p| match p {
            Part::Lit(l) => safe(l),
            Part::Arg(_) => true,
        })
}

/// The parts written one after another: `lit` writes a literal's text,
/// `arg` an expression, `sep` between.
pub fn render(
    parts: &[Part],
    lit: impl Fn(&str) -> String,
    arg: impl Fn(&str) -> String,
    sep: &str,
) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Lit(l) => lit(l),
            Part::Arg(a) => arg(a),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// A template (`%s`, `{}`) with its expressions: `hole` stands for each,
/// `escape` writes a literal's text.
pub fn template(parts: &[Part], hole: &str, escape: impl Fn(&str) -> String) -> (String, String) {
    let mut text = String::new();
    let mut args = Vec::new();
    for p in parts {
        match p {
            Part::Lit(l) => text.push_str(&escape(l)),
            Part::Arg(a) => {
                text.push_str(hole);
                args.push(a.as_str());
            }
        }
    }
    (text, args.join(", "))
}

/// A template's text (`%s` or `{}` holes, `%%` or `{{ }}` escapes) and its
/// arguments as parts; `None` for any other hole, or arguments that do not
/// match the holes.
pub fn parse_template(text: &str, hole: &str, args: &[String]) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut rest = text;
    let mut next = args.iter();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix(hole) {
            if !lit.is_empty() {
                parts.push(Part::Lit(std::mem::take(&mut lit)));
            }
            parts.push(Part::Arg(next.next()?.clone()));
            rest = r;
            continue;
        }
        let c = rest.chars().next()?;
        let doubled = [c, c].iter().collect::<String>();
        if hole.starts_with(c) || (hole == "{}" && c == '}') {
            rest = rest.strip_prefix(&doubled)?;
        } else {
            rest = &rest[c.len_utf8()..];
        }
        lit.push(c);
    }
    if !lit.is_empty() {
        parts.push(Part::Lit(lit));
    }
    next.next().is_none().then_some(parts)
}

/// Each (one-line) node replaced by its parts written by `write`.
pub fn rebuild(
    src: &Source,
    forms: Vec<(Node, Vec<Part>)>,
    write: impl Fn(&[Part]) -> Option<String>,
) -> Option<Rewritten> {
    rebuild_with(src, forms, write, |_| {})
}

/// [`rebuild`], and `extra` edits when a node was rebuilt.
pub fn rebuild_with(
    src: &Source,
    forms: Vec<(Node, Vec<Part>)>,
    write: impl Fn(&[Part]) -> Option<String>,
    extra: impl FnOnce(&mut Edits),
) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut any = false;
    for (n, parts) in forms {
        if n.start_position().row != n.end_position().row || !mixed(&parts) {
            continue;
        }
        if let Some(text) = write(&parts) {
            e.replace_text(n.byte_range(), text);
            any = true;
        }
    }
    if !any {
        return None;
    }
    extra(&mut e);
    e.finish()
}

/// The leaves of a chain of `op` (`a + "b" + c`) whose top is `n`.
pub fn chain_leaves<'t>(src: &Source, n: Node<'t>, kind: &str, op: &str) -> Vec<Node<'t>> {
    let is_op = |n: Node| {
        n.kind() == kind && n.child_by_field_name("operator").map(|o| src.text_of(o)) == Some(op)
    };
    if !is_op(n) {
        return vec![n];
    }
    let (Some(l), Some(r)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return vec![n];
    };
    let mut out = chain_leaves(src, l, kind, op);
    out.push(r);
    out
}

/// Every top-most chain of `+` (`kind` its node) with a plain string in it:
/// as parts, the literals' text and the other leaves' source.
pub fn concat_chains<'t>(src: &'t Source, syn: &Syntax, kind: &str) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    for n in src.nodes() {
        if n.kind() != kind
            || n.child_by_field_name("operator").map(|o| src.text_of(o)) != Some("+")
            || n.parent().is_some_and(|p| p.kind() == kind)
        {
            continue;
        }
        let parts: Vec<Part> = chain_leaves(src, n, kind, "+")
            .into_iter()
            .map(|l| match (syn.plain)(src, l) {
                Some(text) => Part::Lit(text),
                None => Part::Arg(src.text_of(l).to_string()),
            })
            .collect();
        out.push((n, parts));
    }
    out
}

/// The arguments of a call's argument list (named children but comments).
pub fn arguments(list: Node) -> Vec<Node> {
    named(list)
        .into_iter()
        .filter(|c| !c.kind().contains("comment"))
        .collect()
}

/// Each call whose function `method` picks (with the receiver to write
/// again) held in `method_N` first: `open(name)` + the function's bytes +
/// `close(receiver)` on a line before the call's statement, and `method_N`
/// in their place.
pub fn method_values<'t>(
    src: &'t Source,
    syn: &Syntax,
    method: impl Fn(Node<'t>) -> Option<(Node<'t>, Node<'t>)>,
    open: impl Fn(&str) -> String,
    close: impl Fn(&str) -> String,
) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut made = 0;
    for n in src.nodes() {
        let Some((func, recv)) = method(n) else {
            continue;
        };
        let Some(stmt) = syn.statement(src, n) else {
            continue;
        };
        let name = format!("method_{made}");
        if syn.taken(src, &name) {
            return None;
        }
        e.hoist(
            stmt.start_byte(),
            &src.indent_at(stmt.start_byte()),
            func.byte_range(),
            open(&name),
            &close(src.text_of(recv)),
            &name,
        );
        made += 1;
    }
    e.finish()
}

/// The first argument of each call that is itself a call, the arguments
/// before it simple, bound to `arg_N` by `bind(name)` + its bytes +
/// `close` on a line before the call's statement.
pub fn let_argument(
    src: &Source,
    syn: &Syntax,
    bind: impl Fn(&str) -> String,
    close: &str,
) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut done: Vec<std::ops::Range<usize>> = Vec::new();
    for list in src.nodes() {
        if !syn.args.contains(&list.kind()) {
            continue;
        }
        let args = arguments(list);
        let Some(pick) = args.iter().position(|a| a.kind() == syn.call) else {
            continue;
        };
        let arg = args[pick];
        if args[..pick].iter().any(|a| !syn.simple.contains(&a.kind()))
            || done
                .iter()
                .any(|r| r.start < arg.end_byte() && arg.start_byte() < r.end)
        {
            continue;
        }
        let Some(stmt) = syn.statement(src, list) else {
            continue;
        };
        let name = format!("arg_{}", done.len());
        if syn.taken(src, &name) {
            return None;
        }
        let indent = src.indent_at(stmt.start_byte());
        e.hoist(
            stmt.start_byte(),
            &indent,
            arg.byte_range(),
            bind(&name),
            close,
            &name,
        );
        done.push(arg.byte_range());
    }
    e.finish()
}

/// Each call of two arguments or more, all of `kinds` (no keyword, no
/// block, no function), given them as one list: `open(name)` + the
/// arguments + `close` on a line before the call's statement, and
/// `spread(name)` in their place.
pub fn spread_arguments(
    src: &Source,
    syn: &Syntax,
    kinds: &[&str],
    open: impl Fn(&str) -> String,
    close: &str,
    spread: impl Fn(&str) -> String,
) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut done: Vec<std::ops::Range<usize>> = Vec::new();
    for list in src.nodes() {
        if !syn.args.contains(&list.kind())
            || done
                .iter()
                .any(|r| r.start < list.end_byte() && list.start_byte() < r.end)
        {
            continue;
        }
        let args = arguments(list);
        if args.len() < 2 || args.iter().any(|a| !kinds.contains(&a.kind())) {
            continue;
        }
        let Some(stmt) = syn.statement(src, list) else {
            continue;
        };
        let name = format!("args_{}", done.len());
        if syn.taken(src, &name) {
            return None;
        }
        let indent = src.indent_at(stmt.start_byte());
        let inner = args[0].start_byte()..args[args.len() - 1].end_byte();
        e.replace(
            stmt.start_byte()..stmt.start_byte(),
            vec![
                new(open(&name)),
                orig(inner.clone()),
                new(format!("{close}\n{indent}")),
            ],
        );
        e.replace_text(inner, spread(&name));
        done.push(list.byte_range());
    }
    e.finish()
}

/// A function to delegate: the node, its name, its body and the call of
/// its copy named `inner` (what the body becomes).
pub struct Delegate<'t> {
    pub node: Node<'t>,
    pub name: Node<'t>,
    pub body: Node<'t>,
    pub call: String,
}

/// Each function of `delegates` copied after itself under the name
/// `NAME_inner` (`NAMEInner` with `camel`) with its body, its own body
/// replaced by the copy's call (`call(inner)`).
pub fn delegate(
    src: &Source,
    syn: &Syntax,
    delegates: Vec<Delegate>,
    camel: bool,
) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for d in delegates {
        let name = src.text_of(d.name);
        let inner = if camel {
            format!("{name}Inner")
        } else {
            format!("{name}_inner")
        };
        if syn.taken(src, &inner) {
            return None;
        }
        let indent = src.indent_at(d.node.start_byte());
        e.replace_text(d.body.byte_range(), d.call.replace("{}", &inner));
        e.replace(
            d.node.end_byte()..d.node.end_byte(),
            vec![
                new(format!("\n\n{indent}")),
                orig(d.node.start_byte()..d.name.start_byte()),
                new(inner),
                orig(d.name.end_byte()..d.node.end_byte()),
            ],
        );
    }
    e.finish()
}

/// Plain string literals passed to calls, quoted by `from`, written
/// between `to` quotes (none holding either quote or an escape).
pub fn requote(src: &Source, syn: &Syntax, from: char, to: char) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let Some(text) = (syn.plain)(src, n) else {
            continue;
        };
        if src.text_of(n).starts_with(from)
            && !src.text_of(n).starts_with(&format!("{from}{from}{from}"))
            && safe(&text)
            && n.parent().is_some_and(|p| syn.args.contains(&p.kind()))
        {
            e.replace_text(n.byte_range(), format!("{to}{text}{to}"));
        }
    }
    e.finish()
}
