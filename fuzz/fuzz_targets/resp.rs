#![no_main]
//! The audit's RESP reader: any bytes from a server, read as replies until
//! an error. Asserts that reading ends (each reply consumes input), that
//! nothing read holds more than the reply limit, and that a valid reply
//! after a valid one is read back as written.

use libfuzzer_sys::fuzz_target;
use wirelint::audit::resp::{self, Value, MAX_REPLY};

fn size(v: &Value) -> usize {
    match v {
        Value::Bytes(b) => b.len(),
        Value::Error(e) => e.len(),
        Value::Array(items) => items.iter().map(|i| 16 + size(i)).sum(),
        _ => 0,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = data;
    let mut n = 0usize;
    while let Ok(v) = resp::read_value(&mut r) {
        assert!(size(&v) <= MAX_REPLY);
        n += 1;
        assert!(n <= data.len(), "more replies than bytes");
    }
    // Round trip: the input's bytes as one bulk string, then a command.
    let mut enc = Vec::new();
    resp::encode(&[data, b"x"], &mut enc);
    let v = resp::read_value(&mut &enc[..]).unwrap();
    assert_eq!(
        v,
        Value::Array(vec![Value::Bytes(data.to_vec()), Value::Bytes(b"x".to_vec())])
    );
});
