#![no_main]
//! Python extraction on arbitrary bytes: no panic, no hang, spans in the file.

use libfuzzer_sys::fuzz_target;
use wirelint::facts::Lang;

fuzz_target!(|data: &[u8]| {
    wirelint_fuzz::extract_and_check(Lang::Python, data);
});
