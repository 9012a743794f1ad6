//! What the rest of wirelint may ask of a language, in the spirit of
//! ast-grep's `Language`: one row of data per language wirelint reads
//! ([`Host`], the table [`HOSTS`]), and [`Lang::host`] to reach it. A row
//! holds the language's names, extensions and comment syntax, where Lua
//! sits in its files, and the functions that read it: the prefilter's
//! needles and the extractor. Code outside `src/extract/` asks the
//! language instead of matching on [`Lang`]:
//!
//! - the prefilter: whether a file can yield a Redis fact
//!   ([`Host::speaks`]), and whether a file is a script by itself
//!   ([`Host::lua`]);
//! - suppressions: the comment markers a `wirelint: allow(..)` may follow
//!   ([`Host::comment_markers`]);
//! - WL001: whether Lua that fails to parse sat in a host's strings
//!   (reported as embedded Lua) or was a `.lua` file.
//!
//! [`Lang`] itself stays in `crate::facts`, where the model names a file's
//! language; its `host` method is defined here, beside the implementations.

use tree_sitter::Node;

use crate::extract::{elixir, go, js, lua, needles, python, ruby, rust, script_name_from_stem};
use crate::facts::{FileFacts, FileId, Lang, ScriptDef, ScriptSource, Span};
use crate::parse::Parsers;

/// What a Rust file that calls Redis through a client holds, matched
/// without regard to case (the client method table's needles).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FactNeedles {
    /// Any one of these.
    pub any: Vec<String>,
    /// Or one of these together with one of `guards`: names that are a
    /// Redis call only on a Redis-like receiver (Rust's `.get`, `.set`).
    pub guarded: Vec<String>,
    pub guards: Vec<String>,
}

/// A language's names in the tools wirelint runs beside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolNames {
    /// pre-commit's file types (`types_or` of the hook).
    pub precommit: &'static [&'static str],
    /// The Language Server Protocol's language ids (VS Code's, Neovim's
    /// file types).
    pub editor: &'static [&'static str],
}

/// Where Lua sits in a file of a language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuaIn {
    /// The whole file is one script, named by its stem (`.lua`).
    File,
    /// Scripts sit in the language's strings (Elixir, Rust): they are parsed
    /// from the decoded string ([`crate::extract::embedded_lua`]) and their syntax errors
    /// are reported as embedded Lua.
    Strings,
}

/// The facts of one parsed file; `stem` is the file name without its
/// extension.
pub type Extract = fn(Input<'_, '_>) -> FileFacts;

/// What an extractor is given: a file's tree, its bytes and its id, the
/// parsers (for Lua in its strings), and its name without the extension.
pub struct Input<'t, 'a> {
    pub root: Node<'t>,
    pub src: &'a [u8],
    pub file: FileId,
    pub parsers: &'a mut Parsers,
    pub stem: &'a str,
}

/// A language wirelint reads, as data.
pub struct Host {
    pub lang: Lang,
    /// The language's name as the docs and messages give it (TSX is
    /// TypeScript's).
    pub name: &'static str,
    /// The file extensions read as this language (`Lang::from_path`).
    pub extensions: &'static [&'static str],
    /// What tools outside wirelint call this language's files.
    pub tools: ToolNames,
    /// What starts a line comment: `#`, `//`, `--`.
    pub line_comment: &'static str,
    /// The grammar's node kinds of comments.
    pub comment_kinds: &'static [&'static str],
    /// Where Lua sits in this language's files.
    pub lua: LuaIn,
    /// Whether `{name}` in this language's strings may be a format
    /// placeholder rather than literal braces (Rust's `format!`).
    pub format_braces: bool,
    /// Whether a file of this language can yield a protocol fact of its
    /// own (a command, a script call, a field read, a script): a superset,
    /// from its bytes alone (`super::needles`).
    pub speaks: fn(&[u8]) -> bool,
    /// Whether a file `speaks` passes over may yield one when another file
    /// of its speaker brings its client library into scope (a Rust module
    /// importing from one that names the client crate): the selection
    /// parses it only where it can import from a module that has one in
    /// scope (`crate::pipeline` `gate`).
    pub speaks_in_scope: fn(&[u8]) -> bool,
    /// A copy of the text, of the same length, with what a preprocessor
    /// would rewrite before the language reads it made readable (template
    /// tags in a script); `None` when there is nothing to rewrite.
    pub preprocess: fn(&[u8]) -> Option<Vec<u8>>,
    /// The facts of one parsed file.
    pub extract: Extract,
}

