//! Where the audit connects: a Redis URL (`redis://`, `rediss://` for TLS,
//! `unix://` or `redis+unix://` for a socket), a password from the
//! environment only, and with `--cluster` every primary of the cluster.

use std::time::{Duration, Instant};

use redis::{ConnectionAddr, ConnectionInfo, IntoConnectionInfo};

use super::conn::{Connection, WireError};
use super::wire::{self, bytes, Read};

/// A server to audit.
#[derive(Debug, Clone)]
pub struct Target {
    pub info: ConnectionInfo,
    /// The URL as shown in reports: never with a password.
    pub shown: String,
}

/// Why a URL or its credentials cannot be used (a usage error, exit 2).
pub type UsageError = String;

/// Reads the URL and the password. `password_env` names the variable that
/// holds the password; without it, `REDISCLI_AUTH` (as `redis-cli`) if set.
/// A password in the URL is refused: it would sit in shell history and in
/// every process listing.
pub fn target(
    url: &str,
    password_env: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Target, UsageError> {
    let parsed = redis::parse_redis_url(url).ok_or_else(|| {
        format!("`{url}` is not a Redis URL: use redis://HOST:PORT/DB, rediss://HOST:PORT/DB (TLS) or unix:///PATH?db=DB")
    })?;
    let in_query = parsed.query_pairs().any(|(k, _)| k == "pass");
    if parsed.password().is_some() || in_query {
        return Err("the URL holds a password; pass it in an environment variable instead (REDISCLI_AUTH, or --password-env NAME), never on the command line".into());
    }
    let info = parsed
        .clone()
        .into_connection_info()
        .map_err(|e| format!("`{url}`: {e}"))?;
    let password = match password_env {
        Some(name) => Some(
            env(name).ok_or_else(|| format!("--password-env {name}: the variable is not set"))?,
        ),
        None => env("REDISCLI_AUTH").filter(|p| !p.is_empty()),
    };
    let mut redis = info.redis_settings().clone().set_skip_set_lib_name();
    if let Some(p) = password {
        redis = redis.set_password(p);
    }
    Ok(Target {
        info: info.set_redis_settings(redis),
        shown: parsed.to_string(),
    })
}

/// Opens a connection: the timeout bounds the connect and each reply, the
/// end of the time budget every reply (`conn.rs`).
pub fn connect(
    info: &ConnectionInfo,
    timeout: Duration,
    budget_end: Option<Instant>,
) -> Result<Connection, WireError> {
    let mut con = Connection::open(info, timeout, budget_end)?;
    // Nothing is sent on connect without a password or a database: a PING
    // turns a refused login into a connection error, not a failed scan.
    wire::one(&mut con, Read::Ping, &[])?;
    Ok(con)
}

/// The primaries of a cluster, as `CLUSTER NODES` lists them (healthy
/// ones, sorted by address), each with the connection settings of `base`.
pub fn primaries(
    con: &mut Connection,
    base: &ConnectionInfo,
) -> Result<Vec<(String, ConnectionInfo)>, String> {
    let v = wire::one(con, Read::ClusterNodes, &[]).map_err(|e| {
        format!("--cluster: CLUSTER NODES failed ({e}); is this server in cluster mode?")
    })?;
    let text = bytes(&v)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .ok_or_else(|| format!("--cluster: CLUSTER NODES answered {v:?}"))?;
    // A node that never met another does not know its own address: it is
    // the one we asked.
    let asked = match base.addr() {
        ConnectionAddr::Tcp(h, _) | ConnectionAddr::TcpTls { host: h, .. } => h.clone(),
        _ => String::new(),
    };
    let mut out = Vec::new();
    for (host, port) in primary_addresses(&text) {
        let host = if host.is_empty() { asked.clone() } else { host };
        let addr = match base.addr() {
            ConnectionAddr::Tcp(..) => ConnectionAddr::Tcp(host.clone(), port),
            ConnectionAddr::TcpTls {
                insecure,
                tls_params,
                ..
            } => ConnectionAddr::TcpTls {
                host: host.clone(),
                port,
                insecure: *insecure,
                tls_params: tls_params.clone(),
            },
            _ => return Err("--cluster needs a redis:// or rediss:// URL".into()),
        };
        // The server named the host: shown without control characters.
        let shown = crate::report::escape::text(&host);
        out.push((format!("{shown}:{port}"), base.clone().set_addr(addr)));
    }
    if out.is_empty() {
        return Err("--cluster: CLUSTER NODES lists no healthy primary".into());
    }
    Ok(out)
}

/// `id host:port@cport[,hostname] flags …` lines → the primaries' hosts
/// (the announced hostname when there is one; empty for `myself` when
/// the node does not know its address) and ports, sorted.
fn primary_addresses(text: &str) -> Vec<(String, u16)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(addr), Some(flags)) = (f.get(1), f.get(2)) else {
            continue;
        };
        let flags: Vec<&str> = flags.split(',').collect();
        let bad = ["fail", "fail?", "noaddr", "handshake"];
        if !flags.contains(&"master") || flags.iter().any(|x| bad.contains(x)) {
            continue;
        }
        let (hostport, hostname) = match addr.split_once(',') {
            Some((hp, name)) if !name.is_empty() => (hp, Some(name)),
            Some((hp, _)) => (hp, None),
            None => (*addr, None),
        };
        let hostport = hostport.split('@').next().unwrap_or(hostport);
        let Some((ip, port)) = hostport.rsplit_once(':') else {
            continue;
        };
        let Ok(port) = port.parse::<u16>() else {
            continue;
        };
        if ip.is_empty() && hostname.is_none() && !flags.contains(&"myself") {
            continue;
        }
        out.push((hostname.unwrap_or(ip).to_string(), port));
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_password_in_the_url_is_refused() {
        for url in [
            "redis://:secret@localhost:6379/0",
            "redis://user:secret@localhost/0",
            "unix:///tmp/r.sock?db=1&pass=secret",
        ] {
            let e = target(url, None, &env(&[])).unwrap_err();
            assert!(e.starts_with("the URL holds a password"), "{url}: {e}");
        }
    }

    #[test]
    fn the_password_comes_from_the_environment() {
        let t = target(
            "redis://u@localhost:7000/2",
            None,
            &env(&[("REDISCLI_AUTH", "pw")]),
        )
        .unwrap();
        let r = t.info.redis_settings();
        assert_eq!(
            (r.username(), r.password(), r.db()),
            (Some("u"), Some("pw"), 2)
        );
        assert_eq!(t.shown, "redis://u@localhost:7000/2");
        let t = target("redis://localhost", Some("MY_PW"), &env(&[("MY_PW", "x")])).unwrap();
        assert_eq!(t.info.redis_settings().password(), Some("x"));
        let e = target("redis://localhost", Some("NOPE"), &env(&[])).unwrap_err();
        assert_eq!(e, "--password-env NOPE: the variable is not set");
    }

    #[test]
    fn urls_of_every_kind() {
        let t = target("rediss://cache.example:6380/0", None, &env(&[])).unwrap();
        assert!(matches!(
            t.info.addr(),
            ConnectionAddr::TcpTls { port: 6380, .. }
        ));
        let t = target("unix:///run/redis.sock?db=3", None, &env(&[])).unwrap();
        assert!(matches!(t.info.addr(), ConnectionAddr::Unix(_)));
        assert_eq!(t.info.redis_settings().db(), 3);
        let e = target("http://localhost", None, &env(&[])).unwrap_err();
        assert!(e.contains("is not a Redis URL"), "{e}");
    }

    #[test]
    fn cluster_nodes_lists_healthy_primaries() {
        let text = "a 10.0.0.2:7001@17001 master - 0 0 1 connected 0-5460\n\
                    b 10.0.0.1:7000@17000,cache-0 myself,master - 0 0 2 connected 5461-10922\n\
                    c 10.0.0.3:7002@17002 slave a 0 0 1 connected\n\
                    d 10.0.0.4:7003@17003 master,fail - 0 0 3 connected\n\
                    e :0@0 master,noaddr - 0 0 4 disconnected\n";
        assert_eq!(
            primary_addresses(text),
            [
                ("10.0.0.2".to_string(), 7001),
                ("cache-0".to_string(), 7000)
            ]
        );
    }
}
