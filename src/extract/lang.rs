//! What the rest of wirelint may ask of a language, in the spirit of
//! ast-grep's `Language` trait: one small [`HostLanguage`] implementation
//! per language wirelint reads, and [`Lang::host`] to reach it. Code outside
//! `src/extract/` asks the language instead of matching on [`Lang`]:
//!
//! - the prefilter: what a file that can yield a Redis fact holds
//!   ([`HostLanguage::fact_needles`]), and whether a file is a script by
//!   itself ([`HostLanguage::lua`]);
//! - suppressions: the comment markers a `wirelint: allow(..)` may follow
//!   ([`HostLanguage::comment_markers`]);
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

/// A language wirelint reads.
pub trait HostLanguage: Sync {
    fn lang(&self) -> Lang;

    /// The language's name as the docs and messages give it (TSX is
    /// TypeScript's).
    fn display_name(&self) -> &'static str;

    /// The file extensions read as this language (`Lang::from_path`).
    fn extensions(&self) -> &'static [&'static str];

    /// What tools outside wirelint call this language's files: the file
    /// types of pre-commit's `identify` and the editors' language ids.
    fn tool_names(&self) -> ToolNames;

    /// What starts a line comment: `#`, `//`, `--`.
    fn line_comment(&self) -> &'static str;

    /// The grammar's node kinds of comments.
    fn comment_kinds(&self) -> &'static [&'static str];

    /// Where Lua sits in this language's files.
    fn lua(&self) -> LuaIn;

    /// Whether a file of this language can yield a protocol fact of its
    /// own (a command, a script call, a field read, a script): a superset,
    /// from its bytes alone (`super::needles`).
    fn speaks(&self, bytes: &[u8]) -> bool;

    /// Whether a file [`HostLanguage::speaks`] passes over may yield one
    /// when another file of its speaker brings its client library into
    /// scope (a Rust module importing from one that names the client
    /// crate): the selection parses it only where it can import from a
    /// module that has one in scope (`crate::pipeline` `gate`).
    fn speaks_in_scope(&self, _bytes: &[u8]) -> bool {
        false
    }

    /// Whether `{name}` in this language's strings may be a format
    /// placeholder rather than literal braces (Rust's `format!`).
    fn format_braces(&self) -> bool {
        false
    }

    /// A copy of the text, of the same length, with what a preprocessor
    /// would rewrite before the language reads it made readable (template
    /// tags in a script); `None` when there is nothing to rewrite.
    fn preprocess(&self, _src: &[u8]) -> Option<Vec<u8>> {
        None
    }

    /// The facts of one parsed file; `stem` is the file name without its
    /// extension.
    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts;

    /// The comment markers a `wirelint: allow(..)` may follow in a file of
    /// this language: its own line comment, and Lua's where Lua sits in its
    /// strings.
    fn comment_markers(&self) -> Vec<&'static str> {
        let mut out = vec![self.line_comment()];
        if self.lua() == LuaIn::Strings {
            out.push(Lua.line_comment());
        }
        out
    }
}

pub struct Elixir;
pub struct Rust;
pub struct Lua;
pub struct Python;
pub struct Go;
pub struct Ruby;
/// JavaScript and TypeScript (and TSX): one extractor, three grammars.
pub struct Js(Lang);
pub const JAVASCRIPT: Js = Js(Lang::JavaScript);
pub const TYPESCRIPT: Js = Js(Lang::TypeScript);
pub const TSX: Js = Js(Lang::Tsx);

/// Every language wirelint reads.
pub const HOSTS: &[&dyn HostLanguage] = &[
    &Elixir,
    &Rust,
    &Lua,
    &Python,
    &JAVASCRIPT,
    &TYPESCRIPT,
    &TSX,
    &Go,
    &Ruby,
];

/// The languages wirelint reads, by name, in the order of [`HOSTS`]: the
/// one list the docs, `wirelint rules` and messages name them from.
pub fn language_names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for h in HOSTS {
        if !out.contains(&h.display_name()) {
            out.push(h.display_name());
        }
    }
    out
}

