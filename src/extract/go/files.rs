//! Script text that comes from a file of the tree, and values a function
//! literal gives where it is called:
//!
//! - `//go:embed path` right above a package-level `var x string` (or
//!   `[]byte`) makes `x` hold that file's text, the path relative to the
//!   package's directory; above a `var fsys embed.FS`, the file system
//!   `fs.ReadFile(fsys, "name")` and `fsys.ReadFile("name")` read from;
//! - `os.ReadFile(p)` and `ioutil.ReadFile(p)` read the file `p` names
//!   (relative to the reading file when something computed comes before
//!   its literal end, as `crate::extract::lua_file_of` says);
//! - `func() T { ..; return v }()`, a function literal called where it
//!   stands (a package-level `var` set so), is what it returns.
//!
//! A file that names no `.lua` file is no script.

use tree_sitter::Node;

use crate::extract::fields::GO as F;
use crate::extract::source::{OnePass, Source};
use crate::extract::LuaFile;
use crate::facts::{Span, Value};
use crate::parse::named_children;

use super::Cx;

/// What the `//go:embed` directives above a declaration name, with the
/// directive's span.
pub(super) type Embeds = Vec<(String, Span)>;

impl<'s, 'p> Cx<'s, 'p> {
    /// The patterns of the `//go:embed` directives right above a `var`
    /// spec (above its declaration when that holds the one spec): the run
    /// of line comments before it, which Go requires to hold them.
    pub(super) fn embed_patterns(&self, spec: Node<'_>) -> Embeds {
        let anchor = match spec.parent() {
            Some(p) if p.kind() == "var_declaration" => p,
            _ => spec,
        };
        let mut out = Vec::new();
        let mut cur = anchor.prev_named_sibling();
        while let Some(c) = cur.filter(|c| c.kind() == "comment") {
            let t = self.text(c);
            if let Some(rest) = t.strip_prefix("//go:embed") {
                if rest.starts_with([' ', '\t']) {
                    for p in rest.split_whitespace() {
                        let p = p.trim_matches(|c| c == '"' || c == '`');
                        out.push((p.to_string(), self.span(c)));
                    }
                }
            }
            cur = c.prev_named_sibling();
        }
        out
    }

    /// A package-level `var` that `//go:embed` fills: a `string` or
    /// `[]byte` holds its one file's text (a `ConstDef` of the script the
    /// file is), an `embed.FS` is a file system the file reads from.
    pub(super) fn embedded_var(&mut self, name: Node<'_>, ty: &str, embeds: Embeds) {
        let n = self.text(name);
        if self.embed_fs_type(ty) {
            self.embed_fs.insert(n);
            return;
        }
        let ([(path, span)], "string" | "[]byte") = (embeds.as_slice(), ty) else {
            return;
        };
        let lit = Value::Str(crate::facts::Template {
            segs: vec![crate::facts::Seg::Lit {
                text: path.clone(),
                span: *span,
            }],
            span: *span,
        });
        let Some((rel, _)) = crate::extract::lua_file_of(&lit) else {
            return;
        };
        self.base.binding = Some((n.clone(), self.span(name), false));
        let v = self.file_script(rel, true, *span, name);
        self.base.binding = None;
        let module = self.package.clone();
        self.define(module, &n, v, name);
    }

    /// Whether a declared type is `embed.FS`.
    fn embed_fs_type(&self, t: &str) -> bool {
        let Some((q, name)) = t.split_once('.') else {
            return false;
        };
        name == "FS" && self.imports.get(q).is_some_and(|p| p == "embed")
    }

