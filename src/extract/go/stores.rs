//! Stores through pointers, as Go's meaning of `*p = v` gives them.
//!
//! A function that stores through a pointer its caller passes sets the
//! caller's variable: `func load(dst **redis.Script, src string) { *dst =
//! redis.NewScript(src) }`, called `load(&enqueueCmd, body)`, sets the
//! package's `enqueueCmd`. So does one that stores through each pointer of
//! a map it ranges over, with the entry's key in hand:
//!
//! ```go
//! func loadScripts(m map[string]**redis.Script) {
//!     for file, cmd := range m {
//!         body, _ := fs.ReadFile(luaScripts, "scripts/"+file)
//!         *cmd = redis.NewScript(string(body))
//!     }
//! }
//! loadScripts(map[string]**redis.Script{"enqueue.lua": &enqueueCmd})
//! ```
//!
//! A loop over a map literal of such pointers in the function itself
//! stores through each the same way.
//!
//! The function's store is a function of its own
//! ([`crate::facts::store_name`]), whose
//! parameters are the function's, then the entry's key when it ranges over
//! a map, and whose value is what it stores. A call of a function of the
//! package (a bare name) that passes `&v` of a package-level `v`, or a map
//! literal of such pointers, defines each `v` as that function's value
//! at the call: the link follows it as any call of the code base (the store
//! function missing, the definition says nothing).

use super::Cx;
use crate::extract::fields::GO as F;
use crate::extract::source::{OnePass, Source};
use crate::facts::{store_name, FunctionDef, Span, Value};
use crate::parse::named_children;
use tree_sitter::Node;

/// The name of the key parameter of a store function that passes an
/// entry's key on.
const KEY: &str = "#key";

/// At most this many pointers of one call are read.
const MAX_POINTERS: usize = 64;

/// A store through a pointer the function's caller passes.
pub(super) struct Store {
    /// The parameter that holds the pointer, or the map of pointers.
    param: usize,
    /// The name of the key of the map's entry, when the store is made in a
    /// `range` over the map.
    key: Option<String>,
    value: Value,
}

/// The loop over a map parameter being walked: its value variable, the
/// parameter and its key variable.
#[derive(Clone)]
pub(super) struct RangeOver {
    value: String,
    over: Over,
    key: Option<String>,
}

/// What a `range` walks over.
#[derive(Clone)]
enum Over {
    /// A map parameter, by its index.
    Param(usize),
    /// A map literal of pointers the function holds (bound to a local, or
    /// written in place): its entries.
    Entries(Vec<(Value, String, Span)>),
}

impl<'s, 'p> Cx<'s, 'p> {
    /// `for k, v := range m` over a map parameter `m`, or over a map
    /// literal of pointers to package variables, in a function: its body
    /// walked with `k` the entry's key (a parameter after the function's
    /// own) and `v` an entry's pointer; `false` for any other `for`.
    pub(super) fn range_over_param(&mut self, n: Node<'_>) -> bool {
        let Some(clause) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "range_clause")
        else {
            return false;
        };
        let (Some(left), Some(right)) = (
            clause.child_by_field_id(F.left),
            clause.child_by_field_id(F.right),
        ) else {
            return false;
        };
        let names: Vec<String> = named_children(left)
            .into_iter()
            .map(|l| self.text(l))
            .collect();
        let [key, value] = names.as_slice() else {
            return false;
        };
        let over = match self.param_index(&self.text(right)) {
            Some(param) => Over::Param(param),
            None => {
                let entries = match right.kind() {
                    "composite_literal" => self.pointer_entries(right),
                    "identifier" => self
                        .pointer_maps
                        .get(&self.text(right))
                        .cloned()
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                if entries.is_empty() {
                    return false;
                }
                Over::Entries(entries)
            }
        };
        if self.base.cur_func.is_none() || self.range_over.is_some() || value == "_" {
            return false;
        }
        let key = (key != "_").then(|| key.clone());
        let before = self.scope.names.locals.clone();
        if let Some(k) = &key {
            let index = self.scope.names.params.len();
            let span = self.span(left);
            let v = Value::Param {
                index,
                name: k.clone(),
                span,
            };
            self.scope.names.locals.insert(k.clone(), v);
        }
        self.scope.names.locals.remove(value);
        self.range_over = Some(RangeOver {
            value: value.clone(),
            over,
            key,
        });
        if let Some(body) = n.child_by_field_id(F.body) {
            self.block(body);
        }
        self.range_over = None;
        self.scope.names.locals = before;
        true
    }

