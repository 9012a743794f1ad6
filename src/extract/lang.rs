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

use crate::extract::{elixir, lua, rust, script_name_from_stem};
use crate::facts::{FileFacts, FileId, Lang, ScriptDef, ScriptSource, Span};
use crate::parse::Parsers;

/// What a file that can yield a Redis fact of its own (a command, a script
/// call, a field read after HGETALL) necessarily holds, matched without
/// regard to case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FactNeedles {
    /// Any one of these.
    pub any: Vec<String>,
    /// Or one of these together with one of `guards`: names that are a
    /// Redis call only on a Redis-like receiver (Rust's `.get`, `.set`).
    pub guarded: Vec<String>,
    pub guards: Vec<String>,
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

    /// What starts a line comment: `#`, `//`, `--`.
    fn line_comment(&self) -> &'static str;

    /// The grammar's node kinds of comments.
    fn comment_kinds(&self) -> &'static [&'static str];

    /// Where Lua sits in this language's files.
    fn lua(&self) -> LuaIn;

    /// What a file of this language that can yield a Redis fact of its own
    /// holds (the prefilter's fact needles).
    fn fact_needles(&self) -> FactNeedles;

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

/// Every language wirelint reads.
pub const HOSTS: &[&dyn HostLanguage] = &[&Elixir, &Rust, &Lua];

impl Lang {
    /// What wirelint knows of this language (see [`HostLanguage`]).
    pub fn host(self) -> &'static dyn HostLanguage {
        match self {
            Lang::Elixir => &Elixir,
            Lang::Rust => &Rust,
            Lang::Lua => &Lua,
        }
    }

    /// Whether a file of this language is one Redis script as a whole (a
    /// `.lua` file), not host code that may hold scripts.
    pub fn is_script(self) -> bool {
        self.host().lua() == LuaIn::File
    }
}

/// Every command name in quotes, as a host's command list or `cmd("X")`
/// writes it: `"HSET"`, `'GET'`.
fn quoted_commands() -> Vec<String> {
    crate::redis::commands()
        .iter()
        .flat_map(|c| [format!("\"{c}\""), format!("'{c}'")])
        .collect()
}

impl HostLanguage for Elixir {
    fn lang(&self) -> Lang {
        Lang::Elixir
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

    /// `["HSET", key, ..]` and every other command list start with a quoted
    /// command name.
    fn fact_needles(&self) -> FactNeedles {
        FactNeedles {
            any: quoted_commands(),
            ..FactNeedles::default()
        }
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

    fn line_comment(&self) -> &'static str {
        "//"
    }

    fn comment_kinds(&self) -> &'static [&'static str] {
        &["line_comment", "block_comment"]
    }

    fn lua(&self) -> LuaIn {
        LuaIn::Strings
    }

    /// `cmd("HSET")` quotes its command; every other Redis call is a client
    /// method of the table in `rust/client.rs`.
    fn fact_needles(&self) -> FactNeedles {
        let mut out = rust::fact_needles();
        out.any.extend(quoted_commands());
        out
    }

    fn extract(
        &self,
        root: Node<'_>,
        src: &[u8],
        file: FileId,
        parsers: &mut Parsers,
        _stem: &str,
    ) -> FileFacts {
        rust::extract(root, src, file, parsers)
    }
}

impl HostLanguage for Lua {
    fn lang(&self) -> Lang {
        Lang::Lua
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

    /// A script sends Redis commands through `redis.call` or `redis.pcall`.
    fn fact_needles(&self) -> FactNeedles {
        FactNeedles {
            any: vec!["redis.call".into(), "redis.pcall".into()],
            ..FactNeedles::default()
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_is_its_own_host() {
        for lang in [Lang::Elixir, Lang::Rust, Lang::Lua] {
            assert_eq!(lang.host().lang(), lang);
        }
        let hosts: Vec<Lang> = HOSTS.iter().map(|h| h.lang()).collect();
        assert_eq!(hosts, [Lang::Elixir, Lang::Rust, Lang::Lua]);
    }

    #[test]
    fn suppressions_follow_the_host_comment_and_embedded_lua_comments() {
        assert_eq!(Lang::Elixir.host().comment_markers(), ["#", "--"]);
        assert_eq!(Lang::Rust.host().comment_markers(), ["//", "--"]);
        assert_eq!(Lang::Lua.host().comment_markers(), ["--"]);
    }

    #[test]
    fn only_rust_guards_needles_with_receiver_words() {
        let rust = Lang::Rust.host().fact_needles();
        assert!(rust.any.iter().any(|n| n == ".hset"));
        assert!(rust.any.iter().any(|n| n == "\"HSET\""));
        assert!(rust.guarded.iter().any(|n| n == ".get"));
        assert!(rust.guards.iter().any(|n| n == "con"));
        for lang in [Lang::Elixir, Lang::Lua] {
            assert!(lang.host().fact_needles().guarded.is_empty());
        }
    }
}
