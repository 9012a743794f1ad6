//! The stdio transport: JSON-RPC frames (`Content-Length` headers, then the
//! body) read by [`Frames`], which never loses its place for good:
//!
//! - a frame whose header is broken (no `Content-Length`, or one that is
//!   not a decimal number: `-5`, `abc`, `12.0`) is answered with a
//!   `ParseError`, and its body, whose length is unknown, is skipped up to
//!   the next `Content-Length:` header, which starts the next frame;
//! - a body that is not a JSON-RPC message gets a `ParseError` too;
//! - a header line keeps at most its last [`MAX_LINE`] bytes, a body over
//!   [`MAX_FRAME`] bytes is skipped unread.
//!
//! Messages wait for the main loop in a queue bounded by their bytes
//! ([`QUEUE_BYTES`]), so the loop can take every message that arrived
//! while it was busy at once (the server coalesces document changes).

use std::io::{BufRead, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::{unbounded, Receiver, Sender};
use lsp_server::Message;

/// The largest frame read whole; a longer one is skipped in chunks.
pub const MAX_FRAME: usize = 64 << 20;

/// The bytes of a header line kept (its last ones: a header glued to the
/// end of a broken frame's body is found).
pub const MAX_LINE: usize = 8192;

/// The bytes of the frames read and not yet taken by the main loop; the
/// reader waits past it (a frame alone may be larger).
pub const QUEUE_BYTES: usize = 256 << 20;

/// A message read, and the bytes of its frame.
pub type Incoming = (Message, usize);

/// The messages read from stdin, and what the reader may queue.
pub struct Inbox {
    rx: Receiver<Incoming>,
    queued: Arc<Queued>,
}

impl Inbox {
    /// The next message; `None` once stdin has ended.
    pub fn recv(&self) -> Option<Message> {
        let (m, n) = self.rx.recv().ok()?;
        self.queued.give(n);
        Some(m)
    }

    /// A message already read, without waiting.
    pub fn try_recv(&self) -> Option<Message> {
        let (m, n) = self.rx.try_recv().ok()?;
        self.queued.give(n);
        Some(m)
    }
}

/// Bytes queued between the reader and the main loop.
#[derive(Default)]
struct Queued {
    bytes: Mutex<usize>,
    freed: Condvar,
}

impl Queued {
    fn take(&self, n: usize) {
        let Ok(mut b) = self.bytes.lock() else {
            return;
        };
        while *b > 0 && b.saturating_add(n) > QUEUE_BYTES {
            b = match self.freed.wait(b) {
                Ok(b) => b,
                Err(_) => return,
            };
        }
        *b += n;
    }

    fn give(&self, n: usize) {
        if let Ok(mut b) = self.bytes.lock() {
            *b = b.saturating_sub(n);
            self.freed.notify_all();
        }
    }
}

/// The sender of messages to stdout, the inbox of stdin, and the writer's
/// thread (joined to flush; the reader is left to the process's end).
pub fn stdio() -> (Sender<Message>, Inbox, JoinHandle<()>) {
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let (writer_tx, writer_rx) = unbounded::<Message>();
    let w_out = Arc::clone(&out);
    let writer = std::thread::spawn(move || {
        for msg in writer_rx {
            let Ok(mut o) = w_out.lock() else {
                return;
            };
            if msg.write(&mut *o).is_err() {
                return;
            }
        }
    });
    // Unbounded in messages, bounded in bytes (`Queued`).
    let (reader_tx, reader_rx) = unbounded::<Incoming>();
    let queued = Arc::new(Queued::default());
    let q = Arc::clone(&queued);
    std::thread::spawn(move || {
        let mut frames = Frames::new(std::io::stdin().lock());
        while let Some(frame) = frames.next_frame() {
            if frames.skipped > 0 {
                eprintln!(
                    "wirelint server: skipped {} bytes that were not a frame",
                    frames.skipped
                );
            }
            let size = frame.as_ref().map_or(0, Vec::len);
            let msg = match frame.and_then(|body| {
                serde_json::from_slice::<Message>(&body).map_err(|e| e.to_string())
            }) {
                Ok(m) => m,
                Err(why) => {
                    eprintln!("wirelint server: {why}");
                    parse_error(&out, &why);
                    continue;
                }
            };
            let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
            q.take(size);
            if reader_tx.send((msg, size)).is_err() || exit {
                return;
            }
        }
    });
    let inbox = Inbox {
        rx: reader_rx,
        queued,
    };
    (writer_tx, inbox, writer)
}

/// A `ParseError` response (JSON-RPC: the id is null when it cannot be read).
fn parse_error(out: &Mutex<std::io::Stdout>, why: &str) {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("not a JSON-RPC message: {why}")},
    })
    .to_string();
    if let Ok(mut o) = out.lock() {
        let _ = write!(o, "Content-Length: {}\r\n\r\n{body}", body.len());
        let _ = o.flush();
    }
}

