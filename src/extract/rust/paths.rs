//! Paths: `use` imports expanded to full paths, path segments, and the calls
//! that may be calls of the code base (not of the standard library, the
//! Redis clients or common crates).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::extract::sends;

use super::client::is_client_method;
use super::{args_of, callee, peel_ref, Cx};

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `use a::{b, c as d};`: remembers the full path of each name.
    pub(super) fn use_declaration(&mut self, n: Node<'_>) {
        if let Some(arg) = n.child_by_field_id(F.argument) {
            let mut out = Vec::new();
            expand_use(&self.text(arg), &[], &mut out);
            self.uses.extend(out);
            self.scope_import(arg);
        }
    }

    /// A path as written, with a `use` alias at its head replaced by the
    /// imported path, and `crate::`/`self::`/`super::` dropped.
    pub(super) fn resolve_path(&self, mut path: Vec<String>) -> Vec<String> {
        if let Some(full) = path.first().and_then(|h| self.uses.get(h)) {
            let mut p = full.clone();
            p.extend(path.drain(1..));
            path = p;
        }
        strip_relative(path)
    }

    /// A call to a function or method of the code base, with its arguments.
    pub(super) fn call_fact(&mut self, n: Node<'_>) {
        let Some(func) = callee(n) else {
            return;
        };
        let mut receiver = None;
        let path = match func.kind() {
            "identifier" | "scoped_identifier" => {
                let written = path_segments(&self.text(func));
                if written.len() == 1
                    && (self.scope.locals.contains_key(&written[0])
                        || self.scope.params.contains(&written[0]))
                {
                    return; // a closure held in a variable
                }
                let path = self.resolve_path(written);
                if !is_codebase_path(&path) {
                    return;
                }
                path
            }
            "field_expression" => {
                let (Some(recv), Some(field)) = (
                    func.child_by_field_id(F.value),
                    func.child_by_field_id(F.field),
                ) else {
                    return;
                };
                let method = self.text(field);
                if is_api_method(&method) {
                    return;
                }
                if peel_ref(recv).kind() == "self" {
                    vec!["self".to_string(), method]
                } else {
                    receiver = Some(self.value(recv, 0));
                    vec![method]
                }
            }
            _ => return,
        };
        let args = args_of(n).into_iter().map(|a| self.value(a, 0)).collect();
        let call = sends::call_fact(path, args, receiver, self.span(n), self.cur_func);
        self.facts.calls.push(call);
    }
}

/// Path roots that are not the code base: the standard library, the Redis
/// clients, common crates, std types.
const FOREIGN_ROOTS: &[&str] = &[
    "std",
    "core",
    "alloc",
    "redis",
    "deadpool_redis",
    "deadpool",
    "fred",
    "rustis",
    "tokio",
    "futures",
    "serde",
    "serde_json",
    "tracing",
    "log",
    "anyhow",
    "thiserror",
    "eyre",
    "sha1",
    "hex",
    "uuid",
    "chrono",
    "once_cell",
    "lazy_static",
    "String",
    "Vec",
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "VecDeque",
    "Box",
    "Arc",
    "Rc",
    "RefCell",
    "Cell",
    "Mutex",
    "RwLock",
    "Cow",
    "Option",
    "Result",
    "Duration",
    "Instant",
    "SystemTime",
    "Script",
    "Cmd",
    "Pipeline",
    "LazyLock",
    "OnceLock",
    "Lazy",
    "OnceCell",
    "Default",
    "From",
    "Into",
    "Iterator",
    "PathBuf",
    "Path",
    "Uuid",
    "Utc",
    "Local",
    "str",
    "char",
    "bool",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
    "drop",
    "pipe",
    "Client",
    "Pool",
    "Config",
    "RedisPool",
    "Builder",
];