    /// A read of a file's text, as the script the file is: `os.ReadFile(p)`,
    /// `ioutil.ReadFile(p)`, `fs.ReadFile(fsys, p)` or `fsys.ReadFile(p)`
    /// of an embedded file system; `None` for any other call, or a path
    /// that names no `.lua` file.
    pub(super) fn file_read(&mut self, n: Node<'_>, path: &[String], d: usize) -> Option<Value> {
        let args = self.arg_nodes(n);
        let (p, in_package) = match (path, args.as_slice()) {
            ([pkg, f], [p]) if matches!(pkg.as_str(), "os" | "ioutil") && f == "ReadFile" => {
                (*p, false)
            }
            ([pkg, f], [fsys, p]) if pkg == "fs" && f == "ReadFile" && self.embedded_fs(*fsys) => {
                (*p, true)
            }
            _ => return None,
        };
        let v = self.value(p, d + 1);
        let Some((rel, after_dir)) = crate::extract::lua_file_of(&v) else {
            // A path the link may fill in (`"scripts/" + name`, `name` a
            // parameter): the read, for the link.
            return self.base.read_script(v, self.span(n));
        };
        Some(self.file_script(rel, in_package || after_dir, v.span(), n))
    }

    /// `fsys.ReadFile("x.lua")` on an embedded file system.
    pub(super) fn fs_method_read(&mut self, n: Node<'_>, d: usize) -> Option<Value> {
        let func = self.function_of(n)?;
        let fsys = func.child_by_field_id(F.operand)?;
        let m = func.child_by_field_id(F.field)?;
        let [p] = self.arg_nodes(n)[..] else {
            return None;
        };
        if self.text(m) != "ReadFile" || !self.embedded_fs(fsys) {
            return None;
        }
        let v = self.value(p, d + 1);
        let (rel, _) = crate::extract::lua_file_of(&v)?;
        Some(self.file_script(rel, true, v.span(), n))
    }

    /// Whether an expression names an `embed.FS` of the package: one this
    /// file declares, or a package variable another of its files declares
    /// (no local, import or variable of this file of that name), read as
    /// files of the package's directory.
    fn embedded_fs(&self, n: Node<'_>) -> bool {
        n.kind() == "identifier" && {
            let t = self.text(n);
            !self.scope.names.is_bound(&t)
                && (self.embed_fs.contains(&t)
                    || (!self.imports.contains_key(&t)
                        && !self.globals.types.contains_key(&t)
                        && !self.base.facts.consts.iter().any(|c| c.name == t)))
        }
    }

    /// The script a `.lua` file is, read at `at`: named by the binding
    /// being read, else by the file's stem.
    fn file_script(
        &mut self,
        rel: String,
        relative_to_file: bool,
        span: Span,
        at: Node<'_>,
    ) -> Value {
        let file = LuaFile {
            rel,
            relative_to_file,
            span,
        };
        self.base.file_script(file, self.span(at))
    }

    /// `func() T { ..; return v }()`: the function literal's body walked
    /// once, here, in its own scope; the call is what its `return`s give.
    pub(super) fn called_literal(&mut self, lit: Node<'_>) -> Option<Value> {
        if let Some(v) = self.literals_read.get(&lit.start_byte()) {
            return Some(v.clone());
        }
        let body = lit.child_by_field_id(F.body)?;
        let saved = self.scope.clone();
        let binding = self.base.binding.take();
        self.base.returns.push(Vec::new());
        self.walk_sub(body);
        let mut rets = self.base.returns.pop().unwrap_or_default();
        self.base.binding = binding;
        self.scope = saved;
        let span = self.span(lit);
        let v = match rets.len() {
            0 => Value::unknown(self.label(lit), span),
            1 => rets.remove(0),
            _ => Value::OneOf { alts: rets, span },
        };
        self.literals_read.insert(lit.start_byte(), v.clone());
        Some(v)
    }
}

/// The function literal a call calls where it stands, if it calls one
/// without arguments: `func() T { .. }()`, `(func() T { .. })()`.
pub(super) fn literal_callee<'t>(call: Node<'t>) -> Option<Node<'t>> {
    let mut f = call.child_by_field_id(F.function)?;
    while f.kind() == "parenthesized_expression" {
        f = named_children(f).into_iter().next()?;
    }
    let no_args = call
        .child_by_field_id(F.arguments)
        .is_some_and(|a| named_children(a).iter().all(|x| x.kind() == "comment"));
    (f.kind() == "func_literal" && no_args).then_some(f)
}
