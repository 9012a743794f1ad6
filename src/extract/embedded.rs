//! Lua embedded in a host string, parsed from the text the string means.
//!
//! A Rust `"…"` literal or an Elixir string holds escapes (`\n`, `\"`, a
//! `\`-newline continuation): the Lua that Redis runs is the decoded text,
//! not the host bytes. Parsing the host bytes in place would read `\"GET\"`
//! as Lua and report a syntax error that is not there. So the host's
//! extractor builds a [`Decoded`] text, piece by piece, with where each
//! piece came from; the Lua extractor parses it and maps every span back
//! to host bytes. An interpolation (`#{...}`) is left out of the text and
//! recorded as a [`Hole`]: a Lua string it falls in is not a literal.

use crate::facts::{FileId, Span};

/// The decoded text of one host string, with a map back to host bytes.
#[derive(Debug, Default)]
pub struct Decoded {
    pub text: Vec<u8>,
    pieces: Vec<Piece>,
    pub holes: Vec<Hole>,
}

/// Text taken from host bytes `host`: as they are (`raw`, one byte for
/// one), or as the bytes an escape stands for.
#[derive(Debug, Clone, Copy)]
struct Piece {
    /// Where the piece starts in the decoded text.
    at: usize,
    host: (usize, usize),
    raw: bool,
}

/// An interpolation: at `at` in the decoded text, `span` in the host.
#[derive(Debug, Clone)]
pub struct Hole {
    pub at: usize,
    pub span: (usize, usize),
    pub label: String,
}

impl Decoded {
    /// Host bytes `s..e`, as they are.
    pub fn raw(&mut self, host: &[u8], s: usize, e: usize) {
        let (s, e) = (s.min(host.len()), e.min(host.len()));
        if s >= e {
            return;
        }
        self.pieces.push(Piece {
            at: self.text.len(),
            host: (s, e),
            raw: true,
        });
        self.text.extend_from_slice(&host[s..e]);
    }

    /// The host escape at `s..e`, standing for `bytes` (none for a line
    /// continuation).
    pub fn escape(&mut self, bytes: &[u8], s: usize, e: usize) {
        if bytes.is_empty() {
            return;
        }
        self.pieces.push(Piece {
            at: self.text.len(),
            host: (s, e),
            raw: false,
        });
        self.text.extend_from_slice(bytes);
    }

    /// An interpolation at host `s..e`, at the current end of the text.
    pub fn hole(&mut self, label: String, s: usize, e: usize) {
        self.holes.push(Hole {
            at: self.text.len(),
            span: (s, e),
            label,
        });
    }

    /// Whether there is no text.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The piece holding decoded byte `off`.
    fn piece(&self, off: usize) -> Option<&Piece> {
        let i = self.pieces.partition_point(|p| p.at <= off);
        self.pieces.get(i.checked_sub(1)?)
    }

    fn piece_len(&self, i: usize) -> usize {
        let next = self.pieces.get(i + 1).map_or(self.text.len(), |p| p.at);
        next - self.pieces[i].at
    }

    /// The host offset where decoded byte `off` starts.
    pub fn host_start(&self, off: usize) -> usize {
        if off >= self.text.len() {
            return self.pieces.last().map_or(0, |p| p.host.1);
        }
        match self.piece(off) {
            Some(p) if p.raw => p.host.0 + (off - p.at),
            Some(p) => p.host.0,
            None => 0,
        }
    }

    /// The host offset just past decoded bytes ending (exclusively) at `off`.
    pub fn host_end(&self, off: usize) -> usize {
        if off == 0 {
            return self.pieces.first().map_or(0, |p| p.host.0);
        }
        let Some(i) = self.pieces.partition_point(|p| p.at < off).checked_sub(1) else {
            return 0;
        };
        let p = self.pieces[i];
        if off > p.at + self.piece_len(i) {
            return p.host.1;
        }
        match p.raw {
            true => p.host.0 + (off - p.at),
            false => p.host.1,
        }
    }

    /// A host span for decoded `s..e`.
    pub fn span(&self, file: FileId, s: usize, e: usize) -> Span {
        let hs = self.host_start(s);
        Span::new(file, hs, self.host_end(e).max(hs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_map_back_through_escapes_and_continuations() {
        // Host: `a\"b\<newline>  c` decodes to `a"bc`.
        let host = b"a\\\"b\\\n  c";
        let mut d = Decoded::default();
        d.raw(host, 0, 1);
        d.escape(b"\"", 1, 3);
        d.raw(host, 3, 4);
        d.escape(b"", 4, 6);
        d.raw(host, 8, 9);
        assert_eq!(d.text, b"a\"bc");
        let span = |s, e| {
            let sp = d.span(0, s, e);
            (sp.start, sp.end)
        };
        assert_eq!(span(0, 1), (0, 1));
        assert_eq!(span(1, 2), (1, 3));
        assert_eq!(span(2, 3), (3, 4));
        assert_eq!(span(3, 4), (8, 9));
        assert_eq!(span(0, 4), (0, 9));
        assert_eq!(span(4, 4), (9, 9));
    }
}
