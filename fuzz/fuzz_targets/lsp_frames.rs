#![no_main]
//! The language server's framing: any bytes, read as frames until the end.
//! Asserts that reading ends (every call consumes input or ends it), that
//! no body is over the frame limit, and that a valid frame written after
//! the bytes (behind a newline and a blank line, as a stream resumes after
//! junk) is always read back whole.

use libfuzzer_sys::fuzz_target;
use wirelint::server::transport::{Frames, MAX_FRAME};

fuzz_target!(|data: &[u8]| {
    let tail = b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}";
    let mut input = data.to_vec();
    input.extend_from_slice(b"\r\n\r\n");
    input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", tail.len()).as_bytes());
    input.extend_from_slice(tail);
    let mut frames = Frames::new(&input[..]);
    let mut last = None;
    let mut n = 0usize;
    while let Some(f) = frames.next_frame() {
        n += 1;
        assert!(n <= input.len() + 1, "more frames than bytes");
        if let Ok(body) = &f {
            assert!(body.len() <= MAX_FRAME);
        }
        last = Some(f);
    }
    // The junk may have declared a length that swallows the tail; when it
    // did not, the tail is the last frame.
    if !data.windows(15).any(|w| w.eq_ignore_ascii_case(b"content-length:")) {
        assert_eq!(last, Some(Ok(tail.to_vec())));
    }
});