/// The names the tools beside wirelint give the languages it reads, in
/// the order of [`HOSTS`], each once (`pick` chooses the tool).
pub fn tool_names(pick: fn(ToolNames) -> &'static [&'static str]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for name in HOSTS.iter().flat_map(|h| pick(h.tool_names())) {
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
    /// What wirelint knows of this language (see [`HostLanguage`]).
    pub fn host(self) -> &'static dyn HostLanguage {
        match self {
            Lang::Elixir => &Elixir,
            Lang::Rust => &Rust,
            Lang::Lua => &Lua,
            Lang::Python => &Python,
            Lang::JavaScript => &JAVASCRIPT,
            Lang::TypeScript => &TYPESCRIPT,
            Lang::Tsx => &TSX,
            Lang::Go => &Go,
            Lang::Ruby => &Ruby,
        }
    }

    /// Whether a file of this language is one Redis script as a whole (a
    /// `.lua` file), not host code that may hold scripts.
    pub fn is_script(self) -> bool {
        self.host().lua() == LuaIn::File
    }
}

impl HostLanguage for Elixir {
    fn lang(&self) -> Lang {
        Lang::Elixir
    }

    fn display_name(&self) -> &'static str {
        "Elixir"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["ex", "exs"]
    }

    fn tool_names(&self) -> ToolNames {
        ToolNames {
            precommit: &["elixir"],
            editor: &["elixir"],
        }
    }

    fn line_comment(&self) -> &'static str {
        "#"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// A command list starts with a quoted command name (or an attribute
    /// holding one); scripts sit in strings or `.lua` files.
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::command_head(bytes) || needles::holds_scripts(bytes)
    }

    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        _stem: &str,
    ) -> FileFacts {
        elixir::extract(root, src, file, parsers)
    }
}

impl HostLanguage for Rust {
    fn lang(&self) -> Lang {
        Lang::Rust
    }

    fn display_name(&self) -> &'static str {
        "Rust"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["rs"]
    }

    fn tool_names(&self) -> ToolNames {
        ToolNames {
            precommit: &["rust"],
            editor: &["rust"],
        }
    }

    fn line_comment(&self) -> &'static str {
        "//"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["line_comment", "block_comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// Scripts sit in strings or `.lua` files; every Redis call is a client
    /// call (`cmd("HSET")`, a method of the table in `rust/client.rs`) in a
    /// file with the client in scope: one that names it (and may be the
    /// scope of another module), or ([`HostLanguage::speaks_in_scope`])
    /// imports from a module that may.
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::holds_scripts(bytes) || needles::names_client_crate(bytes)
    }

    fn speaks_in_scope(&self, bytes: &[u8]) -> bool {
        needles::imports_module(bytes) && rust::client_calls(bytes)
    }

    fn format_braces(&self) -> bool {
        true
    }

    /// The facts of the tree, with its place in the module tree: its client
    /// calls count only when a client crate is in scope (the link step
    /// decides, `crate::link::scope`).
    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        let mut facts = rust::extract(root, src, file, parsers);
        rust::settle_scope(&mut facts, src, stem);
        if facts
            .scope
            .as_ref()
            .is_some_and(|s| !s.names_client && s.imports.is_empty())
        {
            facts.drop_client_facts();
        }
        facts
    }
}

impl HostLanguage for Lua {
    fn lang(&self) -> Lang {
        Lang::Lua
    }

    fn display_name(&self) -> &'static str {
        "Lua"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["lua"]
    }

    fn tool_names(&self) -> ToolNames {
        ToolNames {
            precommit: &["lua"],
            editor: &["lua"],
        }
    }

    fn line_comment(&self) -> &'static str {
        "--"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::File
    }

    /// A script sends Redis commands through `redis.call` or `redis.pcall`
    /// and reads `KEYS`; an `@include` brings in another file's.
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::lua_file_speaks(bytes)
    }

    /// ERB tags on lines of their own (`lua::template`).
    fn preprocess(&self, src: &[u8]) -> Option<Vec<u8>> {
        lua::template::blank_erb_lines(src)
    }

    /// The file is one script, named by its stem without a key-count
    /// suffix.
    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        _parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        let lua = lua::extract_chunk(root, src, file);
        let first_line = src.iter().position(|&b| b == b'\n').unwrap_or(src.len());
        FileFacts {
            scripts: vec![ScriptDef {
                name: Some(script_name_from_stem(stem)),
                name_span: Span::new(file, 0, first_line),
                source: ScriptSource::Inline(Box::new(lua)),
                text: Some(String::from_utf8_lossy(src).into_owned()),
                declared_keys: None,
                local: false,
            }],
            ..FileFacts::default()
        }
    }
}

impl HostLanguage for Python {
    fn lang(&self) -> Lang {
        Lang::Python
    }

