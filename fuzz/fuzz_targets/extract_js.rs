#![no_main]
//! JavaScript, TypeScript and TSX extraction on arbitrary bytes (the first
//! byte picks the grammar): no panic, no hang, spans in the file.

use libfuzzer_sys::fuzz_target;
use wirelint::facts::Lang;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, src)) = data.split_first() else {
        return;
    };
    let lang = match pick % 3 {
        0 => Lang::JavaScript,
        1 => Lang::TypeScript,
        _ => Lang::Tsx,
    };
    wirelint_fuzz::extract_and_check(lang, src);
});