    /// The index of the parameter `name`, where it is one and no local
    /// hides it.
    fn param_index(&self, name: &str) -> Option<usize> {
        if self.scope.names.locals.contains_key(name) {
            return None;
        }
        self.scope.names.params.iter().position(|p| p == name)
    }

    /// `*p = v`: a store through the pointer a parameter holds, or an entry
    /// of the map parameter being ranged over holds. `false` when `l` is
    /// no such store.
    pub(super) fn pointer_store(&mut self, l: Node<'_>, r: Node<'_>) -> bool {
        if l.kind() != "unary_expression" || !self.text(l).starts_with('*') {
            return false;
        }
        let Some(p) = l.child_by_field_id(F.operand) else {
            return false;
        };
        if p.kind() != "identifier" || self.base.cur_func.is_none() {
            return false;
        }
        let name = self.text(p);
        let (param, key) = match &self.range_over {
            Some(o) if o.value == name => match &o.over {
                Over::Param(param) => (*param, o.key.clone()),
                Over::Entries(entries) => {
                    let (entries, key) = (entries.clone(), o.key.clone());
                    let value = self.value(r, 0);
                    self.entry_stores(entries, key, value, l);
                    return true;
                }
            },
            _ => match self.param_index(&name) {
                Some(i) => (i, None),
                None => return false,
            },
        };
        let value = self.value(r, 0);
        if self.stores.len() < MAX_POINTERS {
            self.stores.push(Store { param, key, value });
        }
        true
    }

    /// `for k, p := range map[K]**T{k1: &v1, ..} { *p = value }` in the
    /// function being walked: the store is a function of its own (the
    /// function's parameters, then the key), named after the loop, and
    /// each `v` is defined as it with its entry's key (the function's own
    /// parameters unknown).
    fn entry_stores(
        &mut self,
        entries: Vec<(Value, String, Span)>,
        key: Option<String>,
        value: Value,
        at: Node<'_>,
    ) {
        let Some(f) = self
            .base
            .cur_func
            .and_then(|i| self.base.facts.functions.get(i))
        else {
            return;
        };
        let name = format!("{}*range{}", f.name, at.start_byte());
        let own = f.params.len();
        let keyed = key.is_some();
        let f = f.clone();
        self.store_function(&f, name.clone(), key, value);
        for (k, var, span) in entries.into_iter().take(MAX_POINTERS) {
            let mut args = vec![Value::unknown("", span); own];
            args.extend(keyed.then_some(k));
            self.define_stored(&var, &name, args, span, span);
        }
    }

    /// The functions that are what the function `def` (just walked, its
    /// module, name and parameters set) stores through its parameters.
    pub(super) fn store_functions(&mut self, def: &FunctionDef) {
        for s in std::mem::take(&mut self.stores) {
            self.store_function(def, store_name(&def.name, s.param), s.key, s.value);
        }
    }

    /// The function `name` that is what `def` stores: `def`'s parameters,
    /// then the entry's key where there is one, giving `value`.
    fn store_function(
        &mut self,
        def: &FunctionDef,
        name: String,
        key: Option<String>,
        value: Value,
    ) {
        let mut params = def.params.clone();
        params.extend(key);
        let mut f = FunctionDef::declared(def.module.clone(), name, def.name_span, value.span())
            .with_params(params, Vec::new());
        f.returns = value;
        self.base.facts.functions.push(f);
    }

    /// The package variable `var` (its pointer at `at`) defined as what
    /// the store function `function` gives with `args` (the call at `span`).
    fn define_stored(&mut self, var: &str, function: &str, args: Vec<Value>, span: Span, at: Span) {
        let value = Value::Call {
            path: vec![function.to_string()],
            args,
            span,
        };
        let package = self.package.clone();
        crate::extract::define(&mut self.base.facts, package, var, value, at);
    }

