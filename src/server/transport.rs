//! The stdio transport: `lsp-server`'s framing, with one difference that
//! matters for a server fed by an editor: a frame that is not a JSON-RPC
//! message (broken JSON, a bad header) gets a `ParseError` response and the
//! server reads on, where `lsp-server`'s own reader would stop and take the
//! server down with it.

use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::bounded;
use lsp_server::{Connection, Message};

/// The largest frame read whole; a longer one is skipped in chunks.
const MAX_FRAME: usize = 64 << 20;

/// A connection over stdin/stdout, and its two threads.
pub fn stdio() -> (Connection, Vec<JoinHandle<()>>) {
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let (writer_tx, writer_rx) = bounded::<Message>(0);
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
    let (reader_tx, reader_rx) = bounded::<Message>(0);
    let reader = std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        while let Some(frame) = read_frame(&mut input) {
            let msg = match frame.and_then(|body| {
                serde_json::from_slice::<Message>(&body).map_err(|e| e.to_string())
            }) {
                Ok(m) => m,
                Err(why) => {
                    parse_error(&out, &why);
                    continue;
                }
            };
            let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
            if reader_tx.send(msg).is_err() || exit {
                return;
            }
        }
    });
    let conn = Connection {
        sender: writer_tx,
        receiver: reader_rx,
    };
    (conn, vec![reader, writer])
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

/// The next frame's body; `None` at the end of the input, `Some(Err)` for a
/// frame that cannot be read (its bytes are consumed).
fn read_frame(input: &mut impl BufRead) -> Option<Result<Vec<u8>, String>> {
    let mut len: Option<usize> = None;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(8192)
            .read_until(b'\n', &mut line)
            .ok()?;
        if n == 0 {
            return None;
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().ok();
            }
        }
    }
    let Some(len) = len else {
        return Some(Err("a frame without a Content-Length header".into()));
    };
    if len > MAX_FRAME {
        let skipped = std::io::copy(&mut input.by_ref().take(len as u64), &mut std::io::sink());
        return match skipped {
            Ok(n) if n == len as u64 => {
                Some(Err(format!("a frame of {len} bytes, over the limit")))
            }
            _ => None,
        };
    }
    let mut body = vec![0; len];
    input.read_exact(&mut body).ok()?;
    Some(Ok(body))
}
