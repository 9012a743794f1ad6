//! A real `redis-server` for the audit tests and the benchmark: started on a
//! free loopback port in a temporary directory (no persistence), stopped
//! when the guard drops, also on a panic. Without `redis-server` on the
//! machine, [`Server::start`] says plainly that the test is skipped.

#![allow(dead_code)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    child: Option<Child>,
    pub port: u16,
    pub dir: tempfile::TempDir,
}

/// The `redis-server` binary: `WIRELINT_TEST_REDIS_SERVER` when set (empty:
/// none, to see the tests skip), else on PATH, else Debian's.
fn binary() -> Option<String> {
    if let Ok(path) = std::env::var("WIRELINT_TEST_REDIS_SERVER") {
        return (!path.is_empty()).then_some(path);
    }
    let on_path = Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if on_path {
        return Some("redis-server".into());
    }
    std::path::Path::new("/usr/bin/redis-server")
        .exists()
        .then(|| "/usr/bin/redis-server".into())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl Server {
    /// Starts a server; `None` (with a line on stderr) when there is no
    /// `redis-server` to start. `extra` are more `--name value` options.
    pub fn start(test: &str, extra: &[&str]) -> Option<Server> {
        let Some(bin) = binary() else {
            // Straight to stderr, past the test harness's capture.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: redis-server is not installed (apt-get install -y redis-server); .ci/run installs it"
            );
            return None;
        };
        for _ in 0..3 {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let port = free_port();
            let child = Command::new(&bin)
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no"])
                .arg("--dir")
                .arg(dir.path())
                .args(extra)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server starts");
            let mut s = Server {
                child: Some(child),
                port,
                dir,
            };
            if s.wait_ready() {
                return Some(s);
            }
            s.stop();
        }
        panic!("redis-server did not start on a free port in three tries");
    }

    fn wait_ready(&mut self) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Some(Ok(Some(_))) = self.child.as_mut().map(|c| c.try_wait()) {
                return false;
            }
            if let Ok(mut con) = self.try_con() {
                // Any answer will do (a server with a password says NOAUTH).
                match redis::cmd("PING").query::<String>(&mut con) {
                    Ok(_) => return true,
                    Err(e) if !e.is_io_error() && !e.is_connection_refusal() => return true,
                    Err(_) => {}
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    fn try_con(&self) -> redis::RedisResult<redis::Connection> {
        redis::Client::open(self.url())?.get_connection_with_timeout(Duration::from_secs(5))
    }

    /// A connection of the test's own (for seeding and statistics).
    pub fn con(&self) -> redis::Connection {
        self.try_con().expect("a connection to the test server")
    }

    /// Sends commands, pipelined in chunks.
    pub fn seed(&self, commands: impl IntoIterator<Item = Vec<Vec<u8>>>) {
        let mut con = self.con();
        let mut pipe = redis::pipe();
        let mut n = 0;
        for c in commands {
            let mut cmd = redis::cmd(std::str::from_utf8(&c[0]).unwrap());
            for a in &c[1..] {
                cmd.arg(a.as_slice());
            }
            pipe.add_command(cmd).ignore();
            n += 1;
            if n == 5000 {
                pipe.exec(&mut con).expect("seed");
                pipe = redis::pipe();
                n = 0;
            }
        }
        if n > 0 {
            pipe.exec(&mut con).expect("seed");
        }
    }

    /// `EVAL script numkeys KEYS.. ARGV..`, every argument binary-safe: the
    /// script's reply, or the error the server answers (a script's
    /// `redis.error_reply` too).
    pub fn eval(
        &self,
        script: &str,
        keys: &[&[u8]],
        argv: &[&[u8]],
    ) -> redis::RedisResult<redis::Value> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(script).arg(keys.len());
        for a in keys.iter().chain(argv) {
            cmd.arg(*a);
        }
        cmd.query(&mut self.con())
    }

    /// Kills the server (a server that goes away mid-scan).
    pub fn kill(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
        }
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}
