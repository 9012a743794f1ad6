//! `wirelint.toml`: the repository's settings, found by searching upward
//! from the scanned root.
//!
//! ```toml
//! contract = "rules/ourqueue.toml"   # a contract file, relative to this file
//! # contract = "bullmq"              # a shipped contract, by name
//! prefix = "myapp"                   # the contract's `<prefix>`, if it has one
//! # contract = false                 # check agreement only, no contract
//! select = ["WL1", "WL201"]          # codes or code prefixes (default: all)
//! ignore = ["WL103", "WA302"]        # codes or code prefixes (WA: the audit's)
//! exclude = ["vendor/**"]            # globs, relative to this file
//!
//! [severity]                         # per-code severity
//! WL001 = "error"
//!
//! [speakers.canonical]               # speakers by path, relative to this file
//! path = "apps/echo_mq"
//! canonical = true
//!
//! [generated]                        # generated script copy = its source
//! "peers/worker/priv/enqueue.lua" = "lua/enqueue.lua"
//! ```
//!
//! The parts beyond `contract` live in [`crate::config::settings`].

pub mod settings;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::contract::ContractError;

pub const FILE_NAME: &str = "wirelint.toml";

#[derive(Debug, Clone, PartialEq)]
pub enum ContractSetting {
    /// The embedded contract; `named` when the file says `contract = true`
    /// (it then applies whatever the tree holds).
    Embedded {
        named: bool,
    },
    Off,
    Path(PathBuf),
    /// A shipped contract by name (`contract = "bullmq"`).
    Shipped(String),
}

#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
    pub contract: ContractSetting,
    /// Where `contract = …` is, in the file.
    pub contract_span: Option<std::ops::Range<usize>>,
    /// `prefix = "myapp"`: the value of the contract's `<prefix>`.
    pub prefix: Option<String>,
    /// select, ignore, severity, exclude, speakers, generated.
    pub settings: crate::config::settings::Settings,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    contract: Option<toml::Spanned<RawContractSetting>>,
    #[serde(default)]
    prefix: Option<String>,
    #[serde(default)]
    select: Option<Vec<toml::Spanned<String>>>,
    #[serde(default)]
    ignore: Vec<toml::Spanned<String>>,
    #[serde(default)]
    exclude: Vec<toml::Spanned<String>>,
    #[serde(default)]
    severity: std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    #[serde(default)]
    speakers: std::collections::BTreeMap<String, crate::config::settings::RawSpeaker>,
    #[serde(default)]
    generated: std::collections::BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawContractSetting {
    Flag(bool),
    Path(String),
}

impl Config {
    /// The nearest `wirelint.toml` at or above `root`, parsed; read with
    /// the default size limit.
    pub fn find(root: &Path) -> Result<Option<Config>, Box<ContractError>> {
        Config::find_limited(root, crate::input::DEFAULT_LIMIT)
    }

    /// The nearest `wirelint.toml` at or above `root`, at most `limit`
    /// bytes, searched up to the top of the git repository holding `root`
    /// (a file above it is not the repository's: it never applies), or up
    /// to `/` outside any repository. A `wirelint.toml` that is not a
    /// regular file (a FIFO, a link to a device) is an error, never
    /// skipped or waited on; one that is a symbolic link to a file outside
    /// its repository is an error too, and that file is never read.
    pub fn find_limited(root: &Path, limit: u64) -> Result<Option<Config>, Box<ContractError>> {
        let start = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let top = start
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
            .map(Path::to_path_buf);
        let mut dir = Some(start.as_path());
        while let Some(d) = dir {
            let candidate = d.join(FILE_NAME);
            if let Ok(meta) = std::fs::symlink_metadata(&candidate) {
                if meta.file_type().is_symlink() && !inside(&candidate, &repository_of(d)) {
                    return Err(Box::new(ContractError {
                        origin: candidate.display().to_string(),
                        text: String::new(),
                        message:
                            "it is a symbolic link to a file outside the repository; it is not read"
                                .into(),
                        span: None,
                        label: String::new(),
                        help: Some("make wirelint.toml a file of the repository".into()),
                    }));
                }
                return Config::load_limited(&candidate, limit).map(Some);
            }
            if Some(d) == top.as_deref() {
                break;
            }
            dir = d.parent();
        }
        Ok(None)
    }

    pub fn load(path: &Path) -> Result<Config, Box<ContractError>> {
        Config::load_limited(path, crate::input::DEFAULT_LIMIT)
    }

    /// Reads and parses `path` (at most `limit` bytes).
    pub fn load_limited(path: &Path, limit: u64) -> Result<Config, Box<ContractError>> {
        let text = crate::input::read_text(path, limit).map_err(|e| {
            Box::new(ContractError {
                origin: path.display().to_string(),
                text: String::new(),
                message: format!("cannot read: {e}"),
                span: None,
                label: String::new(),
                help: None,
            })
        })?;
        Config::parse(&text, path)
    }

