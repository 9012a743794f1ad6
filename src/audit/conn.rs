//! A connection to one server (TCP, TLS through rustls, or a unix socket)
//! that reads every reply with `resp`'s bounds and under a deadline: each
//! reply must come whole within `--timeout` of the one before it (or of
//! the send), and never after the end of `--time-budget`. The deadline is
//! checked before every read of the socket, and each read waits at most
//! the time left, so a server that trickles a reply a byte at a time is
//! cut off on time.

use std::io::{BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use redis::{ConnectionAddr, ConnectionInfo};

use super::resp::{self, Value};

/// Why a reply was cut off when the time budget ran out (the audit then
/// stops as at the budget, with what it counted).
pub const BUDGET_RAN_OUT: &str =
    "the time budget (--time-budget) ran out while the server was answering";

/// Why a command got no reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// The connection failed, closed, timed out or spoke something that is
    /// not RESP.
    Lost(String),
    /// The server answered with an error (as it wrote it).
    Refused(String),
}

impl WireError {
    pub fn is_lost(&self) -> bool {
        matches!(self, WireError::Lost(_))
    }
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Lost(e) | WireError::Refused(e) => f.write_str(e),
        }
    }
}

fn lost(e: impl std::fmt::Display) -> WireError {
    WireError::Lost(e.to_string())
}

enum Stream {
    Tcp(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
    #[cfg(unix)]
    Unix(std::os::unix::net::UnixStream),
}

impl Stream {
    fn set_timeouts(&self, t: Duration) -> std::io::Result<()> {
        match self {
            Stream::Tcp(s) => s
                .set_read_timeout(Some(t))
                .and(s.set_write_timeout(Some(t))),
            Stream::Tls(s) => s
                .sock
                .set_read_timeout(Some(t))
                .and(s.sock.set_write_timeout(Some(t))),
            #[cfg(unix)]
            Stream::Unix(s) => s
                .set_read_timeout(Some(t))
                .and(s.set_write_timeout(Some(t))),
        }
    }
}

/// The stream, with the deadline of the reply being read.
struct Timed {
    stream: Stream,
    deadline: Instant,
    /// What the deadline is: the timeout or the budget.
    why: &'static str,
}

impl Timed {
    fn left(&self) -> std::io::Result<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, self.why));
        }
        self.stream.set_timeouts(left)?;
        Ok(left)
    }
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.left()?;
        let r = match &mut self.stream {
            Stream::Tcp(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
            #[cfg(unix)]
            Stream::Unix(s) => s.read(buf),
        };
        match r {
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Err(std::io::Error::new(std::io::ErrorKind::TimedOut, self.why))
            }
            r => r,
        }
    }
}

impl Write for Timed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.left()?;
        match &mut self.stream {
            Stream::Tcp(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
            #[cfg(unix)]
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.stream {
            Stream::Tcp(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
            #[cfg(unix)]
            Stream::Unix(s) => s.flush(),
        }
    }
}

/// One connection.
pub struct Connection {
    io: BufReader<Timed>,
    timeout: Duration,
    /// When `--time-budget` runs out.
    budget_end: Option<Instant>,
}

impl Connection {
    /// Connects, logs in (`AUTH`) and selects the database, each within the
    /// timeout.
    pub fn open(
        info: &ConnectionInfo,
        timeout: Duration,
        budget_end: Option<Instant>,
    ) -> Result<Connection, WireError> {
        let stream = match info.addr() {
            ConnectionAddr::Tcp(host, port) => Stream::Tcp(tcp(host, *port, timeout)?),
            ConnectionAddr::TcpTls {
                host,
                port,
                insecure,
                ..
            } => {
                if *insecure {
                    return Err(lost(
                        "TLS without verifying the server (#insecure) is not supported",
                    ));
                }
                Stream::Tls(Box::new(tls(host, tcp(host, *port, timeout)?)?))
            }
            #[cfg(unix)]
            ConnectionAddr::Unix(path) => {
                Stream::Unix(std::os::unix::net::UnixStream::connect(path).map_err(lost)?)
            }
            _ => return Err(lost("an address of a kind the audit cannot reach")),
        };
        let timed = Timed {
            stream,
            deadline: Instant::now(),
            why: "",
        };
        let mut con = Connection {
            io: BufReader::with_capacity(64 << 10, timed),
            timeout,
            budget_end,
        };
        let r = info.redis_settings();
        if let Some(pw) = r.password() {
            let mut words: Vec<&[u8]> = vec![b"AUTH"];
            words.extend(r.username().map(str::as_bytes));
            words.push(pw.as_bytes());
            con.one(&words)?;
        }
        if r.db() != 0 {
            con.one(&[b"SELECT", r.db().to_string().as_bytes()])?;
        }
        Ok(con)
    }

    /// Starts the deadline of the next reply.
    fn arm(&mut self) {
        let now = Instant::now();
        let by_timeout = now + self.timeout;
        let t = self.io.get_mut();
        match self.budget_end {
            Some(b) if b < by_timeout => {
                t.deadline = b;
                t.why = BUDGET_RAN_OUT;
            }
            _ => {
                t.deadline = by_timeout;
                t.why = "no whole reply within the timeout (--timeout)";
            }
        }
    }

    /// Sends one command; an error reply is [`WireError::Refused`].
    pub fn one(&mut self, words: &[&[u8]]) -> Result<Value, WireError> {
        let mut buf = Vec::new();
        resp::encode(words, &mut buf);
        match self.pipeline(&buf, 1)?.pop() {
            // The server's words, with no control character: they are
            // printed in every format.
            Some(Value::Error(e)) => Err(WireError::Refused(
                crate::report::escape::text(&e).into_owned(),
            )),
            Some(v) => Ok(v),
            None => Err(lost("no reply")),
        }
    }

    /// Sends `n` encoded commands at once and reads their `n` replies (an
    /// error reply is a [`Value::Error`]).
    pub fn pipeline(&mut self, encoded: &[u8], n: usize) -> Result<Vec<Value>, WireError> {
        self.arm();
        let t = self.io.get_mut();
        t.write_all(encoded)
            .and_then(|()| t.flush())
            .map_err(lost)?;
        let mut out = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            self.arm();
            out.push(resp::read_value(&mut self.io).map_err(lost)?);
        }
        Ok(out)
    }
}

fn tcp(host: &str, port: u16, timeout: Duration) -> Result<TcpStream, WireError> {
    let mut last = None;
    for addr in (host, port).to_socket_addrs().map_err(lost)? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(s) => {
                let _ = s.set_nodelay(true);
                return Ok(s);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(match last {
        Some(e) => lost(e),
        None => lost(format!("{host} has no address")),
    })
}

/// TLS over `sock`, the server checked against the system's roots.
fn tls(
    host: &str,
    sock: TcpStream,
) -> Result<rustls::StreamOwned<rustls::ClientConnection, TcpStream>, WireError> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    let config = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_string()).map_err(lost)?;
    let conn = rustls::ClientConnection::new(std::sync::Arc::new(config), name).map_err(lost)?;
    Ok(rustls::StreamOwned::new(conn, sock))
}
