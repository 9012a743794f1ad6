//! What a file's bytes hold when its extractor can find a protocol fact of
//! the file's own in it: a Redis command, a script call, a field read after
//! HGETALL, or a script (Lua in a host string, a reference to a `.lua`
//! file, a `.lua` file that is a Redis script). Each language's
//! [`super::lang::Host::speaks`] is one of the functions here; the
//! prefilter (`crate::pipeline::prefilter`) asks it before any parse, so
//! each must be a superset of what its extractor reads:
//!
//! - Lua in a host string is read only when the string holds `redis.call`,
//!   `redis.pcall` (or Valkey's `server.call`, `server.pcall`) or `KEYS[`
//!   (`looks_like_lua`, `looks_lua`); a script
//!   file is read from a path ending in `.lua`;
//! - Elixir: a command is a list whose head is a quoted command name
//!   (`["HSET", ..]`, `['get', ..]`), an attribute holding one
//!   (`@hset "HSET"`, then `[@hset, ..]`), or a function returning one
//!   (`defp verb, do: "HSET"`, then `[verb(), ..]`), or, in a file that
//!   names its client, a call without arguments that a function of another
//!   file may answer (`[Verbs.evalsha(), ..]`, the link follows it);
//!   [`command_head`] finds all four (a file that holds a script reads
//!   such a list handed to a function of the code base too, and is read
//!   for its script);
//! - Rust: client calls count only in a file with a client crate in
//!   scope: one that names it ([`names_client_crate`]) or imports from another
//!   module ([`imports_module`]; the link step follows the module tree,
//!   `crate::link::scope`), and then only with one of the client table's
//!   needles (`rust::CLIENTS`); a file that names a client crate is
//!   read, as its module may be the scope of another;
//! - a `.lua` file: `redis.call`, `redis.pcall` (`server.` alike), `KEYS` (`KEYS[n]`,
//!   `#KEYS`, `unpack(KEYS)`, header comments), or an `@include`.

use std::sync::LazyLock;

use crate::facts::Lang;

