#![no_main]
//! Rust format strings (`format!`, `write!`, `concat!`), the key-template
//! source with the most syntax: the input is the format string.

use libfuzzer_sys::fuzz_target;
use wirelint::facts::Lang;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, fmt)) = data.split_first() else {
        return;
    };
    let head: &[u8] = match pick % 4 {
        0 => b"fn k(queue: &str, id: &str) -> String { format!(\"",
        1 => b"const P: &str = \"emq:\";\nfn k(q: &str) -> String { format!(r\"",
        2 => b"fn k(f: &mut F, q: &str) { write!(f, \"",
        _ => b"fn k() -> &'static str { concat!(\"",
    };
    let tail: &[u8] = match pick % 4 {
        0 => b"\", queue, id, x = 1) }\n",
        1 => b"\", P, q) }\n",
        2 => b"\", q).unwrap() }\n",
        _ => b"\", \"x\") }\n",
    };
    let mut src = head.to_vec();
    src.extend_from_slice(fmt);
    src.extend_from_slice(tail);
    wirelint_fuzz::extract_and_check(Lang::Rust, &src);
});
