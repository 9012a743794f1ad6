#![no_main]
//! Key templates read against a keyspace: the input's first line is the
//! key pattern, the second a key type, the rest a template where `\x01`
//! marks a hole. Both pattern and template are arbitrary.

use libfuzzer_sys::fuzz_target;
use wirelint::keyshape;
use wirelint::contract::Contract;
use wirelint::facts::{Seg, Span, Template};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.splitn(3, '\n');
    let (Some(key), Some(ty), Some(tpl)) = (lines.next(), lines.next(), lines.next()) else {
        return;
    };
    let toml_text = format!(
        "name = \"f\"\n[keyspace]\nkey = {}\n[keyspace.types]\nt = {}\njob = \"job:<id>\"\n[records.r]\ntype = \"job\"\nfields = [\"a\"]\n",
        toml::Value::String(key.to_string()),
        toml::Value::String(ty.to_string()),
    );
    let Ok(contract) = Contract::parse(&toml_text, "f.toml") else {
        return;
    };
    let Some(ks) = contract.keyspace.as_ref() else {
        return;
    };
    // The template's spans index into `tpl` itself, as if it were a file.
    let mut segs = Vec::new();
    let mut at = 0usize;
    for (i, piece) in tpl.split('\u{1}').enumerate() {
        if i > 0 {
            segs.push(Seg::Hole {
                label: "x".into(),
                span: Span::new(0, at - 1, at),
            });
        }
        if !piece.is_empty() {
            segs.push(Seg::Lit {
                text: piece.to_string(),
                span: Span::new(0, at, at + piece.len()),
            });
        }
        at += piece.len() + 1;
    }
    let t = Template {
        segs,
        span: Span::new(0, 0, tpl.len()),
    };
    let verdict = keyshape::analyze(&t, ks);
    let atoms = keyshape::atoms(&t);
    for ty in &ks.types {
        keyshape::matches(&atoms, &ks.full_pattern(ty));
    }
    keyshape::record_of(&t, ks, &contract.records);
    let dbg = format!("{verdict:?}");
    assert!(!dbg.is_empty());
});