impl Host {
    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn display_name(&self) -> &'static str {
        self.name
    }

    pub fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }

    pub fn tool_names(&self) -> ToolNames {
        self.tools
    }

    pub fn line_comment(&self) -> &'static str {
        self.line_comment
    }

    pub fn comment_kinds(&self) -> &'static [&'static str] {
        self.comment_kinds
    }

    pub fn lua(&self) -> LuaIn {
        self.lua
    }

    pub fn format_braces(&self) -> bool {
        self.format_braces
    }

    pub fn speaks(&self, bytes: &[u8]) -> bool {
        (self.speaks)(bytes)
    }

    pub fn speaks_in_scope(&self, bytes: &[u8]) -> bool {
        (self.speaks_in_scope)(bytes)
    }

    pub fn preprocess(&self, src: &[u8]) -> Option<Vec<u8>> {
        (self.preprocess)(src)
    }

    pub fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        (self.extract)(Input {
            root,
            src,
            file,
            parsers,
            stem,
        })
    }

    /// The comment markers a `wirelint: allow(..)` may follow in a file of
    /// this language: its own line comment, and Lua's where Lua sits in its
    /// strings.
    pub fn comment_markers(&self) -> Vec<&'static str> {
        let mut out = vec![self.line_comment];
        if self.lua == LuaIn::Strings {
            out.push(LUA.line_comment);
        }
        out
    }
}

/// The row most languages start from: Lua in strings, `#` comments of the
/// one kind `comment`, no preprocessor, no scope to wait for.
const ROW: Host = Host {
    lang: Lang::Elixir,
    name: "",
    extensions: &[],
    tools: ToolNames {
        precommit: &[],
        editor: &[],
    },
    line_comment: "#",
    comment_kinds: &["comment"],
    lua: LuaIn::Strings,
    format_braces: false,
    speaks: |_| false,
    speaks_in_scope: |_| false,
    preprocess: |_| None,
    extract: |_| FileFacts::default(),
};

/// One name for the language in every tool.
const fn same_names(names: &'static [&'static str]) -> ToolNames {
    ToolNames {
        precommit: names,
        editor: names,
    }
}

pub const ELIXIR: Host = Host {
    lang: Lang::Elixir,
    name: "Elixir",
    extensions: &["ex", "exs"],
    tools: same_names(&["elixir"]),
    // A command list starts with a quoted command name (or an attribute
    // holding one); scripts sit in strings or `.lua` files.
    speaks: |b| needles::command_head(b) || needles::holds_scripts(b),
    extract: |i| elixir::extract(i.root, i.src, i.file, i.parsers),
    ..ROW
};

/// Scripts sit in strings or `.lua` files; every Redis call is a client
/// call (`cmd("HSET")`, a method of the table in `rust/client.rs`) in a
/// file with the client in scope: one that names it (and may be the scope
/// of another module), or (`speaks_in_scope`) imports from a module that
/// may.
pub const RUST: Host = Host {
    lang: Lang::Rust,
    name: "Rust",
    extensions: &["rs"],
    tools: same_names(&["rust"]),
    line_comment: "//",
    comment_kinds: &["line_comment", "block_comment"],
    format_braces: true,
    speaks: |b| needles::holds_scripts(b) || needles::names_client_crate(b),
    speaks_in_scope: |b| needles::imports_module(b) && rust::client_calls(b),
    extract: extract_rust,
    ..ROW
};

pub const LUA: Host = Host {
    lang: Lang::Lua,
    name: "Lua",
    extensions: &["lua"],
    tools: same_names(&["lua"]),
    line_comment: "--",
    lua: LuaIn::File,
    // A script sends Redis commands through `redis.call` or `redis.pcall`
    // and reads `KEYS`; an `@include` brings in another file's.
    speaks: needles::lua_file_speaks,
    // ERB tags on lines of their own (`lua::template`).
    preprocess: lua::template::blank_erb_lines,
    extract: extract_lua,
    ..ROW
};

