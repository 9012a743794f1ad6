#![no_main]
//! The contract loader on arbitrary text: a contract or an error whose span
//! lies inside the text, never a panic; and `wirelint.toml` the same.

use libfuzzer_sys::fuzz_target;
use wirelint::contract::Contract;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = Contract::parse(text, "c.toml") {
        if let Some(s) = &e.span {
            assert!(s.start <= s.end && s.end <= text.len(), "{s:?} in {} bytes", text.len());
        }
        // Rendering must not panic either (as the command line renders it).
        let e = wirelint::report::error::RunError::contract(e);
        let _ = e.text();
        let _ = e.json(false, wirelint::report::json::VERSION);
    }
    let _ = wirelint::config::Config::parse(text, std::path::Path::new("/r/wirelint.toml"));
});