/// The frames of a byte stream.
pub struct Frames<R> {
    input: R,
    /// Bytes passed over before the last frame's header (the rest of a
    /// broken frame, or junk).
    pub skipped: usize,
}

impl<R: BufRead> Frames<R> {
    pub fn new(input: R) -> Frames<R> {
        Frames { input, skipped: 0 }
    }

    /// The next frame's body; `None` at the end of the input, `Some(Err)`
    /// for a frame that cannot be read. Bytes before a header that are not
    /// a header are skipped (counted in [`Frames::skipped`]).
    pub fn next_frame(&mut self) -> Option<Result<Vec<u8>, String>> {
        self.skipped = 0;
        let mut len: Option<Result<usize, String>> = None;
        let mut headers = 0usize;
        loop {
            let line = self.line()?;
            if line.is_empty() {
                if headers == 0 {
                    continue;
                }
                break;
            }
            let mut l = line.as_slice();
            // The rest of a broken frame, or junk, may end in the next
            // frame's header: the frame starts there.
            if headers == 0 {
                if let Some(at) = find_content_length(l) {
                    self.skipped += at;
                    l = &l[at..];
                }
            }
            if header(l).is_none() {
                if headers > 0 {
                    return Some(Err(format!("a broken header line {}", shown(l))));
                }
                self.skipped += line.len() + 1;
                continue;
            }
            headers += 1;
            if let Some((name, value)) = header(l) {
                if name.eq_ignore_ascii_case(b"content-length") {
                    len = Some(content_length(value));
                }
            }
        }
        let len = match len {
            Some(Ok(n)) => n,
            Some(Err(e)) => return Some(Err(e)),
            None => return Some(Err("a frame without a Content-Length header".into())),
        };
        if len > MAX_FRAME {
            let skipped = std::io::copy(
                &mut std::io::Read::take(&mut self.input, len as u64),
                &mut std::io::sink(),
            );
            return match skipped {
                Ok(n) if n == len as u64 => Some(Err(format!(
                    "a frame of {len} bytes, over the {MAX_FRAME} byte limit"
                ))),
                _ => None,
            };
        }
        let mut body = vec![0; len];
        std::io::Read::read_exact(&mut self.input, &mut body).ok()?;
        Some(Ok(body))
    }

    /// The next line without its line end, at most its last [`MAX_LINE`]
    /// bytes (the ones before are counted as skipped); `None` at the end.
    fn line(&mut self) -> Option<Vec<u8>> {
        let mut line = Vec::new();
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            if buf.is_empty() {
                return None;
            }
            let (n, done) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..n]);
            self.input.consume(n);
            if line.len() > MAX_LINE {
                let cut = line.len() - MAX_LINE;
                self.skipped += cut;
                line.drain(..cut);
            }
            if done {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Some(line);
            }
        }
    }
}