    /// The contract file this names, which must lie inside its repository
    /// ([`repository_of`]): a tree under review must not make wirelint read,
    /// and echo in its errors, a file elsewhere on the machine. (`--contract`
    /// on the command line can name any file.)
    pub fn contract_path(&self) -> Result<Option<&Path>, Box<ContractError>> {
        let (ContractSetting::Path(p), Some(span)) = (&self.contract, &self.contract_span) else {
            return Ok(None);
        };
        let repo = repository_of(self.path.parent().unwrap_or(Path::new(".")));
        if inside(p, &repo) {
            return Ok(Some(p));
        }
        Err(Box::new(ContractError {
            origin: self.path.display().to_string(),
            text: self.text.clone(),
            message: format!(
                "the contract it names is outside the repository ({})",
                repo.display()
            ),
            span: Some(span.clone()),
            label: "outside the repository".into(),
            help: Some(
                "name a contract outside the repository on the command line: --contract FILE"
                    .into(),
            ),
        }))
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config, Box<ContractError>> {
        let origin = path.display().to_string();
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let (message, help) = crate::contract::describe_toml_error(e.message());
            Box::new(ContractError {
                origin: origin.clone(),
                text: text.to_string(),
                message,
                span: e.span(),
                label: "here".into(),
                help,
            })
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let contract_span = raw.contract.as_ref().map(|c| c.span());
        let contract = match raw.contract.map(|c| c.into_inner()) {
            None => ContractSetting::Embedded { named: false },
            Some(RawContractSetting::Flag(true)) => ContractSetting::Embedded { named: true },
            Some(RawContractSetting::Flag(false)) => ContractSetting::Off,
            // A path is written as a path; anything else names a shipped
            // contract, whatever file of that name lies beside.
            Some(RawContractSetting::Path(p)) if crate::contract::shipped::is_path(&p) => {
                ContractSetting::Path(base.join(p))
            }
            Some(RawContractSetting::Path(p)) if crate::contract::shipped::named(&p).is_some() => {
                ContractSetting::Shipped(p)
            }
            Some(RawContractSetting::Path(p)) => {
                return Err(unknown_contract(&p, contract_span, &origin, text));
            }
        };
        let settings = crate::config::settings::Settings::from_raw(
            crate::config::settings::RawSettings {
                select: raw.select,
                ignore: raw.ignore,
                exclude: raw.exclude,
                severity: raw.severity,
                speakers: raw.speakers,
                generated: raw.generated,
            },
            base,
        )
        .map_err(|(message, span, help)| {
            Box::new(ContractError {
                origin: origin.clone(),
                text: text.to_string(),
                message,
                span: Some(span),
                label: "here".into(),
                help,
            })
        })?;
        Ok(Config {
            path: path.to_path_buf(),
            text: text.to_string(),
            contract,
            contract_span,
            prefix: raw.prefix,
            settings,
        })
    }
}

/// `contract = "NAME"` naming no shipped contract: the error points at it
/// and lists the names there are.
fn unknown_contract(
    name: &str,
    span: Option<std::ops::Range<usize>>,
    origin: &str,
    text: &str,
) -> Box<ContractError> {
    let (near, listing) = crate::contract::shipped::unknown(name, "\"");
    // A sentence of its own after the question.
    let mut chars = listing.chars();
    let listing: String = chars
        .next()
        .into_iter()
        .flat_map(char::to_uppercase)
        .chain(chars)
        .collect();
    let listing = match near {
        Some(n) => format!("{n} {listing}"),
        None => listing,
    };
    Box::new(ContractError {
        origin: origin.to_string(),
        text: text.to_string(),
        message: format!("no shipped contract is named `{name}`"),
        span,
        label: "not a shipped contract".into(),
        help: Some(listing),
    })
}

/// The repository holding `dir`: its nearest ancestor (itself included)
/// with a `.git`, else `dir` itself; canonical.
pub fn repository_of(dir: &Path) -> PathBuf {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    dir.ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(&dir)
        .to_path_buf()
}

/// Whether `path`, with every link resolved (its directory's when it does
/// not exist), lies under `repo`.
fn inside(path: &Path, repo: &Path) -> bool {
    let resolved = std::fs::canonicalize(path).or_else(|_| {
        let parent = path.parent().unwrap_or(Path::new("."));
        std::fs::canonicalize(parent).map(|d| d.join(path.file_name().unwrap_or_default()))
    });
    match resolved {
        Ok(p) => p.starts_with(repo),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_settings() {
        let p = Path::new("/r/wirelint.toml");
        assert_eq!(
            Config::parse("", p).unwrap().contract,
            ContractSetting::Embedded { named: false }
        );
        assert_eq!(
            Config::parse("contract = false", p).unwrap().contract,
            ContractSetting::Off
        );
        assert_eq!(
            Config::parse("contract = \"rules/q.toml\"", p)
                .unwrap()
                .contract,
            ContractSetting::Path(PathBuf::from("/r/rules/q.toml"))
        );
        let e = Config::parse("contrat = false", p).unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean `contract`?"));
    }
}