/// Scripts sit in strings or `.lua` files; every Redis call is a redis-py
/// call (a method of the table in `python/client.rs`, a `Script` called
/// with `keys=`/`args=`) in a file that names Redis.
pub const PYTHON: Host = Host {
    lang: Lang::Python,
    name: "Python",
    extensions: &["py"],
    tools: same_names(&["python"]),
    speaks: |b| needles::holds_scripts(b) || (needles::names_client(b) && python::client_calls(b)),
    extract: extract_python,
    ..ROW
};

/// JavaScript and TypeScript (and TSX): one extractor, three grammars.
/// Scripts sit in strings or `.lua` files; every Redis call is a client
/// method of the table in `js/client.rs`.
const JS: Host = Host {
    line_comment: "//",
    comment_kinds: js::COMMENT_KINDS,
    speaks: |b| needles::holds_scripts(b) || js::client_calls(b),
    ..ROW
};

pub const JAVASCRIPT: Host = Host {
    lang: Lang::JavaScript,
    name: "JavaScript",
    extensions: &["js", "mjs", "cjs", "jsx"],
    tools: ToolNames {
        precommit: &["javascript", "jsx"],
        editor: &["javascript", "javascriptreact"],
    },
    extract: |i| js::extract(i, Lang::JavaScript),
    ..JS
};

pub const TYPESCRIPT: Host = Host {
    lang: Lang::TypeScript,
    name: "TypeScript",
    extensions: &["ts", "mts", "cts"],
    tools: ToolNames {
        precommit: &["ts"],
        editor: &["typescript"],
    },
    extract: |i| js::extract(i, Lang::TypeScript),
    ..JS
};

pub const TSX: Host = Host {
    lang: Lang::Tsx,
    name: "TypeScript",
    extensions: &["tsx"],
    tools: ToolNames {
        precommit: &["tsx"],
        editor: &["typescriptreact"],
    },
    extract: |i| js::extract(i, Lang::Tsx),
    ..JS
};

/// Scripts sit in strings or `.lua` files; every Redis call is a method of
/// the table in `go/client.rs` in a file that names Redis or imports a
/// client (`go::names_client`).
pub const GO: Host = Host {
    lang: Lang::Go,
    name: "Go",
    extensions: &["go"],
    tools: same_names(&["go"]),
    line_comment: "//",
    speaks: |b| needles::holds_scripts(b) || (go::names_client(b) && go::client_calls(b)),
    extract: |i| named_client(go::names_client(i.src), go::extract(i)),
    ..ROW
};

/// Scripts sit in strings, heredocs or `.lua` files; every Redis call is a
/// redis-rb or redis-client method of the table in `ruby/client.rs` in a
/// file that names Redis.
pub const RUBY: Host = Host {
    lang: Lang::Ruby,
    name: "Ruby",
    extensions: &["rb"],
    tools: same_names(&["ruby"]),
    speaks: |b| needles::holds_scripts(b) || (needles::names_client(b) && ruby::client_calls(b)),
    extract: |i| named_client(needles::names_client(i.src), ruby::extract(i)),
    ..ROW
};

/// Every language wirelint reads.
pub const HOSTS: &[&Host] = &[
    &ELIXIR,
    &RUST,
    &LUA,
    &PYTHON,
    &JAVASCRIPT,
    &TYPESCRIPT,
    &TSX,
    &GO,
    &RUBY,
];

/// The facts of a Rust tree, with its place in the module tree: its client
/// calls count only when a client crate is in scope (the link step
/// decides, `crate::link::scope`).
fn extract_rust(i: Input<'_, '_>) -> FileFacts {
    let mut facts = rust::extract(i.root, i.src, i.file, i.parsers);
    rust::settle_scope(&mut facts, i.src, i.stem);
    if facts
        .scope
        .as_ref()
        .is_some_and(|s| !s.names_client && s.imports.is_empty())
    {
        facts.drop_client_facts();
    }
    facts
}