/// `Name: value` when the line is a header (the name a token, as HTTP's).
fn header(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = memchr::memchr(b':', line)?;
    let name = &line[..colon];
    let token = |c: &u8| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(c);
    (!name.is_empty() && name.iter().all(token)).then(|| (name, &line[colon + 1..]))
}

/// Where the last `Content-Length:` starts in a line, in any case (the
/// header glued to a broken body is at its end).
fn find_content_length(line: &[u8]) -> Option<usize> {
    const NAME: &[u8] = b"content-length:";
    line.windows(NAME.len())
        .rposition(|w| w.eq_ignore_ascii_case(NAME))
}

/// A `Content-Length` value: decimal digits only.
fn content_length(value: &[u8]) -> Result<usize, String> {
    let v = value.trim_ascii();
    let n = (!v.is_empty() && v.iter().all(u8::is_ascii_digit))
        .then(|| std::str::from_utf8(v).ok()?.parse::<usize>().ok())
        .flatten();
    n.ok_or_else(|| format!("a bad Content-Length {}", shown(v)))
}

/// Bytes from the stream in a message: escaped, at most 40 of them.
fn shown(b: &[u8]) -> String {
    let cut = &b[..b.len().min(40)];
    let more = if b.len() > 40 { "…" } else { "" };
    format!("`{}`{more}", cut.escape_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    fn all(input: &str) -> Vec<Result<String, String>> {
        let mut f = Frames::new(input.as_bytes());
        let mut out = Vec::new();
        while let Some(x) = f.next_frame() {
            out.push(x.map(|b| String::from_utf8(b).unwrap()));
        }
        out
    }

    #[test]
    fn a_bad_header_is_an_error_and_the_next_frame_is_read() {
        for bad in ["-5", "abc", "12.0", "", "99999999999999999999999"] {
            let input = format!(
                "Content-Length: {bad}\r\n\r\n{{\"a\":1}}{}{}",
                frame("{\"b\":2}"),
                frame("{}")
            );
            let got = all(&input);
            assert_eq!(got.len(), 3, "{bad}: {got:?}");
            assert!(got[0]
                .as_ref()
                .unwrap_err()
                .starts_with("a bad Content-Length"));
            assert_eq!(got[1], Ok("{\"b\":2}".to_string()), "{bad}");
            assert_eq!(got[2], Ok("{}".to_string()), "{bad}");
        }
    }

    #[test]
    fn a_missing_header_is_an_error_and_the_next_frame_is_read() {
        let input = format!(
            "Content-Type: x\r\n\r\n{{\"a\":\n1}}\r\n\r\n{}",
            frame("{}")
        );
        assert_eq!(
            all(&input),
            [
                Err("a frame without a Content-Length header".to_string()),
                Ok("{}".to_string())
            ]
        );
        // Junk alone before a frame is skipped.
        let input = format!("junk\n\n{}", frame("{}"));
        let mut f = Frames::new(input.as_bytes());
        assert_eq!(f.next_frame(), Some(Ok(b"{}".to_vec())));
        assert_eq!(f.skipped, 5);
    }

    #[test]
    fn a_long_line_keeps_its_end() {
        let input = format!("{}{}", "x".repeat(100_000), frame("{}"));
        let mut f = Frames::new(input.as_bytes());
        assert_eq!(f.next_frame(), Some(Ok(b"{}".to_vec())));
        assert_eq!(f.skipped, 100_000);
        assert_eq!(f.next_frame(), None);
    }

    #[test]
    fn a_frame_over_the_limit_is_skipped() {
        let big = MAX_FRAME + 1;
        let input = format!(
            "Content-Length: {big}\r\n\r\n{}{}",
            "x".repeat(big),
            frame("{}")
        );
        assert_eq!(
            all(&input),
            [
                Err(format!(
                    "a frame of {big} bytes, over the {MAX_FRAME} byte limit"
                )),
                Ok("{}".to_string())
            ]
        );
    }
}