/// Finders for a few literals, each searched for on its own: `memmem`
/// skips ahead by the literal's rarest bytes, where one automaton over
/// them (`.lua` among them) stops at every `.` of the text.
struct Literals(Vec<memchr::memmem::Finder<'static>>);

impl Literals {
    fn new(words: &[&'static str]) -> Literals {
        Literals(
            words
                .iter()
                .map(|w| memchr::memmem::Finder::new(*w))
                .collect(),
        )
    }

    fn any_in(&self, bytes: &[u8]) -> bool {
        self.0.iter().any(|f| f.find(bytes).is_some())
    }

    /// Every hit of every literal, as `start..end` (not in text order).
    fn hits<'b>(&'b self, bytes: &'b [u8]) -> impl Iterator<Item = (usize, usize)> + 'b {
        self.0.iter().flat_map(move |f| {
            let n = f.needle().len();
            f.find_iter(bytes).map(move |at| (at, at + n))
        })
    }
}

/// Lua for Redis in a host string, or the path of a script file.
static SCRIPTS_IN_HOST: LazyLock<Literals> = LazyLock::new(|| {
    Literals::new(&[
        "redis.call",
        "redis.pcall",
        "server.call",
        "server.pcall",
        "KEYS[",
        ".lua",
    ])
});

/// What a `.lua` file that is a Redis script, or includes one, holds.
static LUA_FILE: LazyLock<Literals> = LazyLock::new(|| {
    Literals::new(&[
        "redis.call",
        "redis.pcall",
        "server.call",
        "server.pcall",
        "KEYS",
        "@include",
    ])
});

/// The client crates a Rust file names when it calls Redis.
const CLIENT_WORDS: &[&str] = &["redis", "fred", "rustis"];

/// [`CLIENT_WORDS`] as they are written: in lower case, capitalised (a
/// type's name) or in upper case (a constant's).
static CLIENTS: LazyLock<Literals> = LazyLock::new(|| {
    Literals::new(&[
        "redis", "Redis", "REDIS", "fred", "Fred", "FRED", "rustis", "Rustis", "RUSTIS",
    ])
});

/// Whether a host file holds a script: Lua for Redis in a string, or a
/// `.lua` path.
pub fn holds_scripts(bytes: &[u8]) -> bool {
    SCRIPTS_IN_HOST.any_in(bytes)
}

/// Whether a `.lua` file can be a Redis script, or include one.
pub fn lua_file_speaks(bytes: &[u8]) -> bool {
    LUA_FILE.any_in(bytes)
}

/// Whether a file names a Redis client library (`redis`, `fred`, in
/// lower, capitalised or upper case) as a word: `import redis`, `"github.com/redis/go-redis/v9"`,
/// `RedisClient`, `redis_url`, `ioredis`; not inside another word
/// (`Redistribution` in a licence header, `AzureDiscovery`,
/// `rediscover`). A file that names none calls no client, in the languages
/// whose clients are imported by name (Rust's own rule is
/// [`names_client_crate`]).
pub fn names_client(bytes: &[u8]) -> bool {
    CLIENTS
        .hits(bytes)
        .any(|(start, end)| client_word_at(bytes, start, end))
}

/// Whether the client word at `start..end` is a word of its own: after no
/// letter (or a camel-case hump, or the `io`/`aio` of `ioredis` and
/// `aioredis`), and before no lower-case letter.
fn client_word_at(bytes: &[u8], start: usize, end: usize) -> bool {
    let letter = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphabetic);
    let before_ok = start == 0
        || !letter(start - 1)
        || (bytes[start].is_ascii_uppercase() && bytes[start - 1].is_ascii_lowercase())
        || [b"io".as_slice(), b"aio"].iter().any(|p| {
            bytes[..start].ends_with(p) && (start == p.len() || !letter(start - p.len() - 1))
        });
    before_ok && !bytes.get(end).is_some_and(u8::is_ascii_lowercase)
}

/// Whether Rust source names a Redis client crate or its types where code
/// can: a path through it (`redis::Cmd`, `deadpool_redis::Pool`,
/// `fred ::prelude`), `use redis;`, `extern crate redis`, or a word of a
/// type's name (`RedisResult`, `FromRedisValue`: the client crate's own
/// files name no crate). Prose does not (`redisplayed`, `mini-redis`,
/// and anything on a line that is a `//` comment: `/// Redis keys`): a
/// large code base that is no client would otherwise read every file that
/// imports from a module of its own.
pub fn names_client_crate(bytes: &[u8]) -> bool {
    CLIENTS.hits(bytes).any(|(m_start, m_end)| {
        if on_comment_line(bytes, m_start) {
            return false;
        }
        let camel = bytes[m_start].is_ascii_uppercase()
            && !bytes.get(m_end).is_some_and(u8::is_ascii_lowercase);
        if camel {
            return true;
        }
        let start = (0..m_start)
            .rev()
            .take_while(|&i| is_ident_byte(bytes[i]))
            .last()
            .unwrap_or(m_start);
        let end = skip_ident(bytes, m_end);
        let id = String::from_utf8_lossy(&bytes[start..end]);
        if !is_client_crate(&id) {
            return false;
        }
        let after = skip_blank(bytes, end);
        let before = bytes[..start].trim_ascii_end();
        // Inside a path (`self::redis::*`, `crate::sinks::redis`): a
        // module of the crate's own.
        let inner = before
            .strip_suffix(b"::")
            .is_some_and(|b| b.last().is_some_and(|c| is_ident_byte(*c)));
        (!inner && bytes[after..].starts_with(b"::"))
            || [b"crate".as_slice(), b"use"].iter().any(|k| {
                before.ends_with(k)
                    && !before[..before.len() - k.len()]
                        .last()
                        .is_some_and(|b| is_ident_byte(*b))
            })
    })
}

/// Whether the line holding `at` starts (after blank space) with `//`.
fn on_comment_line(bytes: &[u8], at: usize) -> bool {
    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    bytes[start..at].trim_ascii_start().starts_with(b"//")
}

/// Whether an identifier names a Redis client crate: a client word, alone
/// or as a `_`-separated part (`redis`, `redis_async`, `bb8_redis`).
pub fn is_client_crate(id: &str) -> bool {
    id.split('_')
        .any(|w| CLIENT_WORDS.iter().any(|c| w.eq_ignore_ascii_case(c)))
}

/// Whether a Rust file (or a `use` declaration's text) may import names
/// from another module of its crate (`super::`, `crate::`), where a client
/// crate may be in scope ([`names_client`] of that module).
pub fn imports_module(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"super::").is_some()
        || memchr::memmem::find(bytes, b"crate::").is_some()
}

