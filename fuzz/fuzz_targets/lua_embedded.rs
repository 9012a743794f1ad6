#![no_main]
//! Lua embedded in an Elixir heredoc, an Elixir sigil, a Rust raw string and
//! a Rust plain string (the first byte chooses), parsed in place.

use libfuzzer_sys::fuzz_target;
use wirelint::facts::Lang;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, lua)) = data.split_first() else {
        return;
    };
    let (lang, head, tail): (Lang, &[u8], &[u8]) = match pick % 4 {
        0 => (Lang::Elixir, b"defmodule A do\n  @enqueue \"\"\"\n", b"\n  \"\"\"\nend\n"),
        1 => (Lang::Elixir, b"defmodule A do\n  @enqueue ~S\"\"\"\n", b"\n  \"\"\"\nend\n"),
        2 => (Lang::Rust, b"const ENQUEUE: &str = r#\"\n", b"\n\"#;\n"),
        _ => (Lang::Rust, b"static ENQUEUE: &str = \"", b"\";\n"),
    };
    let mut src = head.to_vec();
    src.extend_from_slice(lua);
    src.extend_from_slice(tail);
    wirelint_fuzz::extract_and_check(lang, &src);
});