/// A `.lua` file is one script, named by its stem without a key-count
/// suffix; a library of Redis Functions is one script per function it
/// registers, named by its registration (`lua::functions`).
fn extract_lua(i: Input<'_, '_>) -> FileFacts {
    let Input {
        root,
        src,
        file,
        stem,
        ..
    } = i;
    if lua::functions::is_library(src) {
        let scripts = lua::functions::registered(root, src)
            .into_iter()
            .map(|(name, at)| ScriptDef {
                source: ScriptSource::Inline(std::sync::Arc::new(lua::extract_function(
                    root, src, file, &name,
                ))),
                name: Some(name),
                name_span: Span::new(file, at.start, at.end),
                text: None,
                declared_keys: None,
                local: false,
            })
            .collect();
        return FileFacts {
            scripts,
            ..FileFacts::default()
        };
    }
    let lua = lua::extract_chunk(root, src, file);
    let first_line = src.iter().position(|&b| b == b'\n').unwrap_or(src.len());
    FileFacts {
        scripts: vec![ScriptDef {
            name: Some(script_name_from_stem(stem)),
            name_span: Span::new(file, 0, first_line),
            source: ScriptSource::Inline(std::sync::Arc::new(lua)),
            text: Some(String::from_utf8_lossy(src).into()),
            declared_keys: None,
            local: false,
        }],
        ..FileFacts::default()
    }
}

/// The facts of a Python tree; client calls only when the file names Redis
/// ([`needles::names_client`]); a parameter's fields are what callers
/// pass, so a field read of a parameter stays, and no reply is read here.
fn extract_python(i: Input<'_, '_>) -> FileFacts {
    let src = i.src;
    let mut facts = python::extract(i);
    if !needles::names_client(src) {
        facts.commands.clear();
        facts.script_calls.clear();
        facts.field_reads.retain(|r| r.row.is_some());
        for c in &mut facts.calls {
            for a in &mut c.args {
                if crate::facts::hash_reply_parts(a).is_some() {
                    *a = crate::facts::Value::unknown("reply", a.span());
                }
            }
        }
    }
    facts
}

/// A file's facts, its client calls only when it names Redis (`names`:
/// [`needles::names_client`], or the language's own test).
fn named_client(names: bool, mut facts: FileFacts) -> FileFacts {
    if !names {
        facts.commands.clear();
        facts.script_calls.clear();
        facts.field_reads.clear();
    }
    facts
}

/// The languages wirelint reads, by name, in the order of [`HOSTS`]: the
/// one list the docs, `wirelint rules` and messages name them from.
pub fn language_names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for h in HOSTS {
        if !out.contains(&h.name) {
            out.push(h.name);
        }
    }
    out
}

/// The names the tools beside wirelint give the languages it reads, in
/// the order of [`HOSTS`], each once (`pick` chooses the tool).
pub fn tool_names(pick: fn(ToolNames) -> &'static [&'static str]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for name in HOSTS.iter().flat_map(|h| pick(h.tools)) {
        if !out.contains(name) {
            out.push(name);
        }
    }
    out
}