/// Methods of the standard library and the Redis clients: not calls of the
/// code base (besides the client methods of `client.rs`).
const API_METHODS: &[&str] = &[
    "cmd",
    "atomic",
    "ignore",
    "execute_async",
    "get_connection",
    "get_async_connection",
    "get_multiplexed_async_connection",
    "get_multiplexed_tokio_connection",
    "get_connection_manager",
    "get_hash",
    "load",
    "load_async",
    "unwrap",
    "unwrap_or",
    "unwrap_or_default",
    "unwrap_or_else",
    "expect",
    "ok",
    "err",
    "ok_or",
    "ok_or_else",
    "map",
    "map_err",
    "and_then",
    "or_else",
    "iter",
    "iter_mut",
    "into_iter",
    "collect",
    "filter",
    "filter_map",
    "flat_map",
    "flatten",
    "enumerate",
    "zip",
    "chain",
    "take",
    "skip",
    "rev",
    "cloned",
    "copied",
    "fold",
    "any",
    "all",
    "find",
    "position",
    "count",
    "sum",
    "min",
    "max",
    "last",
    "first",
    "next",
    "len",
    "is_empty",
    "push",
    "push_str",
    "pop",
    "insert",
    "remove",
    "get",
    "get_mut",
    "contains",
    "contains_key",
    "extend",
    "clear",
    "sort",
    "sort_by",
    "dedup",
    "retain",
    "split",
    "splitn",
    "split_once",
    "trim",
    "starts_with",
    "ends_with",
    "replace",
    "join",
    "concat",
    "to_string",
    "to_owned",
    "as_str",
    "as_ref",
    "as_mut",
    "as_bytes",
    "clone",
    "into",
    "borrow",
    "borrow_mut",
    "deref",
    "as_deref",
    "to_vec",
    "into_owned",
    "parse",
    "lock",
    "read",
    "write",
    "send",
    "recv",
    "spawn",
    "entry",
    "or_insert",
    "or_insert_with",
    "or_default",
    "keys",
    "values",
    "as_slice",
    "chars",
    "bytes",
    "lines",
    "to_lowercase",
    "to_uppercase",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "fmt",
    "format",
    "eq",
    "cmp",
    "hash",
    "new",
    "default",
    "build",
    "with_capacity",
    "from",
    "try_into",
    "try_from",
    "set_ex",
    "from_lua",
    "sha1",
    "with_hash",
    "init",
    "connect",
    "quit",
    "get_or_init",
    "subscribe",
    "zrange",
    "await",
    "as_secs",
    "as_millis",
    "elapsed",
    "now",
    "then",
    "await_result",
    "boxed",
];

fn is_api_method(m: &str) -> bool {
    API_METHODS.contains(&m) || is_client_method(m)
}

/// Whether a called path may be a function of the code base.
fn is_codebase_path(path: &[String]) -> bool {
    let (Some(first), Some(last)) = (path.first(), path.last()) else {
        return false;
    };
    if FOREIGN_ROOTS.contains(&first.as_str()) {
        return false;
    }
    // Tuple structs and enum variants: `Wrapper(x)`, `Kind::Job(id)`.
    !last.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Drops `crate::`, `self::`, `super::` from the head of a path.
fn strip_relative(path: Vec<String>) -> Vec<String> {
    let skip = path
        .iter()
        .take_while(|s| matches!(s.as_str(), "crate" | "self" | "super"))
        .count();
    if skip >= path.len() {
        return path;
    }
    path[skip..].to_vec()
}

/// `use a::{b, c::d as e, f::{self, g}}` → `(b, [a, b])`, `(e, [a, c, d])`, …
fn expand_use(t: &str, prefix: &[String], out: &mut Vec<(String, Vec<String>)>) {
    let t = t.trim();
    if let (Some(open), Some(close)) = (t.find('{'), t.rfind('}')) {
        if open < close {
            let mut p = prefix.to_vec();
            p.extend(path_segments(t[..open].trim().trim_end_matches("::")));
            let inner = &t[open + 1..close];
            let mut depth = 0usize;
            let mut start = 0usize;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth = depth.saturating_sub(1),
                    ',' if depth == 0 => {
                        expand_use(&inner[start..i], &p, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand_use(&inner[start..], &p, out);
            return;
        }
    }
    let (path_t, alias) = match t.split_once(" as ") {
        Some((p, a)) => (p, Some(a.trim().to_string())),
        None => (t, None),
    };
    let mut segs = prefix.to_vec();
    segs.extend(path_segments(path_t));
    if segs.last().is_some_and(|l| l == "self") {
        segs.pop();
    }
    let Some(last) = segs.last().cloned() else {
        return;
    };
    if last == "*" || alias.as_deref() == Some("_") {
        return;
    }
    let segs = strip_relative(segs);
    out.push((alias.unwrap_or(last), segs));
}

/// `crate :: keys::PREFIX` → `["crate", "keys", "PREFIX"]`.
pub(super) fn path_segments(t: &str) -> Vec<String> {
    t.split("::")
        .map(|s| s.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|s| !s.is_empty())
        .collect()
}