    /// `load(&v, ..)`, `load(map[K]*T{k: &v}, ..)` or `load(m, ..)` with
    /// `m` a local bound to such a map, `load` a function of the package:
    /// each package-level `v` is defined as what `load` stores through that
    /// argument ([`store_name`]), with the entry's key after the call's
    /// arguments.
    pub(super) fn pointer_args(&mut self, n: Node<'_>) {
        let Some(func) = n.child_by_field_id(F.function) else {
            return;
        };
        if func.kind() != "identifier" || self.base.cur_func.is_none() {
            return;
        }
        let callee = self.text(func);
        if self.scope.names.is_bound(&callee) {
            return;
        }
        let args = self.arg_nodes(n);
        self.forward_stores(&callee, &args, n);
        let mut targets: Vec<(usize, Option<Value>, String, Span)> = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if let Some((v, at)) = self.package_pointer(*a) {
                targets.push((i, None, v, at));
                continue;
            }
            let entries = match a.kind() {
                "composite_literal" => self.pointer_entries(*a),
                "identifier" => self
                    .pointer_maps
                    .get(&self.text(*a))
                    .cloned()
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            for (k, v, at) in entries {
                targets.push((i, Some(k), v, at));
            }
        }
        if targets.is_empty() {
            return;
        }
        let values: Vec<Value> = args.iter().map(|a| self.value(*a, 0)).collect();
        let span = self.span(n);
        for (i, key, var, at) in targets.into_iter().take(MAX_POINTERS) {
            let mut args = values.clone();
            args.extend(key);
            self.define_stored(&var, &store_name(&callee, i), args, span, at);
        }
    }

    /// `load(.., m, ..)`, `m` a parameter of the function being walked
    /// that holds pointers (`**T`, `map[K]*T`): what `load` stores through
    /// it, this function stores through its own, an entry's key passed on
    /// when there is one (either way: the one `load` takes is found).
    fn forward_stores(&mut self, callee: &str, args: &[Node<'_>], n: Node<'_>) {
        let mut forwarded = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if a.kind() != "identifier" {
                continue;
            }
            let name = self.text(*a);
            let Some(param) = self.param_index(&name) else {
                continue;
            };
            let ty = self.scope.types.get(&name).map_or("", String::as_str);
            let pointers = ty.starts_with("**")
                || (ty.starts_with("map[")
                    && ty.rsplit(']').next().is_some_and(|v| v.starts_with('*')));
            if pointers {
                forwarded.push((i, param));
            }
        }
        if forwarded.is_empty() {
            return;
        }
        let values: Vec<Value> = args.iter().map(|a| self.value(*a, 0)).collect();
        let span = self.span(n);
        let key = Value::Param {
            index: self.scope.names.params.len(),
            name: KEY.into(),
            span,
        };
        for (i, param) in forwarded {
            let path = vec![store_name(callee, i)];
            let mut keyed = values.clone();
            keyed.push(key.clone());
            for (args, key) in [(values.clone(), None), (keyed, Some(KEY.to_string()))] {
                if self.stores.len() < MAX_POINTERS {
                    let value = Value::Call {
                        path: path.clone(),
                        args,
                        span,
                    };
                    self.stores.push(Store { param, key, value });
                }
            }
        }
    }

    /// `&v` of a package-level `v` (no local nor parameter of that name).
    fn package_pointer(&self, n: Node<'_>) -> Option<(String, Span)> {
        if n.kind() != "unary_expression" || !self.text(n).starts_with('&') {
            return None;
        }
        let v = n.child_by_field_id(F.operand)?;
        let name = self.text(v);
        let package = v.kind() == "identifier" && !self.scope.names.is_bound(&name);
        package.then(|| (name, self.span(v)))
    }

    /// The entries of a map literal whose values are pointers to
    /// package-level variables: each key's value, the variable, its span.
    pub(super) fn pointer_entries(&mut self, n: Node<'_>) -> Vec<(Value, String, Span)> {
        let (Some(ty), Some(body)) = (n.child_by_field_id(F.ty), n.child_by_field_id(F.body))
        else {
            return Vec::new();
        };
        if ty.kind() != "map_type" {
            return Vec::new();
        }
        let mut out = Vec::new();
        for el in named_children(body).into_iter().take(MAX_POINTERS) {
            let (Some(k), Some(v)) = (el.child_by_field_id(F.key), el.child_by_field_id(F.value))
            else {
                continue;
            };
            let Some((var, at)) = self.package_pointer(inner(v)) else {
                continue;
            };
            out.push((self.value(inner(k), 0), var, at));
        }
        out
    }
}

/// A literal element's expression.
fn inner(x: Node<'_>) -> Node<'_> {
    named_children(x).into_iter().next().unwrap_or(x)
}