/// Whether an Elixir file holds a command list: `[` then a quoted command
/// name (blank space between them allowed), or an attribute whose value is
/// a quoted command name (`@hset "HSET"`, `@hset("HSET")`), which a list
/// may start with.
pub fn command_head(bytes: &[u8]) -> bool {
    let client = names_elixir_client(bytes);
    for i in memchr::memchr2_iter(b'[', b'@', bytes) {
        let j = skip_blank(bytes, i + 1);
        let at = if bytes[i] == b'[' {
            j
        } else {
            let k = skip_ident(bytes, j);
            if k == j {
                continue;
            }
            let k = skip_blank(bytes, k);
            if bytes.get(k) == Some(&b'(') {
                skip_blank(bytes, k + 1)
            } else {
                k
            }
        };
        if quoted_command_at(bytes, at) || (client && bytes[i] == b'[' && bare_call_at(bytes, at)) {
            return true;
        }
    }
    returned_command(bytes)
}

/// Whether an Elixir file names a Redis client of its table
/// (`elixir::CLIENTS`: Redix, eredis, Exredis): there a list headed by a
/// call without arguments is read as a command (and, in a file that holds
/// a script, one handed to a function of the code base).
pub fn names_elixir_client(bytes: &[u8]) -> bool {
    ELIXIR_CLIENTS.any_in(bytes)
}

/// The Elixir clients' modules as the code names them.
static ELIXIR_CLIENTS: LazyLock<Literals> =
    LazyLock::new(|| Literals::new(&["Redix", "eredis", "Exredis"]));

/// A call without arguments at `at`: `evalsha()`, `Verbs.evalsha()` or
/// `Verbs.evalsha` (a function's name starts in lower case), which may
/// give a list its command name from a function of another file.
fn bare_call_at(bytes: &[u8], at: usize) -> bool {
    let mut end = at;
    while bytes
        .get(end)
        .is_some_and(|b| is_ident_byte(*b) || matches!(b, b'.' | b'?' | b'!'))
    {
        end += 1;
    }
    let path = &bytes[at..end];
    let Some(last) = path.rsplit(|b| *b == b'.').next() else {
        return false;
    };
    if !last
        .first()
        .is_some_and(|b| b.is_ascii_lowercase() || *b == b'_')
    {
        return false;
    }
    let k = skip_blank(bytes, end);
    match bytes.get(k) {
        Some(b'(') => bytes.get(skip_blank(bytes, k + 1)) == Some(&b')'),
        _ => path.first().is_some_and(u8::is_ascii_uppercase) && path.contains(&b'.'),
    }
}