    fn display_name(&self) -> &'static str {
        "Python"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["py"]
    }

    fn tool_names(&self) -> ToolNames {
        ToolNames {
            precommit: &["python"],
            editor: &["python"],
        }
    }

    fn line_comment(&self) -> &'static str {
        "#"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// Scripts sit in strings or `.lua` files; every Redis call is a
    /// redis-py call (a method of the table in `python/client.rs`, a
    /// `Script` called with `keys=`/`args=`) in a file that names Redis.
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::holds_scripts(bytes)
            || (needles::names_client(bytes) && python::client_calls(bytes))
    }

    /// The facts of the tree; client calls only when the file names Redis
    /// ([`needles::names_client`]).
    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        let mut facts = python::extract(root, src, file, parsers, stem);
        if !needles::names_client(src) {
            facts.commands.clear();
            facts.script_calls.clear();
            // A parameter's fields are what callers pass; no reply is
            // read here.
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
}

impl HostLanguage for Js {
    fn lang(&self) -> Lang {
        self.0
    }

    fn display_name(&self) -> &'static str {
        match self.0 {
            Lang::JavaScript => "JavaScript",
            _ => "TypeScript",
        }
    }

    fn extensions(&self) -> &'static [&'static str] {
        match self.0 {
            Lang::JavaScript => &["js", "mjs", "cjs", "jsx"],
            Lang::Tsx => &["tsx"],
            _ => &["ts", "mts", "cts"],
        }
    }

    fn tool_names(&self) -> ToolNames {
        match self.0 {
            Lang::JavaScript => ToolNames {
                precommit: &["javascript", "jsx"],
                editor: &["javascript", "javascriptreact"],
            },
            Lang::Tsx => ToolNames {
                precommit: &["tsx"],
                editor: &["typescriptreact"],
            },
            _ => ToolNames {
                precommit: &["ts"],
                editor: &["typescript"],
            },
        }
    }

    fn line_comment(&self) -> &'static str {
        "//"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        js::COMMENT_KINDS
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// Scripts sit in strings or `.lua` files; every Redis call is a
    /// client method of the table in `js/client.rs`.
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::holds_scripts(bytes) || js::client_calls(bytes)
    }

    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        js::extract(root, src, file, parsers, self.0, stem)
    }
}

impl HostLanguage for Go {
    fn lang(&self) -> Lang {
        Lang::Go
    }

    fn display_name(&self) -> &'static str {
        "Go"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn tool_names(&self) -> ToolNames {
        ToolNames {
            precommit: &["go"],
            editor: &["go"],
        }
    }

    fn line_comment(&self) -> &'static str {
        "//"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// Scripts sit in strings or `.lua` files; every Redis call is a
    /// go-redis or redigo method of the table in `go/client.rs` in a file
    /// that names Redis (its import).
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::holds_scripts(bytes) || (needles::names_client(bytes) && go::client_calls(bytes))
    }

    /// The facts of the tree; client calls only when the file names Redis
    /// ([`needles::names_client`]).
    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        let mut facts = go::extract(root, src, file, parsers, stem);
        if !needles::names_client(src) {
            facts.commands.clear();
            facts.script_calls.clear();
            facts.field_reads.clear();
        }
        facts
    }
}

impl HostLanguage for Ruby {
    fn lang(&self) -> Lang {
        Lang::Ruby
    }

    fn display_name(&self) -> &'static str {
        "Ruby"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["rb"]
    }

    fn tool_names(&self) -> ToolNames {
        ToolNames {
            precommit: &["ruby"],
            editor: &["ruby"],
        }
    }

    fn line_comment(&self) -> &'static str {
        "#"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// Scripts sit in strings, heredocs or `.lua` files; every Redis call
    /// is a redis-rb or redis-client method of the table in
    /// `ruby/client.rs` in a file that names Redis.
    fn speaks(&self, bytes: &[u8]) -> bool {
        needles::holds_scripts(bytes) || (needles::names_client(bytes) && ruby::client_calls(bytes))
    }

    /// The facts of the tree; client calls only when the file names Redis
    /// ([`needles::names_client`]).
    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        stem: &str,
    ) -> FileFacts {
        let mut facts = ruby::extract(root, src, file, parsers, stem);
        if !needles::names_client(src) {
            facts.commands.clear();
            facts.script_calls.clear();
            facts.field_reads.clear();
        }
        facts
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
