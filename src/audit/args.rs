//! `wirelint audit`'s flags (clap), turned into [`super::Options`].

use std::path::PathBuf;

use super::ContractSource;
use crate::pipeline::ContractChoice;
use crate::report::{FailOn, Format};

/// `wirelint audit`: read only, bounded (`docs/audit.md`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server: redis://HOST:PORT/DB, rediss://… (TLS), unix:///PATH?db=N.
    /// Never with a password: see --password-env.
    #[arg(long, value_name = "URL", default_value = "redis://127.0.0.1:6379/0")]
    pub url: String,
    /// Read the password from this environment variable (default:
    /// REDISCLI_AUTH when set).
    #[arg(long, value_name = "NAME")]
    pub password_env: Option<String>,
    /// The server is a cluster node: scan every primary.
    #[arg(long)]
    pub cluster: bool,
    /// Audit against this contract instead of the default: a shipped
    /// contract's name (`sidekiq`), or a file written as a path.
    #[arg(long, value_name = "FILE", conflicts_with = "from_code")]
    pub contract: Option<PathBuf>,
    /// Audit against the contract the code under PATH observes
    /// (`wirelint extract --as-contract PATH`).
    #[arg(long, value_name = "PATH")]
    pub from_code: Option<PathBuf>,
    /// SCAN … MATCH: only keys matching this glob.
    #[arg(long = "match", value_name = "GLOB", default_value = "*")]
    pub pattern: String,
    /// SCAN … COUNT: keys per page (and members per page of a queue).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub count: u32,
    /// Read a hash with more fields than N from a sample of N (HRANDFIELD),
    /// its contract fields with HEXISTS; 0 reads every hash whole.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub sample: u32,
    /// Stop after reading N keys.
    #[arg(long, value_name = "N")]
    pub max_keys: Option<u64>,
    /// Read at most N keys and queue members per second.
    #[arg(long, value_name = "N")]
    pub rate: Option<u64>,
    /// Stop after this long: 90s, 5m, 1h.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_budget: Option<std::time::Duration>,
    /// Timeout of the connection and of each reply.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "10s")]
    pub timeout: std::time::Duration,
    #[arg(long, value_enum, default_value = "full")]
    pub format: Format,
    /// The lowest severity that fails the run (exit 1).
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Exit 0 when the audit ran, whatever it found.
    #[arg(long)]
    pub exit_zero: bool,
    /// Report only these rules: WA codes or code prefixes, comma-separated
    /// (`WA2,WA301`), as `select` in wirelint.toml, which it replaces.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub select: Option<Vec<String>>,
    /// Leave these rules out: WA codes or code prefixes, comma-separated,
    /// as `ignore` in wirelint.toml, to which they are added. The most
    /// specific entry of either decides.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub ignore: Vec<String>,
}

/// `90s`, `5m`, `1h`, `250ms`, or plain seconds.
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (90s, 5m, 1h)"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("`{s}`: the unit is ms, s, m or h")),
    };
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// Runs `wirelint audit` with its parsed arguments.
pub fn run_args(a: Args) -> i32 {
    let contract = match (&a.from_code, &a.contract) {
        (Some(p), _) => ContractSource::FromCode(p.clone()),
        (None, Some(c)) => ContractSource::Choice(ContractChoice::named(c)),
        (None, None) => ContractSource::Choice(ContractChoice::Default),
    };
    super::run(&super::Options {
        url: a.url,
        password_env: a.password_env,
        cluster: a.cluster,
        contract,
        limits: super::scan::Limits {
            pattern: a.pattern,
            count: a.count,
            sample: a.sample,
            max_keys: a.max_keys,
            rate: a.rate,
            budget: a.time_budget,
        },
        timeout: a.timeout,
        format: a.format,
        fail_on: a.fail_on.severity(),
        exit_zero: a.exit_zero,
        select: a.select,
        ignore: a.ignore,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(
            parse_duration("5d"),
            Err("`5d`: the unit is ms, s, m or h".to_string())
        );
    }
}