/// `Elixir, Rust, Lua, Python, JavaScript, TypeScript, Go and Ruby` (with `conj` `and` or
/// `or`).
pub fn language_list(conj: &str) -> String {
    let names = language_names();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {conj} {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

impl Lang {
    /// What wirelint knows of this language (its row of [`HOSTS`]).
    pub fn host(self) -> &'static Host {
        match self {
            Lang::Elixir => &ELIXIR,
            Lang::Rust => &RUST,
            Lang::Lua => &LUA,
            Lang::Python => &PYTHON,
            Lang::JavaScript => &JAVASCRIPT,
            Lang::TypeScript => &TYPESCRIPT,
            Lang::Tsx => &TSX,
            Lang::Go => &GO,
            Lang::Ruby => &RUBY,
        }
    }

    /// Whether a file of this language is one Redis script as a whole (a
    /// `.lua` file), not host code that may hold scripts.
    pub fn is_script(self) -> bool {
        self.host().lua == LuaIn::File
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_is_its_own_host() {
        let hosts: Vec<Lang> = HOSTS.iter().map(|h| h.lang()).collect();
        for lang in &hosts {
            assert_eq!(lang.host().lang(), *lang);
        }
        assert_eq!(
            hosts,
            [
                Lang::Elixir,
                Lang::Rust,
                Lang::Lua,
                Lang::Python,
                Lang::JavaScript,
                Lang::TypeScript,
                Lang::Tsx,
                Lang::Go,
                Lang::Ruby
            ]
        );
        assert_eq!(
            language_names(),
            [
                "Elixir",
                "Rust",
                "Lua",
                "Python",
                "JavaScript",
                "TypeScript",
                "Go",
                "Ruby"
            ]
        );
        // Every extension a language claims is read as that language.
        for h in HOSTS {
            for ext in h.extensions() {
                let path = format!("a.{ext}");
                assert_eq!(Lang::from_path(std::path::Path::new(&path)), Some(h.lang()));
            }
        }
    }

    #[test]
    fn suppressions_follow_the_host_comment_and_embedded_lua_comments() {
        assert_eq!(Lang::Elixir.host().comment_markers(), ["#", "--"]);
        assert_eq!(Lang::Python.host().comment_markers(), ["#", "--"]);
        assert_eq!(Lang::Rust.host().comment_markers(), ["//", "--"]);
        assert_eq!(Lang::Go.host().comment_markers(), ["//", "--"]);
        assert_eq!(Lang::Ruby.host().comment_markers(), ["#", "--"]);
        assert_eq!(Lang::Lua.host().comment_markers(), ["--"]);
    }

    #[test]
    fn rust_guards_generic_methods_with_receiver_words() {
        let rust = rust::CLIENTS.fact_needles();
        assert!(rust.any.iter().any(|n| n == ".hset"));
        assert!(rust.guarded.iter().any(|n| n == ".get"));
        assert!(rust.guards.iter().any(|n| n == "con"));
    }

    /// Client calls count only in a Rust file that names a client crate or
    /// may reach one through another module (`crate::link::scope` decides
    /// which); a file that names one is read, as another module's scope.
    #[test]
    fn rust_client_calls_need_the_client_in_scope() {
        let mut p = Parsers::new().unwrap();
        let mut facts =
            |src: &str| crate::extract::extract_file(&mut p, Lang::Rust, 0, src.as_bytes(), "x");
        let call = "fn f(con: &mut C) { con.hset(\"q:1\", \"state\", 1); }\n";
        assert_eq!(facts(call).commands.len(), 0);
        let named = format!("use redis::Commands;\n{call}");
        assert_eq!(facts(&named).commands.len(), 1);
        assert!(Lang::Rust.host().speaks(named.as_bytes()));
        assert!(!Lang::Rust.host().speaks(call.as_bytes()));
        assert!(Lang::Rust.host().speaks(b"use redis::Client; fn f() {}"));
        let moved = format!("use super::*;\n{call}");
        assert_eq!(facts(&moved).commands.len(), 1);
        assert!(!Lang::Rust.host().speaks(moved.as_bytes()));
        assert!(Lang::Rust.host().speaks_in_scope(moved.as_bytes()));
        assert!(!Lang::Rust
            .host()
            .speaks_in_scope(b"use super::*; fn f() {}"));
    }

    /// Header comments of Lua in a host string point at the host's bytes:
    /// `ARGV[n]` (as `KEYS[n]` already did) went through the decoded text's
    /// offsets unmapped, so its span was off by where the string starts and
    /// by every escape before it (found by fuzzing `extract_rust`; it was
    /// `Script;\nco` here).
    #[test]
    fn argv_headers_of_embedded_lua_point_at_the_host() {
        let src = "use redis::Script;\nconst S: &str = \"-- ARGV[1] the job id\\n-- KEYS[1] the row\\nreturn redis.call('GET', KEYS[1])\";\n";
        let mut p = Parsers::new().unwrap();
        let f = crate::extract::extract_file(&mut p, Lang::Rust, 0, src.as_bytes(), "x");
        let Some(crate::facts::ScriptSource::Inline(lua)) = f.scripts.first().map(|s| &s.source)
        else {
            panic!("an inline script: {f:?}");
        };
        let argv = &lua.argv.header[0];
        assert_eq!(
            &src[argv.span.start as usize..argv.span.end as usize],
            "the job id"
        );
        let keys = &lua.header_keys[0];
        assert_eq!(
            &src[keys.span.start as usize..keys.span.end as usize],
            "the row"
        );
    }
}