/// Whether a function returns a quoted command name (`do: "EVALSHA"`, or
/// first in a `do` block), which a list may start with by calling it.
fn returned_command(bytes: &[u8]) -> bool {
    for i in memchr::memmem::find_iter(bytes, b"do") {
        let word_start = i == 0 || !is_ident_byte(bytes[i - 1]);
        let after = bytes.get(i + 2).copied();
        let at = match after {
            Some(b':') => i + 3,
            Some(b) if b.is_ascii_whitespace() => i + 2,
            _ => continue,
        };
        if word_start && quoted_command_at(bytes, skip_blank(bytes, at)) {
            return true;
        }
    }
    false
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn skip_blank(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

fn skip_ident(bytes: &[u8], mut i: usize) -> usize {
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    {
        i += 1;
    }
    i
}

/// A command name (any case) between quotes at `at`.
fn quoted_command_at(bytes: &[u8], at: usize) -> bool {
    let Some(&q) = bytes.get(at) else {
        return false;
    };
    if q != b'"' && q != b'\'' {
        return false;
    }
    let rest = &bytes[at + 1..bytes.len().min(at + 18)];
    let Some(end) = memchr::memchr(q, rest) else {
        return false;
    };
    std::str::from_utf8(&rest[..end]).is_ok_and(crate::redis::is_command)
}

/// Words a definition the extractors read starts with, right before its
/// name: Rust's `fn`, `const`, `static` (`static mut`), Elixir's `def`
/// family, Python's `def` and `class`, Ruby's `def`, `class` and
/// `module`, Go's `func` and `var`.
const DEF_WORDS: &[&[u8]] = &[
    b"fn",
    b"func",
    b"var",
    b"const",
    b"static",
    b"mut",
    b"def",
    b"defp",
    b"defmacro",
    b"defmacrop",
    b"defdelegate",
    b"class",
    b"module",
    b"function",
];

/// Whether the identifier at `at` of a file in `lang` is the name of a
/// definition its extractor reads (the name pass looks a needed name up
/// only there, `crate::pipeline::names`): after blank space (and a raw
/// identifier's `r#`, Ruby's `def self.`, Go's receiver `(r *T)`) one of
/// [`DEF_WORDS`]; an attribute (`@name`, Elixir's); a name assigned at
/// the start of its line (Python's constants, class attributes and
/// fields: `NAME = ..`, `NAME: T = ..`, `self.NAME = ..`). In Ruby an
/// instance variable (`@key`) is a field of its object, read through the
/// object ([`sets_field_at`]), and a local (`key = ..`) no name another
/// file reaches: only a constant (a capital first) assigned at the start
/// of a line is one. In Go `Name: v` (a composite literal's key) and
/// `r := ..` (a local) are none either.
pub fn defines_at(lang: Lang, bytes: &[u8], at: usize) -> bool {
    let ruby = lang == Lang::Ruby;
    let assigned = assigned_at(bytes, at, !ruby, lang != Lang::Go);
    let constant = !ruby || bytes.get(at).is_some_and(u8::is_ascii_uppercase);
    let js = matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx);
    (assigned && constant) || defined_after_word(bytes, at, !ruby) || (js && method_at(bytes, at))
}

/// Words a JavaScript or TypeScript method's name may follow on its line.
const METHOD_MODIFIERS: &[&[u8]] = &[
    b"async",
    b"static",
    b"public",
    b"private",
    b"protected",
    b"readonly",
    b"override",
    b"get",
    b"set",
];

/// Bytes a method's parameter list is looked over for its end, at most.
const MAX_PARAMS: usize = 1024;

/// A JavaScript or TypeScript method: the name first on its line (after
/// [`METHOD_MODIFIERS`]), then its parameters (`(..)`, after type
/// parameters `<..>`), then its body or its return type (`{`, `:`), which
/// a call statement (`name(..);`) is not followed by.
fn method_at(bytes: &[u8], at: usize) -> bool {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let mut i = at;
    loop {
        while i > 0 && blank(&bytes[i - 1]) {
            i -= 1;
        }
        let end = i;
        while i > 0 && is_ident_byte(bytes[i - 1]) {
            i -= 1;
        }
        if i == end || !METHOD_MODIFIERS.contains(&&bytes[i..end]) {
            i = end;
            break;
        }
    }
    if !matches!(bytes[..i].last(), None | Some(b'\n')) {
        return false;
    }
    let mut j = skip_ident(bytes, at);
    let limit = bytes.len().min(at + MAX_PARAMS);
    let mut depth = 0usize;
    let mut opened = false;
    while j < limit {
        match bytes[j] {
            b'(' | b'<' => {
                depth += 1;
                opened = true;
            }
            // The `>` of an arrow type's `=>` closes nothing.
            b'>' if bytes[j - 1] == b'=' => {}
            b')' | b'>' => depth = depth.saturating_sub(1),
            b' ' | b'\t' | b'?' | b'!' => {}
            _ if !opened => return false,
            _ => {}
        }
        j += 1;
        if opened && depth == 0 {
            break;
        }
    }
    while j < limit && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    opened && depth == 0 && matches!(bytes.get(j), Some(b'{' | b':'))
}

/// `NAME = ..` at the start of a line; `NAME: T = ..` too with `typed`
/// (in Go a `:` there is a composite literal's key or a label, `:=` a
/// local), and `self.NAME = ..` with `self_field`.
fn assigned_at(bytes: &[u8], at: usize, self_field: bool, typed: bool) -> bool {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let end = skip_ident(bytes, at);
    let j = end + bytes[end..].iter().take_while(|b| blank(b)).count();
    let next = bytes.get(j + 1);
    let assigns = match bytes.get(j) {
        Some(b'=') => next != Some(&b'='),
        Some(b':') => typed && next != Some(&b':'),
        _ => false,
    };
    let head = &bytes[..at];
    let head = match self_field {
        true => head.strip_suffix(b"self.").unwrap_or(head),
        false => head,
    };
    let indent = head.iter().rev().take_while(|b| blank(b)).count();
    assigns && matches!(head[..head.len() - indent].last(), None | Some(b'\n'))
}

/// Whether the identifier at `at` of a file in `lang` may be a field its
/// type's constructors set (a `.f` definition of its extractor): in Ruby
/// an instance variable (`@name = ..` in a method); in Go a composite
/// literal's key (`T{name: v}`, anywhere on a line) or a receiver's field
/// assigned (`r.name = v`); elsewhere an attribute (`@name`), a
/// definition, or a name assigned at the start of its line (`name: v`,
/// `name = ..`, `self.name = ..`).
pub fn sets_field_at(lang: Lang, bytes: &[u8], at: usize) -> bool {
    match lang {
        Lang::Ruby => at > 0 && bytes[at - 1] == b'@',
        Lang::Go => {
            let end = skip_ident(bytes, at);
            let j = end
                + bytes[end..]
                    .iter()
                    .take_while(|b| **b == b' ' || **b == b'\t')
                    .count();
            let (op, next) = (bytes.get(j), bytes.get(j + 1));
            let keyed = op == Some(&b':') && !matches!(next, Some(b'=' | b':'));
            let assigned =
                at > 0 && bytes[at - 1] == b'.' && op == Some(&b'=') && next != Some(&b'=');
            keyed || assigned
        }
        _ => assigned_at(bytes, at, true, true) || defined_after_word(bytes, at, true),
    }
}

/// Longest receiver looked back over (`(r *T)`), in bytes.
const MAX_RECEIVER: usize = 128;

fn defined_after_word(bytes: &[u8], at: usize, attribute: bool) -> bool {
    let mut i = at;
    if i >= 2 && &bytes[i - 2..i] == b"r#" {
        i -= 2;
    }
    // Ruby's `def self.name`.
    if i >= 5 && &bytes[i - 5..i] == b"self." {
        i -= 5;
    }
    while i > 0 && bytes[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    if i > 0 && bytes[i - 1] == b'@' {
        return attribute;
    }
    // Go's method: `func (r *T) name`.
    if i > 0 && bytes[i - 1] == b')' {
        let from = i.saturating_sub(MAX_RECEIVER);
        let open = bytes[from..i].iter().rposition(|b| *b == b'(');
        i = open.map_or(0, |o| from + o);
        while i > 0 && bytes[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
    }
    let end = i;
    while i > 0 && is_ident_byte(bytes[i - 1]) {
        i -= 1;
    }
    DEF_WORDS.contains(&&bytes[i..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JavaScript or TypeScript method is defined where its name starts
    /// a line (after modifiers) and its parameters are followed by its
    /// body or return type; a call statement is not.
    #[test]
    fn js_methods_are_definitions() {
        let at = |src: &str| src.find("toKey").unwrap();
        for yes in [
            "  toKey(queue: string, type: string): string {",
            "  async toKey(a) {",
            "  private static toKey<T>(a: T) {",
            "  toKey(f: (t: string) => string) {\n",
            "toKey(a)\n  {",
        ] {
            assert!(
                defines_at(Lang::TypeScript, yes.as_bytes(), at(yes)),
                "{yes}"
            );
        }
        for no in [
            "  toKey(queue, type);",
            "  return toKey(a) {",
            "  x.toKey(a) {",
            "  toKey",
            "  toKey(a",
        ] {
            assert!(!defines_at(Lang::TypeScript, no.as_bytes(), at(no)), "{no}");
        }
        assert!(!defines_at(Lang::Python, b"toKey(a) {", 0));
    }

    /// A Rust file names a client where code can; prose does not.
    #[test]
    fn client_crates_are_named_in_code() {
        for yes in [
            "use redis::Commands;",
            "let c = deadpool_redis :: Pool::new();",
            "use fred::prelude::*;",
            "let c = ::redis::Client::open(u);",
            "extern crate redis;",
            "use redis;",
            "fn f() -> RedisResult<()> {}",
            "impl FromRedisValue for Job {}",
            "/// A pool\nstruct P(Redis);",
        ] {
            assert!(names_client_crate(yes.as_bytes()), "{yes}");
        }
        for no in [
            "// warnings can be redisplayed",
            "/// [mini-redis]: https://github.com/tokio-rs/mini-redis",
            "config.rediscover_workspaces();",
            "// by wilfred",
            "let redis_url = env();",
            "pub(crate) use self::redis::*;",
            "/// Dispatches for Kafka topics, Redis keys",
            "fn f() {}\n    // see redis::cmd",
        ] {
            assert!(!names_client_crate(no.as_bytes()), "{no}");
        }
    }

    /// Other languages name their client as a word.
    #[test]
    fn clients_are_named_as_words() {
        for yes in [
            "import redis",
            "\"github.com/redis/go-redis/v9\"",
            "\"github.com/gomodule/redigo/redis\"",
            "const Redis = require('ioredis')",
            "import aioredis",
            "r = RedisClient.new",
            "client = Redis.new(url: redis_url)",
            "x = newRedisPool()",
        ] {
            assert!(names_client(yes.as_bytes()), "{yes}");
        }
        for no in [
            "// Redistribution and use in source and binary forms",
            "// AzureDiscovery which periodically refreshes",
            "config.rediscover()",
            "# by wilfred",
            "studioredis",
        ] {
            assert!(!names_client(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn command_heads_are_list_heads_or_attributes() {
        for yes in [
            "Redix.command(c, [\"HSET\", k, \"f\", v])",
            "[\n    'get', key]",
            "@hset \"HSET\"",
            "@ hset(\"hset\")",
            "cmd = [\"EVALSHA\", sha, 2]",
            "Redix.command(c, [Verbs.evalsha(), sha, 1 | keys])",
            "Redix.command(c, [ evalsha( ), sha])",
            "Redix.command(c, [Verbs.evalsha, sha])",
            ":eredis.q(c, [Verbs.evalsha(), sha])",
            "Exredis.query(c, [evalsha(), sha])",
        ] {
            assert!(command_head(yes.as_bytes()), "{yes}");
        }
        for no in [
            "%{\"type\" => \"GET\"}",
            "def get(\"GET\"), do: 1",
            "[\"GETX\", 1]",
            "[\"HSET",
            "@doc \"Sets a key\"",
            "[a, \"HSET\"]",
            "Redix.command(c, [MyApp.Repo, MyApp.Endpoint])",
            "Redix.command(c, [Verbs.name(:set), k])",
            "Redix.command(c, [evalsha, sha])",
            "[Verbs.evalsha(), sha, 1 | keys]",
        ] {
            assert!(!command_head(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn scripts_in_host_strings_and_lua_files() {
        assert!(holds_scripts(b"x = \"return redis.call('GET', KEYS[1])\""));
        // Valkey's name for the library.
        assert!(holds_scripts(b"x = \"return server.call('GET', 'k')\""));
        assert!(lua_file_speaks(b"return server.pcall('GET', 'k')"));
        assert!(holds_scripts(b"include_str!(\"../lua/enqueue.lua\")"));
        assert!(!holds_scripts(b"include_str!(\"README.md\")"));
        assert!(lua_file_speaks(b"return #KEYS"));
        assert!(lua_file_speaks(b"--- @include \"includes/x\""));
        assert!(!lua_file_speaks(b"local keys = {}\nreturn vim.g.x"));
    }

    #[test]
    fn clients_are_named_in_any_case() {
        assert!(names_client(b"use redis::AsyncCommands;"));
        assert!(names_client(b"use fred::prelude::*;"));
        assert!(names_client(b"// talks to Redis"));
        assert!(!names_client(b"use reqwest::Client;"));
    }
}
